/* Comparing scalebench runs point by point: the table, peak and scalability, the CI verdict. */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "msg.h"
#include "peak.h"
#include "results.h"
#include "compare_runs.h"

enum verdict { V_NA, V_SAME, V_FASTER, V_SLOWER };

/* The chance a change of the "detectable" size is caught: the usual 80%. */
#define SB_GATE_POWER 0.8

struct row {
	const struct sb_point *b, *x;
	const struct sb_values *bv, *xv;	/* what is compared: both per-run means, or both samples */
	int means;
	double bprec, xprec;	/* each side's precision: its interval's half-width, % of its mean; NAN for samples */
	struct sb_tdiff d;
	enum verdict v;
	int beyond;		/* significant (its own interval) and at least the threshold */
	int gated;		/* the gate's procedure calls it changed (docs/COMPARE.md "The gate") */
	int counts;		/* gated and at least the threshold: what exits 1 */
	double detectable;	/* smallest change (%) detectable at the gate's level for it; NAN */
};

/*
 * A mode's curve: the geometric mean of the change over its task counts.
 * Each run index k gives one value a side, the mean over the points of
 * log(run k's mean), so what one round (or sweep) shares across points is
 * in the spread rather than mistaken for a change.
 */
struct curve_test {
	const char *mode;
	size_t npts, n0, n;	/* points in it; runs used a side (the fewest any point has) */
	struct sb_ttest tt;	/* on the log values */
	double change, lo, hi;	/* % change and its conf% interval */
	double detectable;	/* % (100 x the log ratio) detectable at the gate's level; NAN */
	enum verdict v;		/* its own interval's */
	int gated, counts;
};

/* NEW against BASE: one row per point both have, and the tallies of the verdicts. */
struct pair {
	const struct sb_run *base, *x;
	struct row *rows;
	size_t nrows;
	size_t nfaster, nslower, nsame, nna, nregress, nchange;
	int correlated;		/* some row compares per-second samples */
	struct curve_test *curves;	/* one per mode with 2 or more points compared on runs */
	size_t ncurves;
	char machine[192];	/* the machine's meta keys that differ from base's ("host, cpu_model"), "" */
	char system[256];	/* the system checks' settings that differ ("governor powersave/performance"), "" */
};

struct ctx {
	const struct sb_cmp_opts *o;
	FILE *out;
	struct sb_run *runs;
	int nruns;
	struct pair *pairs;	/* nruns - 1 */
	int correlated;
	size_t gate_points, gate_curves;	/* the gate's family */
};


/*
 * The machine's meta keys: runs that differ in one measured different
 * hardware (or placement) and are refused unless --force. A key absent from
 * either meta (an older run) cannot differ. A VM run's host_* keys are the
 * machine QEMU ran on (every guest is host=scalebench-guest).
 */
static void machine_diff(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size)
{
	const char *const names[] = { "host", "cpu_model", "topology", "hwloc_version", "placement",
				      "host_name", "host_cpu", "host_topology" };
	const char *bv[] = { b->host, b->cpu_model, b->topology, b->hwloc_version, b->placement,
			     b->host_name, b->host_cpu, b->host_topology };
	const char *xv[] = { x->host, x->cpu_model, x->topology, x->hwloc_version, x->placement,
			     x->host_name, x->host_cpu, x->host_topology };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (*bv[k] && *xv[k] && strcmp(bv[k], xv[k]) != 0 && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", names[k]);
}

/* The value of word key in a system check's "k=v k=v" line into buf ("" when absent). */
static const char *system_word(const char *line, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);

	buf[0] = '\0';
	for (const char *p = line; *p; ) {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1), p + klen + 1);
			break;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	return buf;
}

/*
 * The settings of the system checks (meta's system) that differ between
 * base and x and move the numbers: "governor powersave/performance, vm
 * none/kvm". A note, not a refusal: the kernel is the same machine's, its
 * settings are not. A check absent from either meta (an older run) cannot differ.
 */
static void system_diff(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size)
{
	const char *const keys[] = { "governor", "turbo", "smt", "thp", "vm" };
	size_t len = 0;

	buf[0] = '\0';
	if (!*b->system || !*x->system)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && len < size; k++) {
		char bv[64], xv[64];

		system_word(b->system, keys[k], bv, sizeof(bv));
		system_word(x->system, keys[k], xv, sizeof(xv));
		if (*bv && *xv && strcmp(bv, xv) != 0)
			len += (size_t)snprintf(buf + len, size - len, "%s%s %s/%s", len ? ", " : "", keys[k], bv, xv);
	}
}

/* Each pair whose system checks differ: a note (text: "Note: ...", markdown: a quote). */
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
}

