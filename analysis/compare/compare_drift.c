/* compare with the machine's drift between sweeps in every point's and curve's test: the sweeps are the independent values. */
#define _GNU_SOURCE	/* strptime, timegm */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "msg/msg.h"
#include "history/history.h"
#include "compare_priv.h"
#include "stat/verdict.h"
#include "stat/rank.h"
#include "curve/curve_value.h"

#define MAXSWEEPS 64

struct sb_cmp_drift {
	struct sb_drift base;		/* --drift, or the default */
	struct sb_drift_lookup *hist;	/* the testbed's history; NULL */
	char hist_note[320];		/* where the history is, or why none is used */
	struct sb_run *sw[2];		/* --vs: each side's sweeps, as loaded (not pooled) */
	int nsw[2];
	int paired;			/* a test was of pairs (the verdict module found the sides alternated) */
	long rounds;			/* this pair: runtest.sh --kernel's rounds (rounds_of), else 0 */
	int round_pairs;		/* a test was of pairs of rounds */
	int ntests, nmedian;		/* tests made, and of them on the sweeps' medians (--sweep-value) */
	double lo_pct, hi_pct;		/* the smallest and largest drift used, % */
	int nused;
	struct sb_drift first;		/* the first figure used */
	char cross[1200];		/* the rank cross-check and flagged sweeps, for the Note */
};

void sb_cmp_drift_free(struct sb_cmp_drift *d)
{
	if (!d)
		return;
	sb_drift_lookup_free(d->hist);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < d->nsw[s]; i++)
			sb_run_free(&d->sw[s][i]);
		free(d->sw[s]);
	}
	free(d);
}

int sb_cmp_drift_sides(const struct ctx *c, int s, const struct sb_run **sw)
{
	const struct sb_cmp_drift *d = c->drift;

	*sw = d ? d->sw[s] : NULL;
	return d ? d->nsw[s] : 0;
}

/* --vs: the sweeps of each side again, one by one (pooling merges their runs) */
static int load_sides(struct sb_cmp_drift *d, int n, char **dirs, int k, char *err, size_t errlen)
{
	for (int s = 0; s < 2; s++) {
		int from = s ? k : 0, to = s ? n : k;

		d->sw[s] = calloc((size_t)(to - from) + 1, sizeof(struct sb_run));
		if (!d->sw[s])
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		for (int i = from; i < to; i++) {
			int rc = sb_run_load(dirs[i], &d->sw[s][d->nsw[s]], err, errlen);

			if (rc != 0) {
				sb_run_free(&d->sw[s][d->nsw[s]]);
				return rc;
			}
			d->nsw[s]++;
		}
	}
	return 0;
}

int sb_cmp_drift_open(struct ctx *c, int n, char **dirs, char *err, size_t errlen)
{
	const struct sb_cmp_opts *o = c->o;
	struct sb_cmp_drift *d = calloc(1, sizeof(*d));
	const struct sb_run *skip[MAXSWEEPS];
	size_t nskip = 0;
	int rc;

	if (!d)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	c->drift = d;
	sb_drift_default(&d->base);
	if (o->drift_pct >= 0) {
		sb_drift_given(o->drift_pct, &d->base);
		snprintf(d->hist_note, sizeof(d->hist_note), "--drift");
	}
	if (o->pool > 0 && (rc = load_sides(d, n, dirs, o->pool, err, errlen)) != 0)
		return rc;
	if (o->drift_pct >= 0)
		return 0;
	for (int i = 0; i < c->nruns && nskip < MAXSWEEPS; i++)
		skip[nskip++] = &c->runs[i];
	return sb_drift_lookup_find(o->history, &c->runs[0], skip, nskip, 5000, &d->hist, d->hist_note,
				    sizeof(d->hist_note), err, errlen);
}

