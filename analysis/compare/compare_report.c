/* The comparison's reports from its built model: text, markdown, csv, dashboard JSON and --point's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/export.h"
#include "fmt/rate.h"
#include "compare_priv.h"

/* Each pair whose system checks differ, then each whose reference loop ran at another speed, then each with values in two groups, then each whose curve test left runs out: a note (text: "Note: ...", markdown: a quote). */
static void print_system_notes(const struct ctx *c, int md)
{
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		if (!pr->system[0])
			continue;
		fprintf(c->out, "\n%s %s and %s were measured with different system settings (base/new: %s): "
			"part of a difference may be the machine's, not the kernel's (runtest.sh --check-system; "
			"--tune sets governor, turbo and ASLR for a sweep).\n",
			md ? "> **Note:**" : "Note:", pr->base->name, pr->x->name, pr->system);
	}
	for (int i = 0; i < c->nruns - 1; i++)
		if (c->pairs[i].reference[0])
			fprintf(c->out, "\n%s %s.\n", md ? "> **Note:**" : "Note:", c->pairs[i].reference);
	for (int i = 0; i < c->nruns - 1; i++)
		if (c->pairs[i].bimodal[0])
			fprintf(c->out, "\n%s %s.\n", md ? "> **Note:**" : "Note:", c->pairs[i].bimodal);
	for (int i = 0; i < c->nruns - 1; i++)
		if (c->pairs[i].curve_note[0])
			fprintf(c->out, "\n%s %s.\n", md ? "> **Note:**" : "Note:", c->pairs[i].curve_note);
}

static const char *verdict_word(const struct row *r)
{
	switch (r->v) {
	case V_FASTER:
		return r->beyond ? "faster" : "faster, under threshold";
	case V_SLOWER:
		return r->beyond ? "slower" : "slower, under threshold";
	case V_SAME:
		return "no difference proven";
	default:
		return r->bv->n < needed(r) || r->xv->n < needed(r) ?
		       "n/a: fewer than 3 values" : "n/a: base is 0";
	}
}

static const char *csv_verdict(enum verdict v)
{
	static const char *const w[] = { "na", "same", "faster", "slower" };

	return w[v];
}

/* "0.52%/0.61%": both sides' precision, "-" for a side without one. */
static const char *fmt_prec(char *buf, size_t len, const struct row *r)
{
	char b[24], x[24];

	if (isnan(r->bprec))
		snprintf(b, sizeof(b), "-");
	else
		snprintf(b, sizeof(b), "%.2f%%", r->bprec);
	if (isnan(r->xprec))
		snprintf(x, sizeof(x), "-");
	else
		snprintf(x, sizeof(x), "%.2f%%", r->xprec);
	snprintf(buf, len, "%s/%s", b, x);
	return buf;
}

static const char *or_dash(const char *s)
{
	return *s ? s : "-";
}

static void print_run_lines(const struct ctx *c)
{
	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];
		int bad = strcmp(r->status, "complete") != 0;

		fprintf(c->out, "  %-4s  %s: kernel %s, host %s", i ? "new" : "base", r->name,
			or_dash(r->kernel), or_dash(r->host));
		if (strcmp(r->test, c->runs[0].test) != 0)
			fprintf(c->out, ", TESTCASE %s", r->test);
		if (r->params != NULL && *r->params)
			fprintf(c->out, ", params %s", r->params);
		fputs("\n", c->out);
		fprintf(c->out, "        %s (%s%s%s%s%s)\n", r->dir, bad ? "STATUS " : "", r->status,
			bad ? ", compared with --force" : "",
			*r->date ? ", " : "", r->date);
		if (i > 0 && c->pairs[i - 1].machine[0])
			fprintf(c->out, "        DIFFERENT MACHINE than base: %s differ (compared with --force)\n",
				c->pairs[i - 1].machine);
	}
}