/* Values a side needs: SB_INDEPENDENT_RUNS run means, or ministat's 3 samples. */
static size_t needed(const struct row *r)
{
	return r->means ? SB_INDEPENDENT_RUNS : SB_MINISTAT_MINVALUES;
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

/* ops/s: whole numbers when large (they are), a few digits when not. */
static const char *fmt_rate(char *buf, size_t len, double v)
{
	if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

/* The half-width of the conf% interval of v's mean in % of the mean; NAN without one. */
static double precision(const struct sb_values *v, double conf)
{
	if (v == NULL || v->n < 2 || !(v->st.mean > 0))
		return NAN;
	return 100 * sb_ci_halfwidth(&v->st, conf) / v->st.mean;
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

static void compare_pair(struct pair *pr, const struct sb_cmp_opts *o)
{
	const struct sb_run *b = pr->base, *x = pr->x;

	for (size_t i = 0; i < b->npts; i++) {
		const struct sb_point *bp = &b->pts[i], *xp = sb_run_find(x, bp->mode, bp->tasks);
		struct row *r;

		if (xp == NULL)
			continue;
		r = &pr->rows[pr->nrows++];
		memset(r, 0, sizeof(*r));
		r->b = bp;
		r->x = xp;
		/* Means of runs against samples would mix two different spreads. */
		r->means = bp->means.n > 0 && xp->means.n > 0;
		r->bv = r->means ? &bp->means : &bp->samples;
		r->xv = r->means ? &xp->means : &xp->samples;
		if (!r->means)
			pr->correlated = 1;
		r->bprec = precision(r->means ? r->bv : NULL, o->conf);
		r->xprec = precision(r->means ? r->xv : NULL, o->conf);
		if (r->bv->n < needed(r) || r->xv->n < needed(r) || !(r->bv->st.mean > 0) ||
		    sb_tdiff(r->bv->n, r->bv->st.mean, r->bv->var, r->xv->n, r->xv->st.mean,
			     r->xv->var, o->conf, &r->d) != 0) {
			r->v = V_NA;
			pr->nna++;
			continue;
		}
		/* The verdict is the printed interval's: change +/- its half-width. */
		if (!r->d.rel_significant) {
			r->v = V_SAME;
			pr->nsame++;
			continue;
		}
		r->v = r->d.diff > 0 ? V_FASTER : V_SLOWER;
		r->beyond = fabs(r->d.rel_pct) >= o->threshold;
		if (r->v == V_FASTER)
			pr->nfaster++;
		else
			pr->nslower++;
	}
}

/*
 * The curve of each mode with 2 or more points compared on run means: the
 * first n0 (n) run means of every point a side, n0 (n) the fewest any point
 * has. Returns 0, or 3 when memory runs out.
 */
static int compare_curves(struct pair *pr, const struct sb_cmp_opts *o)
{
	pr->curves = calloc(pr->nrows + 1, sizeof(*pr->curves));
	if (pr->curves == NULL)
		return 3;
	for (size_t i = 0; i < pr->nrows;) {
		const char *mode = pr->rows[i].b->mode;
		size_t end = i, npts = 0, n0 = SIZE_MAX, n = SIZE_MAX;
		int ok = 1;

		while (end < pr->nrows && strcmp(pr->rows[end].b->mode, mode) == 0)
			end++;
		for (size_t k = i; k < end; k++) {
			const struct row *r = &pr->rows[k];

			if (r->v == V_NA || !r->means)
				continue;
			npts++;
			n0 = r->bv->n < n0 ? r->bv->n : n0;
			n = r->xv->n < n ? r->xv->n : n;
			for (size_t j = 0; j < r->bv->n; j++)
				ok &= r->bv->v[j] > 0;
			for (size_t j = 0; j < r->xv->n; j++)
				ok &= r->xv->v[j] > 0;
		}
		if (ok && npts >= 2 && n0 >= 2 && n >= 2) {
			struct curve_test *ct = &pr->curves[pr->ncurves];
			double *g = calloc(n0 + n, sizeof(*g)), var0, var, q;
			struct sb_stats s0, s1;

			if (g == NULL)
				return 3;
			for (size_t k = i; k < end; k++) {
				const struct row *r = &pr->rows[k];

				if (r->v == V_NA || !r->means)
					continue;
				for (size_t j = 0; j < n0; j++)
					g[j] += log(r->bv->v[j]) / (double)npts;
				for (size_t j = 0; j < n; j++)
					g[n0 + j] += log(r->xv->v[j]) / (double)npts;
			}
			if (sb_stats_compute_var(g, n0, &s0, &var0, NULL) != 0 ||
			    sb_stats_compute_var(g + n0, n, &s1, &var, NULL) != 0) {
				free(g);
				return 3;
			}
			free(g);
			sb_ttest2(n0, s0.mean, var0, n, s1.mean, var, &ct->tt);
			ct->mode = mode;
			ct->npts = npts;
			ct->n0 = n0;
			ct->n = n;
			q = sb_student_quantile(1 - (1 - o->conf / 100) / 2, ct->tt.df);
			ct->change = 100 * expm1(ct->tt.diff);
			ct->lo = 100 * expm1(ct->tt.diff - q * ct->tt.se);
			ct->hi = 100 * expm1(ct->tt.diff + q * ct->tt.se);
			ct->v = ct->lo > 0 ? V_FASTER : ct->hi < 0 ? V_SLOWER : V_SAME;
			pr->ncurves++;
		}
		i = end;
	}
	return 0;
}

/* The level the gate tests one of its family's points (curves) at when nothing has changed. */
static double gate_level(const struct ctx *c, int curve)
{
	double alpha = 1 - c->o->conf / 100;

	if (c->o->gate == SB_GATE_POINT)
		return alpha;
	if (c->o->gate != SB_GATE_CURVES || c->gate_curves == 0)
		return alpha / (double)(c->gate_points ? c->gate_points : 1);
	/* half the level to the curves, half to the points */
	return alpha / 2 / (double)(curve ? c->gate_curves : c->gate_points ? c->gate_points : 1);
}

/*
 * sb_detectable's factor (the standard errors a detectable change is) for
 * df and level: the points of a comparison share a few, and each takes two
 * quantiles found by bisection, so the last ones are kept.
 */
static double detectable_factor(double df, double level)
{
	static double kdf[4], klevel[4], kf[4];
	static int next;

	for (int i = 0; i < 4; i++)
		if (kdf[i] == df && klevel[i] == level)
			return kf[i];
	kdf[next] = df;
	klevel[next] = level;
	kf[next] = sb_detectable(1.0, df, level, SB_GATE_POWER);
	next = (next + 1) % 4;
	return kf[(next + 3) % 4];
}

/*
 * The gate over the whole comparison: every point of every pair (and, with
 * SB_GATE_CURVES, every curve) is one hypothesis of one family, tested by
 * the chosen procedure at 1 - conf/100; then each pair's tallies. A point the
 * procedure rejects counts only when its own interval excludes 0 too (they
 * agree but for the t table's 3 decimals) and by the threshold or more.
 * Returns 0, or 3 when memory runs out.
 */
static int gate(struct ctx *c)
{
	const struct sb_cmp_opts *o = c->o;
	double alpha = 1 - o->conf / 100, *p, *w;
	size_t m = 0, k = 0;
	int *rej, rc = 0;

	c->gate_points = c->gate_curves = 0;
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		m += pr->nrows + pr->ncurves;
		for (size_t j = 0; j < pr->nrows; j++)
			c->gate_points += pr->rows[j].v != V_NA;
		if (o->gate == SB_GATE_CURVES)
			c->gate_curves += pr->ncurves;
	}
	p = calloc(m + 1, sizeof(*p));
	w = calloc(m + 1, sizeof(*w));
	rej = calloc(m + 1, sizeof(*rej));
	if (p == NULL || w == NULL || rej == NULL) {
		rc = 3;
		goto out;
	}
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t j = 0; j < pr->nrows; j++, k++) {
			p[k] = pr->rows[j].v == V_NA ? NAN : pr->rows[j].d.p;
			w[k] = gate_level(c, 0);
			rej[k] = pr->rows[j].v != V_NA && pr->rows[j].d.rel_significant;
		}
		for (size_t j = 0; j < pr->ncurves; j++, k++) {
			p[k] = o->gate == SB_GATE_CURVES ? pr->curves[j].tt.p : NAN;
			w[k] = gate_level(c, 1);
			rej[k] = 0;
		}
	}
	if (o->gate == SB_GATE_CURVES || o->gate == SB_GATE_HOLM)
		rc = sb_holm(p, w, m, alpha, rej, NULL) < 0 ? 3 : 0;
	else if (o->gate == SB_GATE_BH)
		rc = sb_bh(p, m, alpha, rej, NULL) < 0 ? 3 : 0;
	if (rc != 0)
		goto out;
	k = 0;
	for (int i = 0; i < c->nruns - 1; i++) {
		struct pair *pr = &c->pairs[i];

		pr->nregress = pr->nchange = 0;
		for (size_t j = 0; j < pr->nrows; j++, k++) {
			struct row *r = &pr->rows[j];

			r->gated = rej[k] && r->v != V_NA && r->d.rel_significant;
			r->counts = r->gated && r->beyond;
			r->detectable = r->v == V_NA ? NAN :
					r->d.null_se_pct * detectable_factor((double)r->d.df, gate_level(c, 0));
			pr->nchange += r->counts;
			pr->nregress += r->counts && r->v == V_SLOWER;
		}
		for (size_t j = 0; j < pr->ncurves; j++, k++) {
			struct curve_test *ct = &pr->curves[j];

			ct->gated = rej[k] && ct->v != V_SAME;
			ct->counts = ct->gated && fabs(ct->change) >= o->threshold;
			ct->detectable = o->gate != SB_GATE_CURVES ? NAN :
					 100 * ct->tt.se * detectable_factor(ct->tt.df, gate_level(c, 1));
			pr->nchange += ct->counts;
			pr->nregress += ct->counts && ct->v == V_SLOWER;
		}
	}
out:
	free(p);
	free(w);
	free(rej);
	return rc;
}

