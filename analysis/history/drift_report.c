/* sb-history drift: each testcase's run noise and machine drift between sweeps as the history shows them, and what buys precision there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "msg.h"
#include "stats.h"
#include "verdict.h"

/* One group's (testcase x params x testbed) figures of one sweep shape: the runs' variance, drift within and across boots. */
struct figures {
	double wss, wdf;		/* log runs' squared deviations inside sweeps, their df */
	struct sb_drift_est pt[2];	/* pooled over the points' series */
	struct sb_drift_est cv[2];	/* pooled over the modes' curves */
	size_t sweeps;
};

/* The runs inside series se's sweeps of shape sh. */
static void add_runs(const struct sb_hist_series *se, const struct sb_hist_drift *d, size_t sh, struct figures *f)
{
	for (size_t i = 0; i < se->n; i++) {
		const struct sb_cp_obs *o = &se->obs[i];
		double sum = 0, m;
		size_t n = 0;

		if (sb_hist_drift_shape_of(d, se->sw[i]) != sh)
			continue;
		for (size_t r = 0; r < o->nruns; r++)
			if (o->runs[r] > 0) {
				sum += log(o->runs[r]);
				n++;
			}
		if (n < 2)
			continue;
		m = sum / (double)n;
		for (size_t r = 0; r < o->nruns; r++)
			if (o->runs[r] > 0)
				f->wss += (log(o->runs[r]) - m) * (log(o->runs[r]) - m);
		f->wdf += (double)(n - 1);
	}
}

/* Every group's figures by shape, f[group * nshapes + shape] (a new array; NULL: no memory). */
static struct figures *figures_of(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
				  const struct sb_hist_drift *d)
{
	size_t m = sb_hist_drift_nshapes(d);
	struct figures *f = calloc(h->ngroups * m + 1, sizeof(*f));

	for (size_t i = 0; f && i < ns; i++)
		for (size_t sh = 0; sh < m; sh++) {
			struct figures *g = &f[s[i].group * m + sh];
			const struct sb_drift_est *e = sb_hist_drift_own(d, i, sh);
			size_t n = 0;

			for (size_t k = 0; k < s[i].n; k++)
				n += sb_hist_drift_shape_of(d, s[i].sw[k]) == sh;
			if (n == 0)
				continue;
			for (int c = 0; c < 2; c++)
				sb_drift_pool(s[i].tasks ? &g->pt[c] : &g->cv[c], &e[c]);
			if (s[i].tasks)
				add_runs(&s[i], d, sh, g);
			g->sweeps = n > g->sweeps ? n : g->sweeps;
		}
	return f;
}

static void print_est(FILE *out, const struct sb_drift_est *e)
{
	if (e->df > 0)
		fprintf(out, "  %5.1f%% (%zu pairs, %.1f df)", 100 * sqrt(e->tau2), e->pairs, e->df);
	else
		fprintf(out, "  %-24s", "  -");
}

/* What buys precision: runs a sweep (r* and the whole number used) and sweeps a side (65: more than 64). */
struct advice {
	double r;
	long runs, k;
};

/*
 * Kalibera and Jones: runs a sweep r* = sqrt(c_sweep / c_run * sigma^2 /
 * tau^2), and the sweeps a side a change of target % needs at the gate's
 * level and power with that many runs a sweep.
 */
static void advice_of(double sigma2, double tau2, double c_sweep, double c_run, double target, struct advice *a)
{
	a->r = tau2 > 0 ? sqrt(c_sweep / c_run * sigma2 / tau2) : INFINITY;
	a->runs = isfinite(a->r) ? (long)fmax(1, fmin(30, floor(a->r + 0.5))) : 30;
	for (a->k = 1; a->k <= 64; a->k++) {
		double se = sqrt(2 * (tau2 + sigma2 / (double)a->runs) / (double)a->k);
		double df = a->k > 1 ? 2.0 * (double)(a->k - 1) : (double)(a->runs - 1) * 2;
		double det = 100 * expm1(sb_detectable(se, df > 0 ? df : 1, 0.05, SB_POWER));

		if (det <= target)
			break;
	}
}

