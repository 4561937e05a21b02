/* sb-history changes' printer: the change points, failed points, detectable range and verdict of the built model (changes.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt/export.h"
#include "history_priv.h"

static void print_text(FILE *out, const struct found *f, size_t nf, int md)
{
	if (md && nf > 0)
		fputs("| series | first kernel after | change | 95% interval | p | holds at newest |\n"
		      "|---|---|---|---|---|---|\n", out);
	for (size_t i = 0; i < nf; i++) {
		const struct sb_cp_change *c = f[i].c;

		if (md)
			fprintf(out, "| %s | %s (%.10s) | %.1f%% %s | %+.1f%% to %+.1f%% | %.2g | %s (%s) |\n",
				f[i].name, f[i].at->column, f[i].at->date, fabs(c->pct), c->pct < 0 ? "worse" : "better",
				c->lo, c->hi, c->p, c->holds ? "yes" : "no", f[i].newest->column);
		else
			fprintf(out, "%s: from %s (%.10s): %.1f%% %s [%+.1f%%, %+.1f%%], p %.2g, %s at %s\n",
				f[i].name, f[i].at->column, f[i].at->date, fabs(c->pct),
				c->pct < 0 ? "worse" : "better", c->lo, c->hi, c->p,
				c->holds ? "still holds" : "does not hold", f[i].newest->column);
	}
}

/* A JSON record's opening: its series' testcase, params and testbed (after a comma unless first). */
static void json_series_head(FILE *out, const struct sb_hist_sweep *s, int more)
{
	fputs(more ? ",\n  {\"test\": " : "\n  {\"test\": ", out);
	sb_json_str(out, s->test);
	fputs(", \"params\": ", out);
	sb_json_str(out, s->params);
	fputs(", \"testbed\": ", out);
	sb_json_str(out, s->tb_name);
}

static void print_json(FILE *out, const struct sb_hist *h, const struct found *f, size_t nf,
		       const struct sb_changes_opts *o, size_t ns, size_t nreg)
{
	fprintf(out, "{\"series\": %zu, \"sweeps\": %zu, \"alpha\": ", ns, h->nsw);
	sb_json_num(out, o->cp.alpha);
	fputs(", \"since\": ", out);
	if (o->since)
		sb_json_str(out, o->since);
	else
		fputs("null", out);
	fprintf(out, ", \"regressions\": %zu, \"changes\": [", nreg);
	for (size_t i = 0; i < nf; i++) {
		const struct sb_cp_change *c = f[i].c;
		const struct sb_hist_sweep *s = &h->sw[f[i].se->sw[0]];

		json_series_head(out, s, i > 0);
		fputs(", \"mode\": ", out);
		sb_json_str(out, h->modes[f[i].se->mode]);
		fprintf(out, f[i].se->tasks ? ", \"tasks\": %ld" : ", \"tasks\": \"curve\"", f[i].se->tasks);
		fputs(", \"last_before\": ", out);
		sb_json_str(out, f[i].last->column);
		fputs(", \"last_before_commit\": ", out);
		sb_json_str(out, f[i].last->commit);
		fputs(", \"at\": ", out);
		sb_json_str(out, f[i].at->column);
		fputs(", \"at_commit\": ", out);
		sb_json_str(out, f[i].at->commit);
		fputs(", \"at_date\": ", out);
		sb_json_str(out, f[i].at->date);
		fputs(", \"at_run_id\": ", out);
		sb_json_str(out, f[i].at->run_id);
		fputs(", \"newest\": ", out);
		sb_json_str(out, f[i].newest->column);
		fputs(", \"before\": ", out);
		sb_json_num(out, c->before);
		fputs(", \"after\": ", out);
		sb_json_num(out, c->after);
		fputs(", \"pct\": ", out);
		sb_json_num(out, c->pct);
		fputs(", \"lo\": ", out);
		sb_json_num(out, c->lo);
		fputs(", \"hi\": ", out);
		sb_json_num(out, c->hi);
		fputs(", \"p\": ", out);
		sb_json_num(out, c->p);
		fprintf(out, ", \"holds\": %s, \"regression\": %s, \"gates\": %s}", c->holds ? "true" : "false",
			f[i].regression ? "true" : "false", f[i].counts ? "true" : "false");
	}
	fputs(nf ? "\n]" : "]", out);
}

/*
 * The failed points (added with --partial), each said: not a value to leave
 * out of the series, a measurement that failed; those at or after --since
 * gate as a regression does.
 */