static int failing(const struct ctx *c)
{
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		if (c->o->fail_on == SB_FAIL_REGRESSION && pr->nregress > 0)
			return 1;
		if (c->o->fail_on == SB_FAIL_CHANGE && pr->nchange > 0)
			return 1;
	}
	return 0;
}

/* Markdown table cells: a '|' in a meta value would split the cell. */
static void md_cell(FILE *out, const char *s)
{
	if (*s == '\0') {
		fputs("-", out);
		return;
	}
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			putc(*s, out);
	}
}

static void csv_cell(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', out);
		putc(*s, out);
	}
	putc('"', out);
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
		md_cell(c->out, r->name);
		if (strcmp(r->test, c->runs[0].test) != 0) {
			fputs(" (testcase **", c->out);
			md_cell(c->out, r->test);
			fputs("**)", c->out);
		}
		if (r->params != NULL && *r->params) {
			fputs(" (params ", c->out);
			md_cell(c->out, r->params);
			fputs(")", c->out);
		}
		fputs(" | ", c->out);
		md_cell(c->out, r->kernel);
		fputs(" | ", c->out);
		md_cell(c->out, r->host);
		fputs(" | ", c->out);
		md_cell(c->out, r->dir);
		fputs(" | ", c->out);
		if (bad)
			fputs("**", c->out);
		md_cell(c->out, r->status);
		fputs(bad ? "** (compared with --force) |\n" : " |\n", c->out);
	}
	for (int i = 1; i < c->nruns; i++)
		if (c->pairs[i - 1].machine[0]) {
			fputs("\n**Different machine** (compared with --force): ", c->out);
			md_cell(c->out, c->runs[i].name);
			fprintf(c->out, " differs from base in %s.\n", c->pairs[i - 1].machine);
		}
}

/* The points one run has and the other lacks, "processes:2 threads:4 ...". */
static void print_only(const struct ctx *c, const struct sb_run *a, const struct sb_run *b,
		       const char *prefix, const char *suffix)
{
	size_t shown = 0, total = 0;

	for (size_t i = 0; i < a->npts; i++)
		if (sb_run_find(b, a->pts[i].mode, a->pts[i].tasks) == NULL)
			total++;
	if (total == 0)
		return;
	fprintf(c->out, "%sonly in %s (not compared):", prefix, a->name);
	for (size_t i = 0; i < a->npts && shown < 12; i++)
		if (sb_run_find(b, a->pts[i].mode, a->pts[i].tasks) == NULL) {
			fprintf(c->out, " %s:%ld", a->pts[i].mode, a->pts[i].tasks);
			shown++;
		}
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
			fmt_rate(b1, sizeof(b1), r->bv->st.mean),
			fmt_rate(b2, sizeof(b2), r->xv->st.mean));
		if (r->v == V_NA)
			fprintf(c->out, "%9s  %8s  %7s  %15s  %10s  %7s  %s\n", "-", "-", rn, pc, "-", "-",
				verdict_word(r));
		else
			fprintf(c->out, "%+8.2f%%  %7.2f%%  %7s  %15s  %10s  %7s  %s\n", r->d.rel_pct,
				r->d.rel_halfwidth_pct, rn, pc, fmt_detectable(dt, sizeof(dt), r->detectable, "+/-"),
				gate_word(r->gated), verdict_word(r));
	}
	print_only(c, pr->base, pr->x, "  ", "\n");
	print_only(c, pr->x, pr->base, "  ", "\n");
	if (pr->ncurves)
		fputs("\n", c->out);
	print_curves_test(c, pr, 0);
}

static void print_table_md(const struct ctx *c, const struct pair *pr)
{
	char b1[48], b2[48];

	fputs("**", c->out);
	md_cell(c->out, pr->x->name);
	fputs("** against **", c->out);
	md_cell(c->out, pr->base->name);
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
			fmt_rate(b1, sizeof(b1), r->bv->st.mean),
			fmt_rate(b2, sizeof(b2), r->xv->st.mean));
		if (r->v == V_NA)
			fprintf(c->out, "- | - | ");
		else
			fprintf(c->out, "%+.2f%% | %.2f%% | ", r->d.rel_pct, r->d.rel_halfwidth_pct);
		fprintf(c->out, "%zu/%zu | %s | %s | %s | %s%s%s |\n", r->b->nruns, r->x->nruns,
			fmt_prec(pc, sizeof(pc), r), fmt_detectable(dt, sizeof(dt), r->detectable, "±"),
			r->v == V_NA ? "-" : gate_word(r->gated), strong ? "**" : "", verdict_word(r),
			strong ? "**" : "");
	}
	fputs("\n", c->out);
	print_only(c, pr->base, pr->x, "", "\n\n");
	print_only(c, pr->x, pr->base, "", "\n\n");
	print_curves_test(c, pr, 1);
}

struct curve {
	const char *mode;
	long peak_tasks, max_tasks;
	long plateau_lo, plateau_hi;	/* the counts indistinguishable from the peak (sb_peak_find) */
	double peak, at_max, scal;	/* scal NAN without a 1-task point */
};

/* The plateau is summary.csv's: at 95% whatever --conf says, so that every report agrees. */
#define PEAK_CONF 95.0

/*
 * Peak, plateau and scalability of one mode of one run, from the means of its
 * points; pp holds room for all of the run's points.
 */
static int curve_of(const struct sb_run *r, size_t first, struct curve *cv, struct sb_peak_point *pp)
{
	const struct sb_values *one = NULL;
	struct sb_peak pk;
	size_t i;

	cv->mode = r->pts[first].mode;
	for (i = first; i < r->npts && strcmp(r->pts[i].mode, cv->mode) == 0; i++) {
		const struct sb_point *p = &r->pts[i];
		double mean = sb_point_values(p)->st.mean;

		/* a point of one run has no interval: n 1, never on another's plateau */
		pp[i - first] = (struct sb_peak_point){ .tasks = (unsigned long)p->tasks,
							.n = p->means.n > 0 ? p->means.n : 1,
							.mean = mean, .var = p->means.var };
		if (p->tasks == 1)
			one = sb_point_values(p);
		cv->max_tasks = p->tasks;
		cv->at_max = mean;
	}
	if (sb_peak_find(pp, i - first, PEAK_CONF, &pk) != 0)
		sb_die(3, "internal: no peak in %s's %s points", r->name, cv->mode);
	cv->peak = pp[pk.best].mean;
	cv->peak_tasks = (long)pp[pk.best].tasks;
	cv->plateau_lo = (long)pp[pk.lo].tasks;
	cv->plateau_hi = (long)pp[pk.hi].tasks;
	cv->scal = one != NULL && one->st.mean > 0 ?
		   cv->at_max / (cv->max_tasks * one->st.mean) : NAN;
	return (int)i;
}