static void advise(FILE *out, double sigma2, double tau2, double c_sweep, double c_run, double target)
{
	struct advice a;

	advice_of(sigma2, tau2, c_sweep, c_run, target, &a);
	fprintf(out, "  runs a sweep: %s%ld", isfinite(a.r) && a.r <= 30 ? "" : "30 or more: ", a.runs);
	if (isfinite(a.r))
		fprintf(out, " (r* = sqrt(sweep cost %.3g s / run cost %.3g s x runs' variance / drift's) = %.1f)",
			c_sweep, c_run, a.r);
	else
		fputs(" (no drift seen between sweeps: more runs in one sweep buy precision)", out);
	fputc('\n', out);
	if (a.k > 64)
		fprintf(out, "  +/-%g%%: more than 64 sweeps a side here\n", target);
	else
		fprintf(out, "  +/-%g%% (5%%, %g%% power) needs %ld sweep%s of %ld run%s a side%s\n", target,
			100 * SB_POWER, a.k, a.k == 1 ? "" : "s", a.runs, a.runs == 1 ? "" : "s",
			tau2 > 0 ? "; more runs in one sweep cannot shrink the drift term" : "");
}

/* The figure the advice rests on: across boots where known (a kernel comparison crosses one), else within. */
static const struct sb_drift_est *advice_est(const struct figures *g)
{
	return g->pt[SB_DRIFT_ACROSS].df > 0 ? &g->pt[SB_DRIFT_ACROSS] : &g->pt[SB_DRIFT_WITHIN];
}

/* One group's and shape's table, runs' sd and advice. */
static void print_figures(FILE *out, const struct figures *g, const struct sb_drift_report_opts *o)
{
	double sigma2 = g->wdf > 0 ? g->wss / g->wdf : 0;
	const struct sb_drift_est *use = advice_est(g);

	fprintf(out, "  %-22s  %-24s  %-24s\n", "", "drift within a boot", "drift across boots");
	fprintf(out, "  %-22s", "points (pooled)");
	print_est(out, &g->pt[SB_DRIFT_WITHIN]);
	print_est(out, &g->pt[SB_DRIFT_ACROSS]);
	fprintf(out, "\n  %-22s", "curves (pooled)");
	print_est(out, &g->cv[SB_DRIFT_WITHIN]);
	print_est(out, &g->cv[SB_DRIFT_ACROSS]);
	if (g->wdf > 0)
		fprintf(out, "\n  runs inside a sweep: %.1f%% sd (%.0f df)\n", 100 * sqrt(sigma2), g->wdf);
	else
		fputs("\n  runs inside a sweep: unknown (sweeps of one run)\n", out);
	if (use->df > 0 && g->wdf > 0)
		advise(out, sigma2, use->tau2, use == &g->pt[SB_DRIFT_ACROSS] ? o->reboot_cost :
		       o->sweep_cost, o->run_cost, o->target);
	else
		fputs("  advice: two sweeps or more of several runs each are needed first\n", out);
}

int sb_hist_drift_advise(FILE *out, const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
			 const struct sb_hist_drift *d, size_t group, const char *shape,
			 const struct sb_drift_report_opts *o)
{
	size_t m = sb_hist_drift_nshapes(d), sh = sb_hist_drift_shape_index(d, shape);
	struct figures *f, *g;
	const struct sb_drift_est *use;
	struct advice a;
	double sigma2;
	int across;

	if (group >= h->ngroups || sh >= m)
		return 0;
	if ((f = figures_of(h, s, ns, d)) == NULL)
		return -1;
	g = &f[group * m + sh];
	use = advice_est(g);
	across = use == &g->pt[SB_DRIFT_ACROSS];
	sigma2 = g->wdf > 0 ? g->wss / g->wdf : 0;
	if (!(use->df > 0 && g->wdf > 0)) {
		free(f);
		return 0;
	}
	advice_of(sigma2, use->tau2, across ? o->reboot_cost : o->sweep_cost, o->run_cost, o->target, &a);
	if (a.k > 64)
		fprintf(out, "a %g%% change needs more than 64 sweeps a side here", o->target);
	else
		fprintf(out, "a %g%% change needs %ld sweep%s of %ld run%s a side (5%%, %g%% power)", o->target, a.k,
			a.k == 1 ? "" : "s", a.runs, a.runs == 1 ? "" : "s", 100 * SB_POWER);
	if (isfinite(a.r))
		fprintf(out, "; runs a sweep: %s%ld (r* = %.1f)\n", a.r <= 30 ? "" : "30 or more: ", a.runs, a.r);
	else
		fputs("; no drift seen: more runs in one sweep buy precision\n", out);
	fprintf(out, "from the history's %zu sweeps of this testcase and shape: +/-%.1f%% sd between sweeps %s "
		"(%.1f df), runs +/-%.1f%% sd (sb-history drift)\n", g->sweeps, 100 * sqrt(use->tau2),
		across ? "across boots" : "within a boot", use->df, 100 * sqrt(sigma2));
	free(f);
	return 1;
}

