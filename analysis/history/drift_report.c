/* sb-history drift: each testcase's run noise and machine drift between sweeps as the history shows them, and what buys precision there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "msg.h"
#include "stats.h"
#include "verdict.h"

/* One group's (testcase x params x testbed) figures: the runs' variance, drift within and across boots. */
struct figures {
	double wss, wdf;		/* log runs' squared deviations inside sweeps, their df */
	struct sb_drift_est pt[2];	/* pooled over the points' series */
	struct sb_drift_est cv[2];	/* pooled over the modes' curves */
	size_t sweeps;
};

static void add_runs(const struct sb_hist_series *se, struct figures *f)
{
	for (size_t i = 0; i < se->n; i++) {
		const struct sb_cp_obs *o = &se->obs[i];
		double sum = 0, m;
		size_t n = 0;

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

static void print_est(FILE *out, const struct sb_drift_est *e)
{
	if (e->df > 0)
		fprintf(out, "  %5.1f%% (%zu pairs, %.1f df)", 100 * sqrt(e->tau2), e->pairs, e->df);
	else
		fprintf(out, "  %-24s", "  -");
}

/*
 * What buys precision (Kalibera and Jones): runs a sweep r* = sqrt(c_sweep /
 * c_run * sigma^2 / tau^2), and the sweeps a side a change of target % needs
 * at the gate's level and power with r runs a sweep.
 */
static void advise(FILE *out, double sigma2, double tau2, double c_sweep, double c_run, double target)
{
	double r = tau2 > 0 ? sqrt(c_sweep / c_run * sigma2 / tau2) : INFINITY;
	long runs = isfinite(r) ? (long)fmax(1, fmin(30, floor(r + 0.5))) : 30;
	long k;

	fprintf(out, "  runs a sweep: %s%ld", isfinite(r) && r <= 30 ? "" : "30 or more: ", runs);
	if (isfinite(r))
		fprintf(out, " (r* = sqrt(sweep cost %.3g s / run cost %.3g s x runs' variance / drift's) = %.1f)",
			c_sweep, c_run, r);
	else
		fputs(" (no drift seen between sweeps: more runs in one sweep buy precision)", out);
	fputc('\n', out);
	for (k = 1; k <= 64; k++) {
		double se = sqrt(2 * (tau2 + sigma2 / (double)runs) / (double)k);
		double df = k > 1 ? 2.0 * (double)(k - 1) : (double)(runs - 1) * 2;
		double det = 100 * expm1(sb_detectable(se, df > 0 ? df : 1, 0.05, SB_POWER));

		if (det <= target)
			break;
	}
	if (k > 64)
		fprintf(out, "  +/-%g%%: more than 64 sweeps a side here\n", target);
	else
		fprintf(out, "  +/-%g%% (5%%, %g%% power) needs %ld sweep%s of %ld run%s a side%s\n", target,
			100 * SB_POWER, k, k == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
			tau2 > 0 ? "; more runs in one sweep cannot shrink the drift term" : "");
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

		add_runs(&s[i], &f);
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

int sb_hist_drift_report(FILE *out, const struct sb_hist *h, const struct sb_drift_report_opts *o,
			 char *err, size_t errlen)
{
	struct sb_hist_series *s = NULL;
	struct figures *f;
	size_t ns = 0;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep in the history for this selection");
	if (sb_hist_series(h, &s, &ns) != 0 || (f = calloc(h->ngroups + 1, sizeof(*f))) == NULL) {
		sb_hist_series_free(s, ns);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	for (size_t i = 0; i < ns; i++) {
		struct sb_drift_sweep *sw = malloc((s[i].n + 1) * sizeof(*sw));
		struct sb_drift_est e[2];
		struct figures *g = &f[s[i].group];

		if (!sw || sb_hist_series_sweeps(h, &s[i], sw) != 0 || sb_drift_series(sw, s[i].n, e) != 0) {
			free(sw);
			free(f);
			sb_hist_series_free(s, ns);
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		}
		free(sw);
		for (int c = 0; c < 2; c++)
			sb_drift_pool(s[i].tasks ? &g->pt[c] : &g->cv[c], &e[c]);
		if (s[i].tasks)
			add_runs(&s[i], g);
		g->sweeps = s[i].n > g->sweeps ? s[i].n : g->sweeps;
	}
	for (size_t gi = 0; gi < h->ngroups; gi++) {
		const struct sb_hist_sweep *first = NULL;
		struct figures *g = &f[gi];
		double sigma2 = g->wdf > 0 ? g->wss / g->wdf : 0;
		const struct sb_drift_est *use;

		for (size_t i = 0; i < h->nsw && !first; i++)
			if (h->sw[i].group == gi)
				first = &h->sw[i];
		if (!first)
			continue;
		fprintf(out, "%s%s%s on %s: %zu sweeps\n", first->test, *first->params ? " " : "",
			first->params, first->tb_name, g->sweeps);
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
		use = g->pt[SB_DRIFT_ACROSS].df > 0 ? &g->pt[SB_DRIFT_ACROSS] : &g->pt[SB_DRIFT_WITHIN];
		if (use->df > 0 && g->wdf > 0)
			advise(out, sigma2, use->tau2, use == &g->pt[SB_DRIFT_ACROSS] ? o->reboot_cost :
			       o->sweep_cost, o->run_cost, o->target);
		else
			fputs("  advice: two sweeps or more of several runs each are needed first\n", out);
	}
	free(f);
	sb_hist_series_free(s, ns);
	return 0;
}