/*
 * lkp-tests' will-it-scale.scalability: processes(N) / linear(N) at the last
 * row, linear(N) = N × the better mode's ops/s at 1 task. NAN without a
 * processes point at the largest N, a 1-task point, or with N = 1.
 */
static double lkp_scalability(const struct sb_run *r, long *n_out)
{
	const struct sb_point *p, *p1, *t1;
	double best1;
	long n = 0;

	for (size_t i = 0; i < r->npts; i++)
		if (r->pts[i].tasks > n)
			n = r->pts[i].tasks;
	*n_out = n;
	p = sb_run_find(r, "processes", n);
	p1 = sb_run_find(r, "processes", 1);
	t1 = sb_run_find(r, "threads", 1);
	best1 = p1 ? sb_point_values(p1)->st.mean : NAN;
	if (t1 && (isnan(best1) || sb_point_values(t1)->st.mean > best1))
		best1 = sb_point_values(t1)->st.mean;
	if (p == NULL || n <= 1 || !(best1 > 0))
		return NAN;
	return sb_point_values(p)->st.mean / ((double)n * best1);
}

static void print_lkp_scalability(const struct ctx *c)
{
	int md = c->o->format == SB_CMP_MARKDOWN;

	fputs(md ? "\n**Scalability** (lkp-tests' will-it-scale.scalability: processes(N) / linear(N) "
		   "at the largest task count N, linear(N) = N × the better mode at 1 task)\n\n"
		   "| run | N | scalability |\n|---|---:|---:|\n" :
		   "Scalability (lkp-tests' will-it-scale.scalability: processes(N) / linear(N) at the "
		   "largest task count N, linear(N) = N * the better mode at 1 task):\n", c->out);
	for (int i = 0; i < c->nruns; i++) {
		long n;
		double s = lkp_scalability(&c->runs[i], &n);
		char v[64];

		if (isnan(s))
			snprintf(v, sizeof(v), "n/a (needs processes at N > 1 and a 1-task point)");
		else
			snprintf(v, sizeof(v), "%.3f", s);
		if (md) {
			fputs("| ", c->out);
			md_cell(c->out, c->runs[i].name);
			fprintf(c->out, " | %ld | %s |\n", n, v);
		} else {
			fprintf(c->out, "  %-12s  N %-6ld  %s\n", c->runs[i].name, n, v);
		}
	}
}

static void print_curves(const struct ctx *c)
{
	enum sb_cmp_format f = c->o->format;
	char b1[48], b2[48], sc[32], pl[48];
	struct sb_peak_point *pp;
	size_t most = 1;
	int nw = 3;

	for (int i = 0; i < c->nruns; i++) {
		if ((int)strlen(c->runs[i].name) > nw)
			nw = (int)strlen(c->runs[i].name);
		if (c->runs[i].npts > most)
			most = c->runs[i].npts;
	}
	pp = calloc(most, sizeof(*pp));
	if (pp == NULL)
		sb_die(3, "out of memory");
	if (f == SB_CMP_MARKDOWN)
		fputs("**Peak and efficiency** (mean ops/s; plateau: the counts within the 95% interval "
		      "of the peak; efficiency = ops(N) / (N × ops(1)) of the mode, at the largest task count N)\n\n"
		      "| run | mode | peak ops/s | peak at tasks | plateau | largest N | ops/s at N | efficiency |\n"
		      "|---|---|---:|---:|---:|---:|---:|---:|\n", c->out);
	else
		fprintf(c->out, "Peak and efficiency (mean ops/s; plateau: the counts within the 95%% interval "
			"of the peak; efficiency = ops(N) / (N * ops(1)) of the mode, at the largest task count N):\n"
			"  %-*s  %-9s  %13s  %8s  %9s  %9s  %13s  %11s\n", nw, "run", "mode", "peak ops/s",
			"at tasks", "plateau", "largest N", "ops/s at N", "efficiency");
	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];

		for (size_t k = 0; k < r->npts;) {
			struct curve cv;

			k = (size_t)curve_of(r, k, &cv, pp);
			if (cv.plateau_lo < cv.plateau_hi)
				snprintf(pl, sizeof(pl), "%ld-%ld", cv.plateau_lo, cv.plateau_hi);
			else
				snprintf(pl, sizeof(pl), "%ld", cv.peak_tasks);
			if (isnan(cv.scal))
				snprintf(sc, sizeof(sc), "n/a (no 1-task point)");
			else
				snprintf(sc, sizeof(sc), "%.3f", cv.scal);
			fmt_rate(b1, sizeof(b1), cv.peak);
			fmt_rate(b2, sizeof(b2), cv.at_max);
			if (f == SB_CMP_MARKDOWN) {
				fputs("| ", c->out);
				md_cell(c->out, r->name);
				fprintf(c->out, " | %s | %s | %ld | %s | %ld | %s | %s |\n", cv.mode, b1,
					cv.peak_tasks, pl, cv.max_tasks, b2, sc);
			} else {
				fprintf(c->out, "  %-*s  %-9s  %13s  %8ld  %9s  %9ld  %13s  %11s\n", nw,
					r->name, cv.mode, b1, cv.peak_tasks, pl, cv.max_tasks, b2, sc);
			}
		}
	}
	free(pp);
	print_lkp_scalability(c);
}

static const char correlated_note[] =
	"per-second samples are compared (--force) where a side has a single run of a point; "
	"samples of one run are correlated, so those +/- figures are not 95% confidence "
	"intervals: they are too narrow and differences look more certain than they are; "
	"measure both sides with runtest.sh's default runs (3 or more a point) to compare "
	"the means of independent runs";

/* Said under every text and markdown report of single sweeps (no --vs). */
static const char drift_note[] =
	"each side is one sweep: its interval holds the spread of the runs within that sweep, "
	"not the drift of the machine between two sweeps (two sweeps of one kernel one after "
	"the other can differ by more); for a gate, alternate several sweeps of each side and "
	"pool them with --vs (docs/COMPARE.md)";