int sb_hist_detectable_range(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
			     double range[4])
{
	struct sb_hist_drift *d;
	struct sb_drift base;

	range[0] = range[2] = INFINITY;
	range[1] = range[3] = -INFINITY;
	if (sb_hist_drift_new(h, s, ns, &d) != 0)
		return -1;
	sb_drift_default(&base);
	for (size_t i = 0; i < ns; i++) {
		struct figures f = { 0 };
		struct sb_drift dr;
		struct sb_drift_test t;
		struct sb_drift_sweep a, b;
		struct sb_drift_side sa = { &a, 1 }, sb = { &b, 1 };
		double runs = 0;
		double *r = &range[s[i].tasks ? 0 : 2];

		if (s[i].n)	/* the newest sweep's shape: the next kernel's sweep is like it */
			add_runs(&s[i], d, sb_hist_drift_shape_of(d, s[i].sw[s[i].n - 1]), &f);
		for (size_t k = 0; k < s[i].n; k++)
			runs += (double)s[i].obs[k].nruns / (double)s[i].n;
		if (s[i].n < 2 || runs < 1)
			continue;
		/* two sweeps of this series' typical runs, a kernel apart: across a boot */
		sb_hist_drift_of(d, i, NULL, 1, &base, &dr);
		a = b = (struct sb_drift_sweep){ 0, f.wdf > 0 ? f.wss / f.wdf : 0, (size_t)(runs + 0.5), NULL };
		if (sb_drift_compare(&sa, &sb, &dr, 0, 95, SB_POWER, &t) != 0 || !isfinite(t.detectable_pct))
			continue;
		r[0] = fmin(r[0], t.detectable_pct);
		r[1] = fmax(r[1], t.detectable_pct);
	}
	sb_hist_drift_free(d);
	return 0;
}

/* Group gi's header and, for each shape it has, its figures (the shape named when there are several). */
static void print_group(FILE *out, const struct sb_hist *h, size_t gi, const struct figures *f, size_t m,
			const struct sb_hist_drift *d, const struct sb_drift_report_opts *o)
{
	static const struct figures none;
	const struct sb_hist_sweep *first = NULL;
	size_t nsh = 0, one = m, total = 0;

	for (size_t i = 0; i < h->nsw; i++)
		if (h->sw[i].group == gi) {
			first = first ? first : &h->sw[i];
			total++;
		}
	if (!first)
		return;
	for (size_t sh = 0; sh < m; sh++)
		if (f[gi * m + sh].sweeps > 0) {
			nsh++;
			one = one < m ? one : sh;
		}
	fprintf(out, "%s%s%s on %s: ", first->test, *first->params ? " " : "", first->params, first->tb_name);
	if (nsh <= 1) {
		fprintf(out, "%zu sweeps\n", one < m ? f[gi * m + one].sweeps : 0);
		print_figures(out, one < m ? &f[gi * m + one] : &none, o);
		return;
	}
	/* a sweep's offset averages a drift that moves in seconds: each shape its own figures */
	fprintf(out, "%zu sweeps of %zu shapes, each shape its own figures\n", total, nsh);
	for (size_t sh = 0; sh < m; sh++)
		if (f[gi * m + sh].sweeps > 0) {
			fprintf(out, " shape %s: %zu sweeps\n", sb_hist_drift_shape(d, sh), f[gi * m + sh].sweeps);
			print_figures(out, &f[gi * m + sh], o);
		}
}

int sb_hist_drift_report(FILE *out, const struct sb_hist *h, const struct sb_drift_report_opts *o,
			 char *err, size_t errlen)
{
	struct sb_hist_series *s = NULL;
	struct sb_hist_drift *d = NULL;
	struct figures *f = NULL;
	size_t ns = 0;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep in the history for this selection");
	if (sb_hist_series(h, &s, &ns) != 0 || sb_hist_drift_new(h, s, ns, &d) != 0 ||
	    (f = figures_of(h, s, ns, d)) == NULL) {
		sb_hist_drift_free(d);
		sb_hist_series_free(s, ns);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	for (size_t gi = 0; gi < h->ngroups; gi++)
		print_group(out, h, gi, f, sb_hist_drift_nshapes(d), d, o);
	free(f);
	sb_hist_drift_free(d);
	sb_hist_series_free(s, ns);
	return 0;
}