/* When a sweep ran, as a number that orders sweeps (meta's date, to the second); -1 unknown. */
static long order_of(const struct sb_run *r)
{
	struct tm tm = { 0 };
	const char *e;

	if (!r->date || (e = strptime(r->date, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
		return -1;
	return (long)timegm(&tm);
}

/*
 * runtest.sh --kernel A --kernel B (vm/sweep.sh): one run directory a kernel,
 * run r of each measured in round r, each round a boot of each kernel in
 * turn. Two run directories of one such sweep (its vm_rounds, sweep_host,
 * sweep_pid and sweep_start alike) are sides of R sweeps of one run, paired by
 * round: the rounds (2 to MAXSWEEPS) or 0.
 */
static long rounds_of(const struct sb_run *a, const struct sb_run *b)
{
	char *e;
	long r = strtol(a->vm_rounds, &e, 10);

	if (!*a->vm_rounds || *e || r < 2 || r > MAXSWEEPS || strcmp(a->vm_rounds, b->vm_rounds) != 0 ||
	    !*a->sweep_start || strcmp(a->sweep_start, b->sweep_start) != 0 ||
	    strcmp(a->sweep_host, b->sweep_host) != 0 || strcmp(a->sweep_pid, b->sweep_pid) != 0)
		return 0;
	return r;
}

/*
 * Rounds (d->rounds): each side's one sweep of exactly R runs (every round's)
 * as R sweeps of one run, ordered by their round, so that the verdict module
 * pairs them; the sides stay as they are otherwise. 1 when split.
 */
static int split_rounds(const struct sb_cmp_drift *d, struct sb_vsweep *a, size_t *ka, struct sb_vsweep *b,
			size_t *kb)
{
	const double *va = a[0].v, *vb = b[0].v;
	size_t r = (size_t)d->rounds;

	if (!d->rounds || *ka != 1 || *kb != 1 || a[0].n != r || b[0].n != r || !va || !vb)
		return 0;
	for (size_t i = 0; i < r; i++) {
		a[i] = (struct sb_vsweep){ va + i, 1, 0, 0, NULL, (long)i + 1 };
		b[i] = (struct sb_vsweep){ vb + i, 1, 0, 0, NULL, (long)i + 1 };
	}
	*ka = *kb = r;
	return 1;
}

/* Side s's sweeps at (mode, tasks) for the verdict module: the pooled sweeps one by one, or the pair's own run. */
static int side_sweeps(const struct sb_cmp_drift *d, int s, const struct sb_run *own_run,
		       const struct sb_values *own, const char *mode, long tasks, char boots[][64],
		       struct sb_vsweep *out, size_t *k)
{
	*k = 0;
	if (d->nsw[s] == 0) {
		out[(*k)++] = (struct sb_vsweep){ own->v, own->n, 0, 0, boots[0], order_of(own_run) };
		return own->n > 0 ? 0 : -1;
	}
	for (int i = 0; i < d->nsw[s] && i < MAXSWEEPS; i++) {
		const struct sb_point *p = sb_run_find(&d->sw[s][i], mode, tasks);

		if (!p || p->means.n == 0)
			return -1;
		out[(*k)++] = (struct sb_vsweep){ p->means.v, p->means.n, 0, 0, boots[i], order_of(&d->sw[s][i]) };
	}
	return 0;
}

static void note_used(struct sb_cmp_drift *d, const struct sb_drift *in, const struct sb_drift_test *t,
		      size_t sweeps, int rounds)
{
	struct sb_drift eff = *in, *used = &eff;
	double pct;

	/* the sides' own replicate sweeps moderated the figure: say so */
	if (sweeps > 2 && (in->src == SB_DRIFT_DEFAULT || in->src == SB_DRIFT_LEARNED)) {
		eff.tau2 = t->tau2;
		eff.df = t->tau_df;
		eff.src = SB_DRIFT_LEARNED;
		snprintf(eff.what, sizeof(eff.what), "the sides' own %zu sweeps, %.0f df, with %.160s", sweeps,
			 t->tau_df, in->src == SB_DRIFT_DEFAULT ? "the default's 2" : in->what);
	}
	d->ntests++;
	d->paired |= t->paired && !rounds;
	d->round_pairs |= t->paired && rounds;
	pct = sb_drift_pct(used);
	if (d->nused++ == 0) {
		d->lo_pct = d->hi_pct = pct;
		d->first = *used;
	}
	d->lo_pct = fmin(d->lo_pct, pct);
	d->hi_pct = fmax(d->hi_pct, pct);
}

/* A row's verdict on sweeps with the drift in it (the verdict module). */
static void drift_row(struct sb_cmp_drift *d, const struct ctx *c, const struct pair *pr, struct row *r,
		      char boots[2][MAXSWEEPS][64], int acr)
{
	struct sb_vsweep a[MAXSWEEPS], b[MAXSWEEPS];
	struct sb_vquery q = { { a, 0 }, { b, 0 }, SB_VT_RATIO, c->o->conf, 0, SB_DRIFT_NONE_INIT };
	struct sb_vresult v;
	int rounds;

	if (side_sweeps(d, 0, pr->base, r->bv, r->b->mode, r->b->tasks, boots[0], a, &q.base.nsw) != 0 ||
	    side_sweeps(d, 1, pr->x, r->xv, r->b->mode, r->b->tasks, boots[1], b, &q.x.nsw) != 0)
		return;
	rounds = split_rounds(d, a, &q.base.nsw, b, &q.x.nsw);
	sb_drift_lookup_point(d->hist, r->b->mode, r->b->tasks, acr, &d->base, &q.drift);
	if (sb_verdict_value(&q, c->o->sweep_median ? SB_VV_MEDIAN : SB_VV_MEAN, &v) != 0)
		return;
	d->nmedian += v.median;
	note_used(d, &q.drift, &v.dt, q.base.nsw + q.x.nsw, rounds);
	r->vd = v;
}

/* Side s's curve values, sweep by sweep, into vals (log values, runs a sweep), as sb_vsweeps. */
static int curve_sweeps(const struct sb_cmp_drift *d, int s, const struct pair *pr, const struct curve_test *ct,
			char boots[][64], double *vals, size_t cap, struct sb_vsweep *out, size_t *k)
{
	int nsw = d->nsw[s] ? d->nsw[s] : 1;
	size_t used = 0;

	*k = 0;
	for (int i = 0; i < nsw && i < MAXSWEEPS; i++) {
		const double *v[1024];
		size_t npts = 0, runs = SIZE_MAX, got;

		for (size_t j = 0; j < pr->nrows && npts < 1024; j++) {
			const struct row *r = &pr->rows[j];
			const struct sb_point *p;
			const struct sb_values *sv;

			if (strcmp(r->b->mode, ct->mode) != 0 || r->v == V_NA || !r->means)
				continue;
			p = d->nsw[s] ? sb_run_find(&d->sw[s][i], r->b->mode, r->b->tasks) : NULL;
			sv = d->nsw[s] ? (p ? &p->means : NULL) : s ? r->xv : r->bv;
			if (!sv || sv->n == 0)
				return -1;
			v[npts++] = sv->v;
			runs = sv->n < runs ? sv->n : runs;
		}
		/* the runs with a curve value (a run left out is named in the curve test's note) */
		if (npts == 0 || used + runs > cap || sb_curve_value(v, npts, runs, vals + used, NULL) == 0)
			return -1;
		got = sb_curve_value_pack(vals + used, runs);
		out[(*k)++] = (struct sb_vsweep){ vals + used, got, 0, 0, boots[i],
			order_of(d->nsw[s] ? &d->sw[s][i] : s ? pr->x : pr->base) };
		used += got;
	}
	return 0;
}

/*
 * Beside a pooled curve's t: a sweep that stands more than 4 sd (of a sweep's
 * mean: tau^2 + sigma^2 / n) from its side is named (never dropped); with 5
 * sweeps or more a side, Mann-Whitney on the sweep means and the
 * Hodges-Lehmann shift, as a cross-check (a rank test over 3 against 3 sweeps
 * cannot go below p 0.10: not offered there).
 */
static void cross_check(struct sb_cmp_drift *d, const struct pair *pr, const char *mode,
			const struct sb_drift_side *a, const struct sb_drift_side *b, const struct sb_drift_test *t,
			int rounds)
{
	size_t len = strlen(d->cross);
	double ma[MAXSWEEPS], mb[MAXSWEEPS], u, p;

	for (int s = 0; s < 2 && (d->nsw[0] > 0 || rounds); s++) {
		const struct sb_drift_side *sd = s ? b : a;
		double m = 0;

		for (size_t i = 0; i < sd->k; i++)
			m += sd->sw[i].mean / (double)sd->k;
		for (size_t i = 0; i < sd->k && sd->k >= 3; i++) {
			double z = (sd->sw[i].mean - m) / sqrt(t->tau2 + t->sigma2 / (double)sd->sw[i].n);
			char name[160];

			if (rounds)
				snprintf(name, sizeof(name), "round %zu", i + 1);
			else
				snprintf(name, sizeof(name), "sweep %s", sb_cmp_sweep_id(&d->sw[s][i]));
			if (fabs(z) > 4 && len < sizeof(d->cross) - 300)
				len += (size_t)snprintf(d->cross + len, sizeof(d->cross) - len, "%sthe %s curve of "
							"%s's %s stands %+.1f sd from its side (kept)", len ? "; " : "",
							mode, (s ? pr->x : pr->base)->name, name, z);
		}
	}
	if (a->k < 5 || b->k < 5 || len >= sizeof(d->cross) - 120)
		return;
	for (size_t i = 0; i < a->k; i++)
		ma[i] = a->sw[i].mean;
	for (size_t i = 0; i < b->k; i++)
		mb[i] = b->sw[i].mean;
	if (sb_mann_whitney(ma, a->k, mb, b->k, &u, &p) == 0)
		snprintf(d->cross + len, sizeof(d->cross) - len, "%s%s curve, ranks of the sweeps "
			 "(Mann-Whitney): p %.2g, Hodges-Lehmann %+.2f%%", len ? "; " : "", mode, p,
			 100 * expm1(sb_hodges_lehmann(ma, a->k, mb, b->k)));
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* A sweep's curve value: the mean of its values, or their median (n <= 256, as curve_sweeps makes them). */
static double value_of(const double *v, size_t n, int median)
{
	double s = 0, x[256];

	if (n == 0)
		return NAN;
	if (median && n <= 256) {
		memcpy(x, v, n * sizeof(*x));
		qsort(x, n, sizeof(*x), cmp_double);
		return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	}
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static void drift_curve(struct sb_cmp_drift *d, const struct ctx *c, const struct pair *pr,
			struct curve_test *ct, char boots[2][MAXSWEEPS][64], int acr)
{
	static double vals[2][MAXSWEEPS * 256];
	struct sb_vsweep a[MAXSWEEPS], b[MAXSWEEPS];
	struct sb_vquery q = { { a, 0 }, { b, 0 }, SB_VT_LOG, c->o->conf, 0, SB_DRIFT_NONE_INIT };
	struct sb_drift_sweep la[MAXSWEEPS], lb[MAXSWEEPS];
	struct sb_drift_side sa = { la, 0 }, sb = { lb, 0 };
	struct sb_vresult v;
	int rounds;

	if (curve_sweeps(d, 0, pr, ct, boots[0], vals[0], MAXSWEEPS * 256, a, &q.base.nsw) != 0 ||
	    curve_sweeps(d, 1, pr, ct, boots[1], vals[1], MAXSWEEPS * 256, b, &q.x.nsw) != 0)
		return;
	rounds = split_rounds(d, a, &q.base.nsw, b, &q.x.nsw);
	sb_drift_lookup_point(d->hist, ct->mode, 0, acr, &d->base, &q.drift);
	if (sb_verdict_value(&q, c->o->sweep_median ? SB_VV_MEDIAN : SB_VV_MEAN, &v) != 0)
		return;
	d->nmedian += v.median;
	note_used(d, &q.drift, &v.dt, q.base.nsw + q.x.nsw, rounds);
	ct->vd = v;
	ct->change = v.estimate;
	ct->lo = v.lo;
	ct->hi = v.hi;
	ct->v = (enum verdict)v.word;
	/* the sweeps' curve values (means, or medians) for the cross-check */
	for (size_t i = 0; i < q.base.nsw; i++)
		la[sa.k++] = (struct sb_drift_sweep){ value_of(a[i].v, a[i].n, v.median), 0, a[i].n, NULL };
	for (size_t i = 0; i < q.x.nsw; i++)
		lb[sb.k++] = (struct sb_drift_sweep){ value_of(b[i].v, b[i].n, v.median), 0, b[i].n, NULL };
	cross_check(d, pr, ct->mode, &sa, &sb, &v.dt, rounds);
}

void sb_cmp_drift_pair(const struct ctx *c, struct pair *pr)
{
	struct sb_cmp_drift *d = c->drift;
	static char boots[2][MAXSWEEPS][64];
	int acr = 0;

	if (!d || d->base.src == SB_DRIFT_NONE)
		return;
	for (int s = 0; s < 2; s++) {
		int nsw = d->nsw[s] ? d->nsw[s] : 1;

		for (int i = 0; i < nsw && i < MAXSWEEPS; i++)
			sb_run_boot(d->nsw[s] ? &d->sw[s][i] : s ? pr->x : pr->base, boots[s][i], 64);
	}
	acr = !*boots[0][0] || !*boots[1][0] || strcmp(boots[0][0], boots[1][0]) != 0;	/* the first sweeps' */
	d->rounds = d->nsw[0] ? 0 : rounds_of(pr->base, pr->x);
	if (d->rounds)
		acr = 1;	/* each round boots each kernel */
	pr->nfaster = pr->nslower = pr->nsame = 0;
	for (size_t k = 0; k < pr->nrows; k++) {
		struct row *r = &pr->rows[k];

		if (r->v == V_NA)
			continue;
		if (r->means)
			drift_row(d, c, pr, r, boots, acr);
		r->v = (enum verdict)r->vd.word;
		r->beyond = r->v != V_SAME && fabs(r->vd.d.rel_pct) >= c->o->threshold;
		pr->nfaster += r->v == V_FASTER;
		pr->nslower += r->v == V_SLOWER;
		pr->nsame += r->v == V_SAME;
	}
	for (size_t k = 0; k < pr->ncurves; k++)
		drift_curve(d, c, pr, &pr->curves[k], boots, acr);
}

/* The Note under a report: the drift figure used and where it came from. */
#define ROUNDS "; the sides are the rounds of one runtest.sh --kernel sweep: tested as pairs of rounds " \
	"(each round boots each kernel in turn: the drift a round shares cancels)"
void sb_cmp_drift_words(const struct ctx *c, char *buf, size_t len)
{
	const struct sb_cmp_drift *d = c->drift;
	char w[1800];

	if (!d)
		return (void)snprintf(buf, len, "%s", "");
	sb_drift_words(d->nused ? &d->first : &d->base, w, sizeof(w));
	if (*d->cross) {
		size_t n = strlen(w);

		snprintf(w + n, sizeof(w) - n, " (%s)", d->cross);
	}
	if (c->o->sweep_median && d->ntests) {
		size_t n = strlen(w);

		if (d->nmedian == d->ntests)
			snprintf(w + n, sizeof(w) - n, "; each sweep's value the median of its runs");
		else
			snprintf(w + n, sizeof(w) - n, "; each sweep's value the median of its runs in %d of %d "
				 "tests (the others have a sweep of fewer than %d runs: the mean)", d->nmedian,
				 d->ntests, SB_MEDIAN_RUNS);
	}
	if (d->base.src == SB_DRIFT_NONE || d->base.src == SB_DRIFT_GIVEN)
		snprintf(buf, len, "%s, in every interval%s", w, d->round_pairs ? ROUNDS : "");
	else if (d->hi_pct - d->lo_pct >= 0.05)
		snprintf(buf, len, "%s (the first point's: +/-%.1f%% to +/-%.1f%% by point), in every "
			 "interval; %s%s", w, d->lo_pct, d->hi_pct, d->hist_note, d->round_pairs ? ROUNDS :
			 d->paired ? "; the sides alternated: tested as pairs of sweeps" : "");
	else
		snprintf(buf, len, "%s, in every interval; %s%s", w, d->hist_note, d->round_pairs ? ROUNDS :
			 d->paired ? "; the sides alternated: tested as pairs of sweeps" : "");
}