/* The procedure as the verdict names it, e.g. "weighted Holm over 6 points and 2 curves". */
static void print_procedure(const struct ctx *c)
{
	const struct sb_cmp_opts *o = c->o;
	size_t np = c->gate_points, nc = c->gate_curves;

	switch (o->gate) {
	case SB_GATE_POINT:
		fprintf(c->out, "%g%% confidence at each point alone, no control over the whole "
			"comparison (--gate point)", o->conf);
		return;
	case SB_GATE_BH:
		fprintf(c->out, "false discovery rate %g%% over the whole comparison: "
			"Benjamini-Hochberg over %zu point%s", 100 - o->conf, np, np == 1 ? "" : "s");
		return;
	default:
		fprintf(c->out, "%g%% confidence for the whole comparison: %s over %zu point%s",
			o->conf, nc ? "weighted Holm" : "Holm", np, np == 1 ? "" : "s");
		if (nc)
			fprintf(c->out, " and %zu curve%s", nc, nc == 1 ? "" : "s");
	}
}

/* "+/-1.20%" or "+/-1.20%..4.10%": the smallest and largest detectable change of points (curves). */
static void print_detectable(const struct ctx *c, int md)
{
	double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
	const char *pm = md ? "±" : "+/-";

	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			double d = pr->rows[k].detectable;

			if (!isnan(d)) {
				lo[0] = fmin(lo[0], d);
				hi[0] = fmax(hi[0], d);
			}
		}
		for (size_t k = 0; k < pr->ncurves; k++) {
			double d = pr->curves[k].detectable;

			if (!isnan(d)) {
				lo[1] = fmin(lo[1], d);
				hi[1] = fmax(hi[1], d);
			}
		}
	}
	if (isinf(lo[0]))
		return;
	fprintf(c->out, "%sDetectable (found 80%% of the time at the gate's level; smaller changes may "
		"pass unseen): %s%.2f%%", md ? "" : "  ", pm, lo[0]);
	if (hi[0] - lo[0] >= 0.005)	/* as printed */
		fprintf(c->out, " to %s%.2f%%", pm, hi[0]);
	fputs(" at a point", c->out);
	if (!isinf(lo[1])) {
		fprintf(c->out, ", %s%.2f%%", pm, lo[1]);
		if (hi[1] - lo[1] >= 0.005)
			fprintf(c->out, " to %s%.2f%%", pm, hi[1]);
		fputs(" over a whole curve (geometric mean)", c->out);
	}
	fputs(md ? ".\n\n" : ".\n", c->out);
}

/* The verdict sentence, e.g. "REGRESSION: 1 of 8 points ..." (without markup). */
static void print_verdict(const struct ctx *c, int md)
{
	const struct sb_cmp_opts *o = c->o;
	size_t reg = 0, chg = 0, creg = 0, cchg = 0, faster = 0, slower = 0, same = 0, na = 0;
	size_t total = 0, listed = 0;
	int bad = failing(c), change = o->fail_on == SB_FAIL_CHANGE;

	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			reg += pr->rows[k].counts && pr->rows[k].v == V_SLOWER;
			chg += pr->rows[k].counts;
		}
		for (size_t k = 0; k < pr->ncurves; k++) {
			creg += pr->curves[k].counts && pr->curves[k].v == V_SLOWER;
			cchg += pr->curves[k].counts;
		}
		faster += pr->nfaster;
		slower += pr->nslower;
		same += pr->nsame;
		na += pr->nna;
		total += pr->nrows;
	}
	if (md)
		fprintf(c->out, "### %s: compare %s\n\n",
			bad ? (change ? "CHANGE" : "REGRESSION") : "PASS", c->runs[0].test);
	else
		fprintf(c->out, "Verdict: %s: ",
			bad ? (change ? "CHANGE" : "REGRESSION") :
			reg + creg ? "regression, not failing (--fail-on never)" : "no regression");
	if (md)
		fprintf(c->out, "%s: ", bad ? (change ? "**Change**" : "**Regression**") : "No regression");
	fprintf(c->out, "%zu of %zu point%s significantly slower by %g%% or more", reg, total,
		total == 1 ? "" : "s", o->threshold);
	if (change)
		fprintf(c->out, ", %zu faster by %g%% or more", chg - reg, o->threshold);
	if (c->gate_curves && c->o->point == NULL) {
		fprintf(c->out, "; %zu of %zu curve%s slower", creg, c->gate_curves,
			c->gate_curves == 1 ? "" : "s");
		if (change)
			fprintf(c->out, ", %zu faster", cchg - creg);
	}
	fputs(" (", c->out);
	print_procedure(c);
	fprintf(c->out, "; each point's own %g%% interval: %zu faster, %zu slower, %zu no difference proven",
		o->conf, faster, slower, same);
	if (na)
		fprintf(c->out, ", %zu not comparable", na);
	fputs(")", c->out);
	/* what fails: the curves first, then the points */
	for (int i = 0; i < c->nruns - 1 && (reg + creg || (change && chg + cchg)); i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->ncurves; k++) {
			const struct curve_test *ct = &pr->curves[k];

			if (!ct->counts || (ct->v != V_SLOWER && !change))
				continue;
			if (listed++ >= 8)
				continue;
			fprintf(c->out, "%s %s %s curve %+.2f%% (%+.2f%% to %+.2f%%)",
				listed == 1 ? ":" : ",", pr->x->name, ct->mode, ct->change, ct->lo, ct->hi);
		}
	}
	for (int i = 0; i < c->nruns - 1 && (reg + creg || (change && chg + cchg)); i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			const struct row *r = &pr->rows[k];

			if (!r->counts || (r->v != V_SLOWER && !change))
				continue;
			if (listed++ >= 8)
				continue;
			fprintf(c->out, "%s %s %s at %ld task%s %+.2f%% %s %.2f%%",
				listed == 1 ? ":" : ",", pr->x->name, r->b->mode, r->b->tasks,
				r->b->tasks == 1 ? "" : "s", r->d.rel_pct, md ? "±" : "+/-",
				r->d.rel_halfwidth_pct);
		}
	}
	if (listed > 8)
		fprintf(c->out, " and %zu more", listed - 8);
	fputs(md ? ".\n\n" : ".\n", c->out);
	print_detectable(c, md);
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
	print_curves(c);
	if (c->correlated)
		fprintf(c->out, "\nNote: %s.\n", correlated_note);
	else if (c->o->pool == 0)
		fprintf(c->out, "\nNote: %s.\n", drift_note);
	print_system_notes(c, 0);
	fputs("\n", c->out);
	print_verdict(c, 0);
}