static void print_md_runs(const struct ctx *c)
{
	fputs("| run | label | kernel | host | directory | status |\n"
	      "|---|---|---|---|---|---|\n", c->out);
	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];
		int bad = strcmp(r->status, "complete") != 0;

		fprintf(c->out, "| %s | ", i ? "new" : "base");
		sb_cmp_md_cell(c->out, r->name);
		if (strcmp(r->test, c->runs[0].test) != 0) {
			fputs(" (testcase **", c->out);
			sb_cmp_md_cell(c->out, r->test);
			fputs("**)", c->out);
		}
		if (r->params != NULL && *r->params) {
			fputs(" (params ", c->out);
			sb_cmp_md_cell(c->out, r->params);
			fputs(")", c->out);
		}
		fputs(" | ", c->out);
		sb_cmp_md_cell(c->out, r->kernel);
		fputs(" | ", c->out);
		sb_cmp_md_cell(c->out, r->host);
		fputs(" | ", c->out);
		sb_cmp_md_cell(c->out, r->dir);
		fputs(" | ", c->out);
		if (bad)
			fputs("**", c->out);
		sb_cmp_md_cell(c->out, r->status);
		fputs(bad ? "** (compared with --force) |\n" : " |\n", c->out);
	}
	for (int i = 1; i < c->nruns; i++)
		if (c->pairs[i - 1].machine[0]) {
			fputs("\n**Different machine** (compared with --force): ", c->out);
			sb_cmp_md_cell(c->out, c->runs[i].name);
			fprintf(c->out, " differs from base in %s.\n", c->pairs[i - 1].machine);
		}
}

/* The points side s of pr has and the other lacks, "processes:2 threads:4 ..." (the model's pr->only). */
static void print_only(const struct ctx *c, const struct pair *pr, int s, const char *prefix, const char *suffix)
{
	size_t total = pr->nonly[s], shown = total < 12 ? total : 12;

	if (total == 0)
		return;
	fprintf(c->out, "%sonly in %s (not compared):", prefix, s ? pr->x->name : pr->base->name);
	for (size_t i = 0; i < shown; i++)
		fprintf(c->out, " %s:%ld", pr->only[s][i]->mode, pr->only[s][i]->tasks);
	if (total > shown)
		fprintf(c->out, " and %zu more", total - shown);
	fputs(suffix, c->out);
}

/* What the figures of a table are means of: independent runs, or samples of one run. */
static const char *values_kind(const struct pair *pr)
{
	int runs = 0, samples = 0;

	for (size_t i = 0; i < pr->nrows; i++) {
		if (pr->rows[i].means)
			runs++;
		else
			samples++;
	}
	if (samples == 0)
		return "compared: the means of independent runs";
	if (runs == 0)
		return "compared: the per-second samples";
	return "compared: the means of independent runs where both have 2 or more, "
	       "else (--force) the per-second samples";
}

/* "+/-1.86%", "-" without one. */
static const char *fmt_detectable(char *buf, size_t len, double d, const char *pm)
{
	if (isnan(d))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%.2f%%", pm, d);
	return buf;
}

static const char *gate_word(int gated)
{
	return gated ? "changed" : "-";
}

static const char *curve_verdict(const struct ctx *c, const struct curve_test *ct)
{
	int beyond = fabs(ct->change) >= c->o->threshold;

	switch (ct->v) {
	case V_FASTER:
		return beyond ? "faster" : "faster, under threshold";
	case V_SLOWER:
		return beyond ? "slower" : "slower, under threshold";
	default:
		return "no difference proven";
	}
}

/*
 * Each mode's curve: the geometric mean of the change over its task counts
 * (docs/COMPARE.md "The gate"), text or markdown, after a pair's table.
 */
