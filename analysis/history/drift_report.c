/* sb-history drift: each testcase's run noise and machine drift between sweeps as the history shows them, and what buys precision there, computed whole (drift_print.c prints). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_priv.h"
#include "msg/msg.h"
#include "stat/stats.h"
#include "stat/verdict.h"

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

/* The figure the advice rests on: across boots where known (a kernel comparison crosses one), else within. */
static const struct sb_drift_est *advice_est(const struct figures *g)
{
	return g->pt[SB_DRIFT_ACROSS].df > 0 ? &g->pt[SB_DRIFT_ACROSS] : &g->pt[SB_DRIFT_WITHIN];
}

/* g's runs' variance, the figure its advice rests on and, when both are known, the advice (o's costs). */
static void finish_fig(struct drift_fig *g, const struct sb_drift_report_opts *o)
{
	const struct sb_drift_est *use = advice_est(&g->f);

	g->sigma2 = g->f.wdf > 0 ? g->f.wss / g->f.wdf : 0;
	g->across = use == &g->f.pt[SB_DRIFT_ACROSS];
	g->use = *use;
	g->advised = use->df > 0 && g->f.wdf > 0;
	g->c_sweep = g->across ? o->reboot_cost : o->sweep_cost;
	if (g->advised)
		advice_of(g->sigma2, use->tau2, g->c_sweep, o->run_cost, o->target, &g->a);
}

/* Every group's figures by shape, finished, its first sweep, sweeps and shapes (dm). 0, or -1 (memory). */
static int model_of(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns, const struct sb_hist_drift *d,
		    const struct sb_drift_report_opts *o, struct drift_model *dm)
{
	struct figures *f = figures_of(h, s, ns, d);
	size_t m = sb_hist_drift_nshapes(d);

	dm->ngroups = h->ngroups;
	dm->m = m;
	dm->f = calloc(h->ngroups * m + 1, sizeof(*dm->f));
	dm->g = calloc(h->ngroups + 1, sizeof(*dm->g));
	dm->shape = calloc(m + 1, sizeof(*dm->shape));
	if (f == NULL || dm->f == NULL || dm->g == NULL || dm->shape == NULL) {
		free(f);
		return -1;
	}
	for (size_t sh = 0; sh < m; sh++)
		dm->shape[sh] = sb_hist_drift_shape(d, sh);
	for (size_t k = 0; k < h->ngroups * m; k++) {
		dm->f[k].f = f[k];
		finish_fig(&dm->f[k], o);
	}
	finish_fig(&dm->none, o);
	free(f);
	for (size_t gi = 0; gi < h->ngroups; gi++) {
		struct drift_group *g = &dm->g[gi];

		g->one = m;
		for (size_t i = 0; i < h->nsw; i++)
			if (h->sw[i].group == gi) {
				g->first = g->first ? g->first : &h->sw[i];
				g->total++;
			}
		for (size_t sh = 0; sh < m; sh++)
			if (dm->f[gi * m + sh].f.sweeps > 0) {
				g->nsh++;
				g->one = g->one < m ? g->one : sh;
			}
	}
	return 0;
}

static void free_model(struct drift_model *dm)
{
	free(dm->f);
	free(dm->g);
	free(dm->shape);
}

int sb_hist_drift_advise(FILE *out, const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
			 const struct sb_hist_drift *d, size_t group, const char *shape,
			 const struct sb_drift_report_opts *o)
{
	size_t m = sb_hist_drift_nshapes(d), sh = sb_hist_drift_shape_index(d, shape);
	struct figures *f;
	struct drift_fig g = { 0 };

	if (group >= h->ngroups || sh >= m)
		return 0;
	if ((f = figures_of(h, s, ns, d)) == NULL)
		return -1;
	g.f = f[group * m + sh];
	free(f);
	finish_fig(&g, o);
	if (!g.advised)
		return 0;
	sb_drift_print_advise(out, &g, o);	/* computed: now printed */
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

int sb_hist_drift_report(FILE *out, const struct sb_hist *h, const struct sb_drift_report_opts *o,
			 char *err, size_t errlen)
{
	struct sb_hist_series *s = NULL;
	struct sb_hist_drift *d = NULL;
	struct drift_model dm = { 0 };
	size_t ns = 0;
	int rc = 0;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep in the history for this selection");
	if (sb_hist_series(h, &s, &ns) != 0 || sb_hist_drift_new(h, s, ns, &d) != 0 ||
	    model_of(h, s, ns, d, o, &dm) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	else
		sb_drift_print(out, &dm, o);	/* computed whole: now printed */
	free_model(&dm);
	sb_hist_drift_free(d);
	sb_hist_series_free(s, ns);
	return rc;
}