static void report_md(const struct ctx *c)
{
	print_verdict(c, 1);
	print_md_runs(c);
	fputs("\n", c->out);
	for (int i = 0; i < c->nruns - 1; i++)
		print_table_md(c, &c->pairs[i]);
	print_curves(c);
	if (c->correlated)
		fprintf(c->out, "\n> **Note:** %s.\n", correlated_note);
	else if (c->o->pool == 0)
		fprintf(c->out, "\n> **Note:** %s.\n", drift_note);
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
		fprintf(out, ",%.6g,%d,%.6f", r->d.p, r->gated, r->detectable);
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

			csv_cell(c->out, pr->base->test);
			putc(',', c->out);
			csv_cell(c->out, pr->base->name);
			putc(',', c->out);
			csv_cell(c->out, pr->x->name);
			fprintf(c->out, ",%s,%ld,%zu,%.6f,%.6f,%zu,%.6f,%.6f,%s,", r->b->mode,
				r->b->tasks, r->bv->n, r->bv->st.mean, r->bv->st.stddev, r->xv->n,
				r->xv->st.mean, r->xv->st.stddev, r->means ? "runs" : "samples");
			if (r->v == V_NA)
				fprintf(c->out, ",,,,%s,0,0", csv_verdict(r->v));
			else
				fprintf(c->out, "%.6f,%.6f,%.6f,%.6f,%s,%d,%d", r->d.diff,
					r->d.halfwidth, r->d.rel_pct, r->d.rel_halfwidth_pct,
					csv_verdict(r->v), r->counts, r->counts && r->v == V_SLOWER);
			fprintf(c->out, ",%zu,%zu,", r->b->nruns, r->x->nruns);
			if (!isnan(r->bprec))
				fprintf(c->out, "%.6f", r->bprec);
			putc(',', c->out);
			if (!isnan(r->xprec))
				fprintf(c->out, "%.6f", r->xprec);
			/* "same", or the differing keys (only with --force) */
			putc(',', c->out);
			csv_cell(c->out, pr->machine[0] ? pr->machine : "same");
			csv_gate(c->out, pr, r);
			putc('\n', c->out);
		}
	}
	if (c->correlated)
		fprintf(stderr, "compare: note: %s\n", correlated_note);
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
			double ratio = 100 + r->d.rel_pct, hw = r->d.rel_halfwidth_pct;

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
				 pr->x->name, pr->base->name, verdict_word(r), r->d.rel_pct, r->b->nruns,
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
		fprintf(stderr, "compare: note: %s\n", correlated_note);
}

static int parse_point(const char *spec, char *mode, size_t mlen, long *tasks)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	long t;

	if (colon == NULL || colon == spec || (size_t)(colon - spec) >= mlen)
		return -1;
	errno = 0;
	t = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *end != '\0' || errno == ERANGE || t < 1)
		return -1;
	memcpy(mode, spec, (size_t)(colon - spec));
	mode[colon - spec] = '\0';
	*tasks = t;
	return 0;
}

/* --point: ministat's full block for one point, base first. */
/*
 * The point's values in every run, into vals[]: per-run means only when
 * every run has them, else the samples. Returns 0, or 2 with a message.
 */
static int point_values(struct ctx *c, const char *mode, long tasks,
			const struct sb_point **pts, const struct sb_values **vals, int *means,
			char *err, size_t errlen)
{
	*means = 1;
	for (int i = 0; i < c->nruns; i++) {
		pts[i] = sb_run_find(&c->runs[i], mode, tasks);
		if (pts[i] == NULL)
			return sb_fail(err, errlen, 2, "%s has no point %s:%ld", c->runs[i].dir, mode,
				       tasks);
		*means &= pts[i]->means.n > 0;
	}
	for (int i = 0; i < c->nruns; i++) {
		vals[i] = *means ? &pts[i]->means : &pts[i]->samples;
		if (vals[i]->n < SB_MINISTAT_MINVALUES)
			return sb_fail(err, errlen, 2, "%s: point %s:%ld has %zu value%s; at least %d are "
				       "needed", c->runs[i].dir, mode, tasks, vals[i]->n,
				       vals[i]->n == 1 ? "" : "s", SB_MINISTAT_MINVALUES);
	}
	return 0;
}

/* The verdict of this one point decides the exit code: every pair keeps its row of base. */
static void keep_point_rows(struct ctx *c, const struct sb_point *base)
{
	for (int i = 1; i < c->nruns; i++) {
		struct pair *pr = &c->pairs[i - 1];
		size_t keep = 0;

		for (size_t k = 0; k < pr->nrows; k++)
			if (pr->rows[k].b == base)
				pr->rows[keep++] = pr->rows[k];
		pr->nrows = keep;
		pr->ncurves = 0;	/* the point's verdict only (the gate was the whole comparison's) */
		pr->nfaster = pr->nslower = pr->nsame = pr->nna = pr->nregress = pr->nchange = 0;
		for (size_t k = 0; k < keep; k++) {
			const struct row *r = &pr->rows[k];

			pr->nfaster += r->v == V_FASTER;
			pr->nslower += r->v == V_SLOWER;
			pr->nsame += r->v == V_SAME;
			pr->nna += r->v == V_NA;
			pr->nchange += r->counts;
			pr->nregress += r->counts && r->v == V_SLOWER;
		}
	}
}

/* Run n's values as ministat data set *set, named by run and point. Returns 0, 2 or 3. */
static int point_set(struct ctx *c, int n, const struct sb_values *vals, const char *mode,
		     long tasks, int means, struct sb_mset *set, char *err, size_t errlen)
{
	size_t len = strlen(c->runs[n].dir) + 64;
	char *name = malloc(len), verr[256];
	int rc;

	if (name == NULL)
		return sb_fail(err, errlen, 3, "out of memory");
	snprintf(name, len, "%s %s:%ld (%s)", c->runs[n].dir, mode, tasks,
		 means ? "per-run means" : "samples");
	rc = sb_mset_init(set, name) != 0 ? 3 : 0;
	free(name);
	for (size_t k = 0; rc == 0 && k < vals->n; k++)
		if (sb_mset_add(set, vals->v[k]) != 0)
			rc = 3;
	if (rc == 0)
		rc = sb_mset_finish(set, c->runs[n].dir, verr, sizeof(verr));
	if (rc == 0)
		return 0;
	sb_mset_free(set);
	return rc == 3 ? sb_fail(err, errlen, 3, "out of memory") : sb_fail(err, errlen, rc, "%s", verr);
}