static void print_curves_test(const struct ctx *c, const struct pair *pr, int md)
{
	char dt[32], iv[64], rn[48];

	if (pr->ncurves == 0)
		return;
	if (md)
		fprintf(c->out, "**Curves** (the geometric mean of the change over a mode's task counts; "
			"run k of every point gives one value a side)\n\n"
			"| mode | points | runs | change | %g%% interval | detectable | gate | verdict |\n"
			"|---|---:|---:|---:|---:|---:|---|---|\n", c->o->conf);
	else
		fprintf(c->out, "Curves (the geometric mean of the change over a mode's task counts; "
			"run k of every point gives one value a side):\n"
			"  %-9s  %6s  %7s  %9s  %22s  %10s  %7s  %s\n", "mode", "points", "runs", "change",
			c->o->conf == 95 ? "95% interval" : "interval", "detectable", "gate", "verdict");
	for (size_t k = 0; k < pr->ncurves; k++) {
		const struct curve_test *ct = &pr->curves[k];

		snprintf(rn, sizeof(rn), "%zu/%zu", ct->n0, ct->n);
		snprintf(iv, sizeof(iv), "%+.2f%% to %+.2f%%", ct->lo, ct->hi);
		fmt_detectable(dt, sizeof(dt), ct->detectable, md ? "±" : "+/-");
		if (md)
			fprintf(c->out, "| %s | %zu | %s | %+.2f%% | %s | %s | %s | %s%s%s |\n", ct->mode,
				ct->npts, rn, ct->change, iv, dt, gate_word(ct->gated),
				ct->counts && ct->v == V_SLOWER ? "**" : "", curve_verdict(c, ct),
				ct->counts && ct->v == V_SLOWER ? "**" : "");
		else
			fprintf(c->out, "  %-9s  %6zu  %7s  %+8.2f%%  %22s  %10s  %7s  %s\n", ct->mode,
				ct->npts, rn, ct->change, iv, dt, gate_word(ct->gated), curve_verdict(c, ct));
	}
	fputs(md ? "\n" : "", c->out);
}

static void print_table_text(const struct ctx *c, const struct pair *pr)
{
	char b1[48], b2[48];
	int mw = 4;

	for (size_t i = 0; i < pr->nrows; i++)
		if ((int)strlen(pr->rows[i].b->mode) > mw)
			mw = (int)strlen(pr->rows[i].b->mode);
	fprintf(c->out, "%s against %s (%s):\n", pr->x->name, pr->base->name, values_kind(pr));
	if (pr->nrows == 0)
		fputs("  no point in common\n", c->out);
	else
		fprintf(c->out, "%6s  %-*s  %13s  %13s  %9s  %8s  %7s  %15s  %10s  %7s  %s\n", "tasks",
			mw, "mode", "base ops/s", "new ops/s", "change", "+/-", "runs", "precision",
			"detectable", "gate", "verdict");
	for (size_t i = 0; i < pr->nrows; i++) {
		const struct row *r = &pr->rows[i];
		char rn[48], pc[64], dt[32];

		snprintf(rn, sizeof(rn), "%zu/%zu", r->b->nruns, r->x->nruns);
		fmt_prec(pc, sizeof(pc), r);
		fprintf(c->out, "%6ld  %-*s  %13s  %13s  ", r->b->tasks, mw, r->b->mode,
			sb_rate_plain(b1, sizeof(b1), r->bv->st.mean),
			sb_rate_plain(b2, sizeof(b2), r->xv->st.mean));
		if (r->v == V_NA)
			fprintf(c->out, "%9s  %8s  %7s  %15s  %10s  %7s  %s\n", "-", "-", rn, pc, "-", "-",
				verdict_word(r));
		else
			fprintf(c->out, "%+8.2f%%  %7.2f%%  %7s  %15s  %10s  %7s  %s\n", r->vd.d.rel_pct,
				r->vd.d.rel_halfwidth_pct, rn, pc, fmt_detectable(dt, sizeof(dt), r->detectable, "+/-"),
				gate_word(r->gated), verdict_word(r));
	}
	print_only(c, pr, 0, "  ", "\n");
	print_only(c, pr, 1, "  ", "\n");
	if (pr->ncurves)
		fputs("\n", c->out);
	print_curves_test(c, pr, 0);
}