static void print_failed(FILE *out, const struct changes_model *m, int json, int md)
{
	for (size_t i = 0; i < m->nfailed; i++) {
		const struct failed_point *fp = &m->failed[i];
		const struct sb_hist_sweep *s = fp->s;

		if (json) {
			json_series_head(out, s, i > 0);
			fputs(", \"point\": ", out);
			sb_json_str(out, fp->pt);
			fputs(", \"at\": ", out);
			sb_json_str(out, s->column);
			fputs(", \"at_date\": ", out);
			sb_json_str(out, s->date);
			fputs(", \"at_run_id\": ", out);
			sb_json_str(out, s->run_id);
			fprintf(out, ", \"gates\": %s}", fp->gates ? "true" : "false");
		} else {
			fprintf(out, "%s%s%s%s %s on %s: FAILED at %s (%.10s): a run measured no progress (0 ops/s)%s\n",
				md ? "- " : "", s->test, *s->params ? " [" : "", s->params,
				fp->pt, s->tb_name, s->column, s->date, fp->gates ? "" : " (before --since)");
		}
	}
	if (json && m->nfailed > 0)
		fputs("\n", out);
}

/* [lo, hi] as JSON, or null */
static void json_range(FILE *out, const double *r)
{
	if (!isfinite(r[0])) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	sb_json_num(out, r[0]);
	fputs(", ", out);
	sb_json_num(out, r[1]);
	fputc(']', out);
}

/* "Detectable from one kernel to the next ...": what the history lets each series show. */
static void print_detectable(FILE *out, const double *r, int md)
{
	const char *pm = md ? "±" : "+/-";

	if (!isfinite(r[0]) && !isfinite(r[2]))
		return;
	fprintf(out, "%sDetectable from one kernel to the next (one sweep each, the drift between sweeps in it; "
		"5%%, 80%% power):", md ? "\n" : "");
	if (isfinite(r[0]))
		fprintf(out, " %s%.1f%% to %s%.1f%% at a point", pm, r[0], pm, r[1]);
	if (isfinite(r[2]))
		fprintf(out, "%s %s%.1f%% to %s%.1f%% over a curve", isfinite(r[0]) ? "," : "", pm, r[2], pm, r[3]);
	fputs("\n", out);
}

/* ---- the formats: a printer each, and the table of them by name ---- */

static void changes_json(FILE *out, const struct sb_hist *h, const struct changes_model *m,
			 const struct sb_changes_opts *o)
{
	print_json(out, h, m->f, m->nf, o, m->ns, m->nreg);
	fputs(", \"detectable_pct\": {\"points\": ", out);
	json_range(out, m->det);
	fputs(", \"curves\": ", out);
	json_range(out, m->det + 2);
	fputs("}, \"failed\": [", out);
	print_failed(out, m, 1, 0);
	fputs("]}\n", out);
}

/* text and markdown: the change points, failed points, detectable range and verdict in words */
static void print_words(FILE *out, const struct sb_hist *h, const struct changes_model *m,
			const struct sb_changes_opts *o, int md)
{
	size_t nreg = m->nreg, nfail = m->nfail, nf = m->nf;

	fprintf(out, "%s%zu series over %zu sweeps in %zu group%s (testcase x params x testbed); false "
		"alarms held at %g%% over all of them%s\n%s", md ? "" : "", m->ns, h->nsw, h->ngroups,
		h->ngroups == 1 ? "" : "s", 100 * o->cp.alpha, nf ? ":" : ": no change point",
		md && nf ? "\n" : "");
	print_text(out, m->f, nf, md);
	print_failed(out, m, 0, md);
	print_detectable(out, m->det, md);
	fprintf(out, "%sVerdict: %s: %zu regression%s%s%s still hold%s at the newest kernel", md ? "\n" : "",
		nreg ? "REGRESSION" : nfail ? "FAILED" : "no regression", nreg, nreg == 1 ? "" : "s",
		o->since ? " at or after " : "", o->since ? o->since : "", nreg == 1 ? "s" : "");
	if (nfail)
		fprintf(out, "; %zu failed point%s%s%s", nfail, nfail == 1 ? "" : "s",
			o->since ? " at or after " : "", o->since ? o->since : "");
	fputs("\n", out);
}

static void changes_text(FILE *out, const struct sb_hist *h, const struct changes_model *m,
			 const struct sb_changes_opts *o)
{
	print_words(out, h, m, o, 0);
}

static void changes_markdown(FILE *out, const struct sb_hist *h, const struct changes_model *m,
			     const struct sb_changes_opts *o)
{
	print_words(out, h, m, o, 1);
}

/* changes' formats: a new one is a printer above and a row here (and its words in docs/HISTORY.md) */
static const struct {
	const char *name;
	void (*print)(FILE *out, const struct sb_hist *h, const struct changes_model *m,
		      const struct sb_changes_opts *o);
} formats[] = {
	{ "text", changes_text },
	{ "markdown", changes_markdown },
	{ "json", changes_json },
};

const char *sb_changes_format(size_t i)
{
	return i < sizeof(formats) / sizeof(formats[0]) ? formats[i].name : NULL;
}

/* m in o's format (one of the table's: sb-history checks it first) */
void sb_changes_print(FILE *out, const struct sb_hist *h, const struct changes_model *m,
		      const struct sb_changes_opts *o)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(o->format, formats[i].name) == 0)
			formats[i].print(out, h, m, o);
}