static int report_point(struct ctx *c, char *err, size_t errlen)
{
	struct sb_mset sets[SB_MINISTAT_MAXSETS];
	struct sb_mset *ptrs[SB_MINISTAT_MAXSETS];
	struct sb_mopts mo = c->o->mopts;
	const struct sb_point *pts[SB_MINISTAT_MAXSETS];
	const struct sb_values *vals[SB_MINISTAT_MAXSETS];
	char mode[32];
	long tasks;
	int rc = 0, n = 0, md = c->o->format == SB_CMP_MARKDOWN, means = 1;

	if (c->o->format != SB_CMP_TEXT && c->o->format != SB_CMP_MARKDOWN)
		return sb_fail(err, errlen, 2, "--point has no csv or JSON form: use text or markdown");
	if (parse_point(c->o->point, mode, sizeof(mode), &tasks) != 0)
		return sb_fail(err, errlen, 2, "--point '%s': expected MODE:TASKS, e.g. processes:4",
			    c->o->point);
	if (c->nruns > SB_MINISTAT_MAXSETS)
		return sb_fail(err, errlen, 2, "--point shows at most %d runs, %d given",
			    SB_MINISTAT_MAXSETS, c->nruns);
	rc = point_values(c, mode, tasks, pts, vals, &means, err, errlen);
	if (rc != 0)
		return rc;
	c->correlated = !means;
	for (int i = 1; i < c->nruns; i++)
		if (c->pairs[i - 1].machine[0])
			fprintf(c->out, "%sDIFFERENT MACHINE%s (compared with --force): %s differs from base in %s\n\n",
				md ? "**" : "", md ? "**" : "", c->runs[i].name, c->pairs[i - 1].machine);
	keep_point_rows(c, pts[0]);
	for (; n < c->nruns; n++) {
		rc = point_set(c, n, vals[n], mode, tasks, means, &sets[n], err, errlen);
		if (rc != 0)
			goto out;
		ptrs[n] = &sets[n];
	}
	mo.conf = c->o->conf;
	if (md) {
		print_verdict(c, 1);
		print_md_runs(c);
		fputs("\n```\n", c->out);
	} else {
		fprintf(c->out, "compare %s, point %s:%ld\n", c->runs[0].test, mode, tasks);
		print_run_lines(c);
		fputs("\n", c->out);
	}
	rc = sb_ministat_print(c->out, ptrs, n, &mo);
	if (rc != 0) {
		rc = sb_fail(err, errlen, rc, "out of memory drawing the plot");
		goto out;
	}
	if (md) {
		fputs("```\n", c->out);
		if (c->correlated)
			fprintf(c->out, "\n> **Note:** %s.\n", correlated_note);
	} else {
		if (c->correlated)
			fprintf(c->out, "\nNote: %s.\n", correlated_note);
		fputs("\n", c->out);
		print_verdict(c, 0);
	}
out:
	for (int i = 0; i < n; i++)
		sb_mset_free(&sets[i]);
	return rc;
}

/* Refuse what a CI job should not silently compare, unless --force. */
static int check_runs(struct ctx *c, char *err, size_t errlen)
{
	const struct sb_run *b = &c->runs[0];

	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];

		if (strcmp(r->status, "complete") != 0 && !c->o->force)
			return sb_fail(err, errlen, 2, "%s: the run's status is %s, not complete; "
				    "--force compares it anyway", r->dir, r->status);
		/* an emulated CPU measures the emulator, not the kernel (docs/VM.md) */
		if (strcmp(r->vm_accel, "tcg") == 0 && !c->o->force)
			return sb_fail(err, errlen, 2, "%s: measured in a VM under TCG emulation "
				    "(meta vm_accel=tcg): its numbers do not compare kernels; "
				    "--force compares it anyway", r->dir);
		if (i > 0 && strcmp(r->test, b->test) != 0 && !c->o->force)
			return sb_fail(err, errlen, 2, "different testcases: %s is %s, %s is %s; "
				    "--force compares them anyway", b->dir, b->test, r->dir, r->test);
	}
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		if (pr->machine[0] && !c->o->force)
			return sb_fail(err, errlen, 2, "%s and %s were measured on different machines: "
				    "%s differ; --force compares them anyway", b->dir, pr->x->dir, pr->machine);
		if (pr->nrows == 0 && !c->o->force)
			return sb_fail(err, errlen, 2, "%s and %s have no point (mode, tasks) in common; "
				    "--force compares them anyway", b->dir, pr->x->dir);
		if (!c->o->force)
			for (size_t k = 0; k < pr->nrows; k++) {
				const struct row *r = &pr->rows[k];

				if (!r->means)
					return sb_fail(err, errlen, 2, "%s and %s: %s at %ld tasks has a single "
						    "run (base %zu, new %zu): one run's samples are "
						    "correlated and give no verdict; measure with runtest.sh's "
						    "default runs (3 or more a point), or --force compares "
						    "the samples anyway", b->dir, pr->x->dir, r->b->mode,
						    r->b->tasks, r->b->nruns, r->x->nruns);
			}
		if (pr->nrows > 0 && pr->nna == pr->nrows && !c->o->force)
			return sb_fail(err, errlen, 2, "%s and %s: no common point has at least %d "
				    "values in both; --force compares them anyway", b->dir,
				    pr->x->dir, SB_MINISTAT_MINVALUES);
	}
	return 0;
}

/*
 * Runs are named by their label, but two runs of one kernel share the default
 * label (the release): then every run is named by its run id instead.
 */
static void unique_names(struct ctx *c)
{
	int clash = 0;

	for (int i = 0; i < c->nruns && !clash; i++)
		for (int k = i + 1; k < c->nruns; k++)
			if (strcmp(c->runs[i].name, c->runs[k].name) == 0)
				clash = 1;
	if (!clash)
		return;
	for (int i = 0; i < c->nruns; i++) {
		struct sb_run *r = &c->runs[i];
		const char *base = strrchr(r->dir, '/');
		char *id = strdup(*r->run_id ? r->run_id : base != NULL ? base + 1 : r->dir);

		if (id != NULL) {
			free(r->name);
			r->name = id;
		}
	}
}

/*
 * Every run measured the same thing the same way: the testcase's parameters and the run shape as
 * meta records them (a key an older meta lacks is not checked), unless --force. Two sweeps of
 * alloc_free1 at size=64 and size=65536 compared as a 49% regression.
 */
static int check_shape(const struct ctx *c, char *err, size_t errlen)
{
	const struct sb_run *f = &c->runs[0];

	for (int i = 1; i < c->nruns && !c->o->force; i++) {
		const struct sb_run *r = &c->runs[i];
		const char *const names[] = { "params", "period_ms", "duration", "warmup" };
		const char *fv[] = { f->params, f->period_ms, f->duration, f->warmup };
		const char *rv[] = { r->params, r->period_ms, r->duration, r->warmup };

		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (fv[k] != NULL && rv[k] != NULL && strcmp(fv[k], rv[k]) != 0)
				return sb_fail(err, errlen, 2, "%s differ: '%s' (%s) and '%s' (%s): "
					    "the runs measured different things; --force compares "
					    "them anyway", names[k], fv[k], f->dir, rv[k], r->dir);
	}
	return 0;
}

/* The same sweep twice on one side (by its real path or its run id) would be pooled twice. */
static int check_twice(const struct ctx *c, int from, int to, char *err, size_t errlen)
{
	for (int i = from; i < to && !c->o->force; i++)
		for (int k = i + 1; k < to; k++) {
			const struct sb_run *a = &c->runs[i], *b = &c->runs[k];
			char *pa = realpath(a->dir, NULL), *pb = realpath(b->dir, NULL);
			int same = pa != NULL && pb != NULL && strcmp(pa, pb) == 0;

			free(pa);
			free(pb);
			if (!same && *a->run_id && strcmp(a->run_id, b->run_id) == 0 &&
			    strcmp(a->test, b->test) == 0)
				same = 1;
			if (same)
				return sb_fail(err, errlen, 2, "%s and %s: the same sweep (%s %s) given "
					    "twice on one side would be pooled twice; --force pools "
					    "it anyway", a->arg, b->arg, a->test,
					    *a->run_id ? a->run_id : a->dir);
		}
	return 0;
}