static void print_table_md(const struct ctx *c, const struct pair *pr)
{
	char b1[48], b2[48];

	fputs("**", c->out);
	sb_cmp_md_cell(c->out, pr->x->name);
	fputs("** against **", c->out);
	sb_cmp_md_cell(c->out, pr->base->name);
	fprintf(c->out, "** (%s)\n\n", values_kind(pr));
	if (pr->nrows == 0)
		fputs("No point in common.\n", c->out);
	else
		fputs("| tasks | mode | base ops/s | new ops/s | change | ± | runs | precision | detectable | gate | verdict |\n"
		      "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n", c->out);
	for (size_t i = 0; i < pr->nrows; i++) {
		const struct row *r = &pr->rows[i];
		int strong = r->counts && r->v == V_SLOWER;
		char pc[64], dt[32];

		fprintf(c->out, "| %ld | %s | %s | %s | ", r->b->tasks, r->b->mode,
			sb_rate_plain(b1, sizeof(b1), r->bv->st.mean),
			sb_rate_plain(b2, sizeof(b2), r->xv->st.mean));
		if (r->v == V_NA)
			fprintf(c->out, "- | - | ");
		else
			fprintf(c->out, "%+.2f%% | %.2f%% | ", r->vd.d.rel_pct, r->vd.d.rel_halfwidth_pct);
		fprintf(c->out, "%zu/%zu | %s | %s | %s | %s%s%s |\n", r->b->nruns, r->x->nruns,
			fmt_prec(pc, sizeof(pc), r), fmt_detectable(dt, sizeof(dt), r->detectable, "±"),
			r->v == V_NA ? "-" : gate_word(r->gated), strong ? "**" : "", verdict_word(r),
			strong ? "**" : "");
	}
	fputs("\n", c->out);
	print_only(c, pr, 0, "", "\n\n");
	print_only(c, pr, 1, "", "\n\n");
	print_curves_test(c, pr, 1);
}

static void report_text(const struct ctx *c)
{
	fprintf(c->out, "compare %s: %d new run%s against base, %g%% confidence, threshold %g%%\n",
		c->runs[0].test, c->nruns - 1, c->nruns > 2 ? "s" : "", c->o->conf,
		c->o->threshold);
	print_run_lines(c);
	for (int i = 0; i < c->nruns - 1; i++) {
		fputs("\n", c->out);
		print_table_text(c, &c->pairs[i]);
	}
	fputs("\n", c->out);
	sb_cmp_print_curves(c);
	if (c->correlated)
		fprintf(c->out, "\nNote: %s.\n", sb_cmp_correlated_note);
	else if (c->o->drift_pct == 0 && c->o->pool == 0)
		fprintf(c->out, "\nNote: %s.\n", sb_cmp_drift_note);
	else
		fprintf(c->out, "\nNote: %s.\n", c->drift_words);
	print_system_notes(c, 0);
	fputs("\n", c->out);
	sb_cmp_print_verdict(c, 0);
}

static void report_md(const struct ctx *c)
{
	sb_cmp_print_verdict(c, 1);
	print_md_runs(c);
	fputs("\n", c->out);
	for (int i = 0; i < c->nruns - 1; i++)
		print_table_md(c, &c->pairs[i]);
	sb_cmp_print_curves(c);
	if (c->correlated)
		fprintf(c->out, "\n> **Note:** %s.\n", sb_cmp_correlated_note);
	else if (c->o->drift_pct == 0 && c->o->pool == 0)
		fprintf(c->out, "\n> **Note:** %s.\n", sb_cmp_drift_note);
	else
		fprintf(c->out, "\n> **Note:** %s.\n", c->drift_words);
	print_system_notes(c, 1);
}

/*
 * The gate's columns of a point (issue 24): its p-value, whether the gate
 * calls it changed, the smallest detectable change, and its mode's curve.
 */