/* A compared row whose change or interval is not finite: an input error, never "+inf%". */
static int check_finite(const struct ctx *c, char *err, size_t errlen)
{
	for (int i = 0; i < c->nruns - 1; i++)
		for (size_t k = 0; k < c->pairs[i].nrows; k++) {
			const struct row *r = &c->pairs[i].rows[k];

			if (r->v != V_NA && (!isfinite(r->d.rel_pct) || !isfinite(r->d.rel_halfwidth_pct)))
				return sb_fail(err, errlen, 2, "%s against %s: %s at %ld tasks: the "
					    "change is not a finite number (values out of range)",
					    c->pairs[i].x->dir, c->runs[0].dir, r->b->mode, r->b->tasks);
		}
	return 0;
}

/* One side's sweeps: the same testcase, complete, and one machine, unless --force. */
static int check_side(const struct ctx *c, int from, int to, char *err, size_t errlen)
{
	const struct sb_run *f = &c->runs[from];
	char diff[192];

	for (int i = from; i < to && !c->o->force; i++) {
		const struct sb_run *r = &c->runs[i];

		if (strcmp(r->status, "complete") != 0)
			return sb_fail(err, errlen, 2, "%s: the run's status is %s, not complete; "
				    "--force compares it anyway", r->dir, r->status);
		if (strcmp(r->test, f->test) != 0)
			return sb_fail(err, errlen, 2, "--vs: one side mixes testcases: %s is %s, %s is %s",
				    f->dir, f->test, r->dir, r->test);
		machine_diff(f, r, diff, sizeof(diff));
		if (diff[0])
			return sb_fail(err, errlen, 2, "--vs: %s and %s, one side, were measured on "
				    "different machines: %s differ; --force pools them anyway",
				    f->dir, r->dir, diff);
	}
	return 0;
}

/* Runs from..to-1 pooled into runs[from], named by their shared label or "FIRST+N". */
static int pool_side(struct ctx *c, int from, int to, char *err, size_t errlen)
{
	struct sb_run *f = &c->runs[from];
	int same = 1;
	char *name, *dir;

	for (int i = from + 1; i < to; i++) {
		if (sb_run_pool(f, &c->runs[i]) != 0)
			return sb_fail(err, errlen, 3, "out of memory");
		same &= strcmp(c->runs[i].name, f->name) == 0;
		/* the side is as complete as its worst sweep (only with --force) */
		if (strcmp(c->runs[i].status, "complete") != 0)
			f->status = "incomplete";	/* runs[i]'s meta is freed below */
	}
	if (to - from == 1)
		return 0;
	if (same ? asprintf(&name, "%s", f->name) < 0 : asprintf(&name, "%s+%d", f->name, to - from - 1) < 0)
		return sb_fail(err, errlen, 3, "out of memory");
	if (asprintf(&dir, "%s and %d more", f->dir, to - from - 1) < 0) {
		free(name);
		return sb_fail(err, errlen, 3, "out of memory");
	}
	free(f->name);
	free(f->dir);
	f->name = name;
	f->dir = dir;
	return 0;
}

/* --vs: runs[0..k-1] become base, runs[k..] new, each one pooled run. */
static int pool_sides(struct ctx *c, int k, char *err, size_t errlen)
{
	int rc = check_side(c, 0, k, err, errlen);

	if (rc == 0)
		rc = check_side(c, k, c->nruns, err, errlen);
	if (rc == 0)
		rc = check_twice(c, 0, k, err, errlen);
	if (rc == 0)
		rc = check_twice(c, k, c->nruns, err, errlen);
	if (rc == 0)
		rc = pool_side(c, 0, k, err, errlen);
	if (rc == 0)
		rc = pool_side(c, k, c->nruns, err, errlen);
	if (rc != 0)
		return rc;
	for (int i = 1; i < c->nruns; i++)
		if (i != k)
			sb_run_free(&c->runs[i]);
	if (k != 1) {
		c->runs[1] = c->runs[k];
		memset(&c->runs[k], 0, sizeof(c->runs[k]));
	}
	c->nruns = 2;
	return 0;
}

int sb_compare_runs(int n, char **dirs, const struct sb_cmp_opts *o, FILE *out,
		    char *err, size_t errlen)
{
	struct ctx c = { .o = o, .out = out, .nruns = 0 };
	int rc = 0;

	c.runs = calloc((size_t)n, sizeof(*c.runs));
	c.pairs = calloc((size_t)n, sizeof(*c.pairs));
	if (c.runs == NULL || c.pairs == NULL) {
		rc = sb_fail(err, errlen, 3, "out of memory");
		goto out;
	}
	for (; c.nruns < n; c.nruns++) {
		rc = sb_run_load(dirs[c.nruns], &c.runs[c.nruns], err, errlen);
		if (rc != 0) {
			sb_run_free(&c.runs[c.nruns]);
			goto out;
		}
	}
	rc = check_shape(&c, err, errlen);
	if (rc != 0)
		goto out;
	if (o->pool > 0) {
		rc = pool_sides(&c, o->pool, err, errlen);
		if (rc != 0)
			goto out;
		n = c.nruns;
	}
	unique_names(&c);
	for (int i = 1; i < n; i++) {
		struct pair *pr = &c.pairs[i - 1];

		pr->base = &c.runs[0];
		pr->x = &c.runs[i];
		pr->rows = calloc(c.runs[0].npts + 1, sizeof(*pr->rows));
		if (pr->rows == NULL) {
			rc = sb_fail(err, errlen, 3, "out of memory");
			goto out;
		}
		compare_pair(pr, o);
		if (compare_curves(pr, o) != 0) {
			rc = sb_fail(err, errlen, 3, "out of memory");
			goto out;
		}
		machine_diff(pr->base, pr->x, pr->machine, sizeof(pr->machine));
		system_diff(pr->base, pr->x, pr->system, sizeof(pr->system));
		c.correlated |= pr->correlated;
	}
	if (gate(&c) != 0) {
		rc = sb_fail(err, errlen, 3, "out of memory");
		goto out;
	}
	rc = check_runs(&c, err, errlen);
	if (rc == 0)
		rc = check_finite(&c, err, errlen);
	if (rc != 0)
		goto out;
	if (o->point != NULL) {
		rc = report_point(&c, err, errlen);
		if (rc != 0)
			goto out;
	} else if (o->format == SB_CMP_MARKDOWN) {
		report_md(&c);
	} else if (o->format == SB_CMP_CSV) {
		report_csv(&c);
	} else if (o->format == SB_CMP_GAB || o->format == SB_CMP_BENCHER) {
		report_json(&c);
	} else {
		report_text(&c);
	}
	rc = failing(&c);
out:
	for (int i = 0; i < n - 1 && c.pairs != NULL; i++) {
		free(c.pairs[i].rows);
		free(c.pairs[i].curves);
	}
	for (int i = 0; i < c.nruns; i++)
		sb_run_free(&c.runs[i]);
	free(c.runs);
	free(c.pairs);
	return rc;
}