static void csv_gate(FILE *out, const struct pair *pr, const struct row *r)
{
	const struct curve_test *ct = NULL;

	for (size_t k = 0; k < pr->ncurves; k++)
		if (strcmp(pr->curves[k].mode, r->b->mode) == 0)
			ct = &pr->curves[k];
	if (r->v == V_NA)
		fputs(",,0,", out);
	else
		fprintf(out, ",%.6g,%d,%.6f", r->vd.d.p, r->gated, r->detectable);
	if (ct != NULL)
		fprintf(out, ",%.6f,%d", ct->change, ct->gated);
	else
		fputs(",,", out);
}

static void report_csv(const struct ctx *c)
{
	fputs("test,base,new,mode,tasks,base_n,base_mean,base_stddev,new_n,new_mean,new_stddev,"
	      "values,diff,diff_pm,change_pct,change_pm_pct,verdict,beyond_threshold,regression,"
	      "base_runs,new_runs,base_precision_pct,new_precision_pct,machine,"
	      "p_value,gate,detectable_pct,curve_change_pct,curve_gate\n", c->out);
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			const struct row *r = &pr->rows[k];

			sb_cmp_csv_cell(c->out, pr->base->test);
			putc(',', c->out);
			sb_cmp_csv_cell(c->out, pr->base->name);
			putc(',', c->out);
			sb_cmp_csv_cell(c->out, pr->x->name);
			fprintf(c->out, ",%s,%ld,%zu,%.6f,%.6f,%zu,%.6f,%.6f,%s,", r->b->mode,
				r->b->tasks, r->bv->n, r->bv->st.mean, r->bv->st.stddev, r->xv->n,
				r->xv->st.mean, r->xv->st.stddev, r->means ? "runs" : "samples");
			if (r->v == V_NA)
				fprintf(c->out, ",,,,%s,0,0", csv_verdict(r->v));
			else
				fprintf(c->out, "%.6f,%.6f,%.6f,%.6f,%s,%d,%d", r->vd.d.diff,
					r->vd.d.halfwidth, r->vd.d.rel_pct, r->vd.d.rel_halfwidth_pct,
					csv_verdict(r->v), r->counts, r->counts && r->v == V_SLOWER);
			fprintf(c->out, ",%zu,%zu,", r->b->nruns, r->x->nruns);
			if (!isnan(r->bprec))
				fprintf(c->out, "%.6f", r->bprec);
			putc(',', c->out);
			if (!isnan(r->xprec))
				fprintf(c->out, "%.6f", r->xprec);
			/* "same", or the differing keys (only with --force) */
			putc(',', c->out);
			sb_cmp_csv_cell(c->out, pr->machine[0] ? pr->machine : "same");
			csv_gate(c->out, pr, r);
			putc('\n', c->out);
		}
	}
	if (c->correlated)
		fprintf(stderr, "compare: note: %s\n", sb_cmp_correlated_note);
}

/*
 * Every point as github-action-benchmark's customBiggerIsBetter list or
 * Bencher's BMF: one entry a point, the value new's mean in % of base's
 * (100 unchanged, bigger better), the range its interval. A ratio, not the
 * signed change: gab alerts on previous/current of a bigger-is-better value,
 * which a signed percentage turns upside down (-8 to -0.5 read as 16x worse).
 * Bencher's lower bound is cut at 0 (a throughput ratio is never negative).
 * A point without a change (n/a) is left out, never written as 100; one
 * compared on samples (--force) has no range.
 */
static void report_json(const struct ctx *c)
{
	int gab = c->o->format == SB_CMP_GAB, first = 1;

	fputs(gab ? "[" : "{", c->out);
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			const struct row *r = &pr->rows[k];
			char name[900], extra[1200], range[64], who[600] = "";
			double ratio = 100 + r->vd.d.rel_pct, hw = r->vd.d.rel_halfwidth_pct;

			if (r->v == V_NA)
				continue;
			/* one new run: a stable name, so the dashboard keeps its history */
			if (c->nruns > 2)
				snprintf(who, sizeof(who), gab ? " (%s)" : "/%s", pr->x->name);
			if (gab)
				snprintf(name, sizeof(name), "%s %s, %ld task%s: new/base%s", pr->base->test,
					 r->b->mode, r->b->tasks, r->b->tasks == 1 ? "" : "s", who);
			else
				snprintf(name, sizeof(name), "%s/%s/%ld%s", pr->base->test, r->b->mode,
					 r->b->tasks, who);
			fputs(first ? "\n  " : ",\n  ", c->out);
			first = 0;
			if (!gab) {
				sb_json_str(c->out, name);
				fputs(": {\"ratio_pct\": {\"value\": ", c->out);
				sb_json_num(c->out, ratio);
				if (r->means) {
					fputs(", \"lower_value\": ", c->out);
					sb_json_num(c->out, fmax(ratio - hw, 0));
					fputs(", \"upper_value\": ", c->out);
					sb_json_num(c->out, ratio + hw);
				}
				fputs("}, \"detectable_pct\": {\"value\": ", c->out);
				sb_json_num(c->out, r->detectable);
				fputs("}}", c->out);
				continue;
			}
			fputs("{\"name\": ", c->out);
			sb_json_str(c->out, name);
			fputs(", \"unit\": \"% of base\", \"value\": ", c->out);
			sb_json_num(c->out, ratio);
			if (r->means) {
				snprintf(range, sizeof(range), "± %.6g", hw);
				fputs(", \"range\": ", c->out);
				sb_json_str(c->out, range);
			}
			snprintf(extra, sizeof(extra), "%s against %s: %s, %+.2f%%; runs %zu/%zu; %s%s%s",
				 pr->x->name, pr->base->name, verdict_word(r), r->vd.d.rel_pct, r->b->nruns,
				 r->x->nruns,
				 r->means ? "range: 95% confidence interval of the ratio across runs"
					  : "per-second samples compared (correlated): no interval",
				 pr->machine[0] ? "; machine differs: " : "", pr->machine);
			snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), "; gate: %s; detectable ± %.3g%%",
				 r->gated ? "changed" : "no change", r->detectable);
			fputs(", \"extra\": ", c->out);
			sb_json_str(c->out, extra);
			fputc('}', c->out);
		}
	}
	fputs(gab ? "\n]\n" : "\n}\n", c->out);
	if (c->correlated)
		fprintf(stderr, "compare: note: %s\n", sb_cmp_correlated_note);
}

/* --point: ministat's block for one point, base first, with the runs and the verdict around it. */
static void report_point(const struct ctx *c)
{
	int md = c->o->format == SB_CMP_MARKDOWN;

	for (int i = 1; i < c->nruns; i++)
		if (c->pairs[i - 1].machine[0])
			fprintf(c->out, "%sDIFFERENT MACHINE%s (compared with --force): %s differs from base in %s\n\n",
				md ? "**" : "", md ? "**" : "", c->runs[i].name, c->pairs[i - 1].machine);
	if (md) {
		sb_cmp_print_verdict(c, 1);
		print_md_runs(c);
		fputs("\n```\n", c->out);
	} else {
		fprintf(c->out, "compare %s, point %s:%ld\n", c->runs[0].test, c->point->mode, c->point->tasks);
		print_run_lines(c);
		fputs("\n", c->out);
	}
	fwrite(c->point->block, 1, c->point->len, c->out);
	if (md) {
		fputs("```\n", c->out);
		if (c->correlated)
			fprintf(c->out, "\n> **Note:** %s.\n", sb_cmp_correlated_note);
	} else {
		if (c->correlated)
			fprintf(c->out, "\nNote: %s.\n", sb_cmp_correlated_note);
		fputs("\n", c->out);
		sb_cmp_print_verdict(c, 0);
	}
}

void sb_cmp_report(const struct ctx *c)
{
	if (c->point != NULL)
		report_point(c);
	else if (c->o->format == SB_CMP_MARKDOWN)
		report_md(c);
	else if (c->o->format == SB_CMP_CSV)
		report_csv(c);
	else if (c->o->format == SB_CMP_GAB || c->o->format == SB_CMP_BENCHER)
		report_json(c);
	else
		report_text(c);
}
