/* Change points of ordered sweep series: binary segmentation, a random-effects t on the sweeps, the error held over all series. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg/exit.h"
#include "history/changepoint.h"
#include "stat/stats.h"

/*
 * The model (docs/HISTORY.md "The method"): in one series, run r of sweep i is
 * log y_ir = mu_seg(i) + s_i + e_ir, with s_i ~ N(0, tau2) the sweep's own
 * offset (shared by its runs) and e_ir ~ N(0, sigma2) the run's. A sweep's
 * mean log m_i then has variance tau2 + sigma2 / n_i. sigma2 is pooled from
 * the runs inside the sweeps; tau2 from the spread of the sweep means around
 * their segments' means, less what the runs explain. The sweeps, not the
 * runs, are the independent values: the t of a split has (sweeps - 2)
 * degrees of freedom, however many runs each sweep has.
 */

/* One series ready for O(1) split tests: prefix sums over its sweeps. */
struct prep {
	size_t n;
	double centre;		/* the first sweep's mean log: the sums are of m_i - centre */
	double sw2;		/* pooled within-sweep variance of log runs (0 without replicates) */
	double *s1, *s2, *inv;	/* prefix sums of m_i, m_i^2, 1 / n_i (n + 1 each) */
};

/* The comparison of two runs of sweeps A = [a0, a1) and B = [b0, b1). */
struct cmp2 {
	double ma, mb;		/* mean log of each side (sweep means, equal weights) */
	double diff, se, df, t;	/* mb - ma, its standard error, df, t */
};

static int prep_series(const struct sb_cp_series *s, struct prep *pp)
{
	double centre = 0, ss = 0, dfw = 0;
	size_t i, r, n = s->n;

	pp->n = n;
	pp->s1 = calloc(3 * (n + 1), sizeof(double));
	if (!pp->s1)
		return SB_EXIT_ENV;
	pp->s2 = pp->s1 + n + 1;
	pp->inv = pp->s2 + n + 1;
	for (i = 0; i < n; i++) {
		const struct sb_cp_obs *o = &s->obs[i];
		double m = 0;

		if (o->nruns == 0 || !o->runs)
			return SB_EXIT_USAGE;
		for (r = 0; r < o->nruns; r++) {
			if (!isfinite(o->runs[r]) || !(o->runs[r] > 0))
				return SB_EXIT_USAGE;
			m += log(o->runs[r]);
		}
		m /= (double)o->nruns;
		for (r = 0; r < o->nruns; r++)
			ss += (log(o->runs[r]) - m) * (log(o->runs[r]) - m);
		dfw += (double)o->nruns - 1;
		if (i == 0)
			centre = m;	/* centred on the first sweep: the sums of squares keep their digits */
		m -= centre;
		pp->s1[i + 1] = pp->s1[i] + m;
		pp->s2[i + 1] = pp->s2[i] + m * m;
		pp->inv[i + 1] = pp->inv[i] + 1.0 / (double)o->nruns;
	}
	pp->centre = centre;
	pp->sw2 = dfw > 0 ? ss / dfw : 0;
	return 0;
}

/* One side of a comparison: sweeps' count and sums (of m, m^2, 1 / runs), from one or two ranges. */
struct side {
	double n, s, ss, inv;
};

static struct side side_of(const struct prep *pp, size_t lo, size_t hi)
{
	return (struct side){ (double)(hi - lo), pp->s1[hi] - pp->s1[lo], pp->s2[hi] - pp->s2[lo],
			      pp->inv[hi] - pp->inv[lo] };
}

static struct side side_plus(struct side a, struct side b)
{
	return (struct side){ a.n + b.n, a.s + b.s, a.ss + b.ss, a.inv + b.inv };
}

/* B against A, the variance of a sweep mean from both sides' residuals and the runs. */
static void compare_sides(const struct prep *pp, struct side a, struct side b, struct cmp2 *c)
{
	double rss = a.ss - a.s * a.s / a.n + b.ss - b.s * b.s / b.n;
	double within, tau2, var;

	c->ma = a.s / a.n;
	c->mb = b.s / b.n;
	c->diff = c->mb - c->ma;
	c->df = a.n + b.n - 2;
	if (rss < 0)
		rss = 0;
	/* tau2: the sweep means' spread less the runs' share of it, never below 0 */
	within = pp->sw2 * (a.inv + b.inv) / (a.n + b.n);
	tau2 = c->df > 0 ? rss / c->df - within : 0;
	if (tau2 < 0)
		tau2 = 0;
	var = (a.n * tau2 + pp->sw2 * a.inv) / (a.n * a.n) +
	      (b.n * tau2 + pp->sw2 * b.inv) / (b.n * b.n);
	c->se = sqrt(var);
	if (c->se > 0)
		c->t = c->diff / c->se;
	else
		c->t = c->diff == 0 ? 0 : c->diff > 0 ? INFINITY : -INFINITY;
}

/* [b0, b1) against [a0, a1) */
static void compare2(const struct prep *pp, size_t a0, size_t a1, size_t b0, size_t b1,
		     struct cmp2 *c)
{
	compare_sides(pp, side_of(pp, a0, a1), side_of(pp, b0, b1), c);
}

/*
 * The p-value of the largest |t| over the splits k0..k1 of [lo, hi): the
 * chance that any split's |t| reaches it when there is no change. Bonferroni
 * over the splits, or, tighter, Hotelling's tube formula: the residuals'
 * direction is uniform on a sphere, each split's t a function of its angle to
 * the split's contrast, and the contrasts of neighbouring splits are
 * acos(rho) apart (rho their correlation); the chance that the path of
 * contrasts, of length L, comes within the angle of |t| is at most
 * p1 + L / pi * (df / (df + t^2))^((df - 1) / 2).
 */
static double max_p(double tmax, double df, size_t lo, size_t hi, size_t k0, size_t k1)
{
	double p1, len = 0, nn = (double)(hi - lo);

	if (!(df > 0))
		return 1;
	p1 = sb_student_p2(tmax, df);
	for (size_t k = k0; k < k1; k++) {
		double a = (double)(k - lo);

		len += acos(fmin(1.0, sqrt(a * (nn - a - 1) / ((a + 1) * (nn - a)))));
	}
	return fmin(1.0, fmin(p1 * (double)(k1 - k0 + 1),
			      p1 + len / M_PI * pow(df / (df + tmax * tmax), (df - 1) / 2)));
}

static struct side side_minus(struct side a, struct side b)
{
	return (struct side){ a.n - b.n, a.s - b.s, a.ss - b.ss, a.inv - b.inv };
}

/*
 * The |t| of the cut of [lo, hi) with side B = [b0, b1) (A the rest) that
 * survives the loss of any one sweep: the smallest |t| (0 when the sign
 * turns) over the cut made again without each sweep in turn, one degree of
 * freedom less (in *df). One outlying sweep, a spike, cannot carry a change
 * by itself, however quiet the series around it. (Only the smaller side's
 * sweeps are taken out: one sweep of the larger has less leverage. A side of
 * one sweep, allowed by min_seg 1, is kept whole.)
 */
static double robust_t(const struct prep *pp, size_t lo, size_t hi, size_t b0, size_t b1, double *df)
{
	struct side b = side_of(pp, b0, b1), a = side_minus(side_of(pp, lo, hi), b);
	struct cmp2 full, c;
	double tmin;

	compare_sides(pp, a, b, &full);
	tmin = fabs(full.t);
	*df = full.df;
	if ((b.n <= a.n ? b.n : a.n) < 2)
		return tmin;	/* a side of one sweep: min_seg 1 asked for it */
	*df = full.df - 1;
	for (size_t i = lo; i < hi && tmin > 0; i++) {
		struct side one = side_of(pp, i, i + 1);
		int in_b = i >= b0 && i < b1;

		if (in_b != (b.n <= a.n))
			continue;	/* the larger side: no one sweep of it carries the difference */
		compare_sides(pp, in_b ? a : side_minus(a, one), in_b ? side_minus(b, one) : b, &c);
		tmin = (c.t < 0) != (full.t < 0) ? 0 : fmin(tmin, fabs(c.t));
	}
	return tmin;
}

/* Where a segment is cut: one split, or two (a stretch that left the level and came back). */
struct cut {
	size_t at[2], n;
	double p;		/* the chance of so strong a cut in this segment without a change */
};

/* The best single split of [lo, hi) and the p-value of its |t| (1: none possible). */
static double best_split(const struct prep *pp, size_t lo, size_t hi, size_t min_seg, size_t *at)
{
	double tmax = -1, df = 0;
	size_t k, k0 = lo + min_seg, k1;

	if (hi - lo < 2 * min_seg || hi - lo < 3)
		return 1;
	k1 = hi - min_seg;
	for (k = k0; k <= k1; k++) {
		struct cmp2 c;

		compare2(pp, lo, k, k, hi, &c);
		if (fabs(c.t) > tmax) {
			tmax = fabs(c.t);
			*at = k;
		}
	}
	tmax = robust_t(pp, lo, hi, *at, hi, &df);
	return max_p(tmax, df, lo, hi, k0, k1);
}

/*
 * The best stretch [k1, k2) of [lo, hi) against the sweeps either side of it
 * (a step and a step back: one split sees half of it), p Bonferroni over the
 * stretches. Quadratic: segments longer than CP_PAIR_MAX sweeps are not scanned.
 */
#define CP_PAIR_MAX 240
static double best_pair(const struct prep *pp, size_t lo, size_t hi, size_t min_seg, size_t at[2])
{
	double tmax = -1, df = 0, npairs = 0;
	size_t mid = min_seg;	/* the stretch's fewest sweeps */

	if (hi - lo < 2 * min_seg + mid || hi - lo > CP_PAIR_MAX)
		return 1;
	for (size_t k1 = lo + min_seg; k1 + mid + min_seg <= hi; k1++)
		for (size_t k2 = k1 + mid; k2 + min_seg <= hi; k2++) {
			struct cmp2 c;

			compare_sides(pp, side_plus(side_of(pp, lo, k1), side_of(pp, k2, hi)),
				      side_of(pp, k1, k2), &c);
			npairs++;
			if (fabs(c.t) > tmax) {
				tmax = fabs(c.t);
				at[0] = k1;
				at[1] = k2;
			}
		}
	tmax = robust_t(pp, lo, hi, at[0], at[1], &df);
	if (!(df > 0))
		return 1;
	return fmin(1.0, sb_student_p2(tmax, df) * npairs);
}

/* The better of the two cuts; each test at half the level (Bonferroni) when both can be made. */
static void best_cut(const struct prep *pp, size_t lo, size_t hi, size_t min_seg, struct cut *c)
{
	size_t at1 = 0, at2[2] = { 0, 0 };
	double p1 = best_split(pp, lo, hi, min_seg, &at1);
	double p2 = best_pair(pp, lo, hi, min_seg, at2);

	if (hi - lo < 3 * min_seg || hi - lo > CP_PAIR_MAX) {
		*c = (struct cut){ { at1, 0 }, 1, p1 };
		return;
	}
	if (p1 <= p2)
		*c = (struct cut){ { at1, 0 }, 1, fmin(1.0, 2 * p1) };
	else
		*c = (struct cut){ { at2[0], at2[1] }, 2, fmin(1.0, 2 * p2) };
}

/* The changes found so far in one series. */
struct found {
	size_t *at;
	double *p;
	size_t n, cap;
};

static int found_add(struct found *f, size_t at, double p)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		size_t *a = realloc(f->at, cap * sizeof(*a));
		double *q;

		if (!a)
			return SB_EXIT_ENV;
		f->at = a;
		q = realloc(f->p, cap * sizeof(*q));
		if (!q)
			return SB_EXIT_ENV;
		f->p = q;
		f->cap = cap;
	}
	f->at[f->n] = at;
	f->p[f->n++] = p;
	return 0;
}

/* Record cut c of [lo, hi) with p-value p, then cut its pieces while a cut's p times m is at most alpha. */
static int record(const struct prep *pp, size_t lo, size_t hi, const struct cut *c, double p,
		  size_t min_seg, double m, double alpha, struct found *f);

static int segment(const struct prep *pp, size_t lo, size_t hi, size_t min_seg, double m,
		   double alpha, struct found *f)
{
	struct cut c;

	best_cut(pp, lo, hi, min_seg, &c);
	if (!(c.p * m <= alpha))
		return 0;
	return record(pp, lo, hi, &c, fmin(1.0, c.p * m), min_seg, m, alpha, f);
}

static int record(const struct prep *pp, size_t lo, size_t hi, const struct cut *c, double p,
		  size_t min_seg, double m, double alpha, struct found *f)
{
	size_t edge[4] = { lo, c->at[0], c->at[1], hi };
	int rc;

	edge[c->n + 1] = hi;
	for (size_t j = 0; j < c->n; j++)
		if ((rc = found_add(f, c->at[j], p)) != 0)
			return rc;
	for (size_t j = 0; j <= c->n; j++)
		if ((rc = segment(pp, edge[j], edge[j + 1], min_seg, m, alpha, f)) != 0)
			return rc;
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* One series' changes, refitted between their neighbours, appended to *out. */
static int emit(const struct prep *pp, size_t series, struct found *f, struct sb_cp_change **out,
		size_t *nout, size_t *cap)
{
	size_t j, *order;

	/* sort the indices, carrying the p-values along: at is unique within a series */
	order = malloc((f->n ? f->n : 1) * sizeof(*order));
	if (!order)
		return SB_EXIT_ENV;
	memcpy(order, f->at, f->n * sizeof(*order));
	qsort(order, f->n, sizeof(*order), cmp_size);
	for (j = 0; j < f->n; j++) {
		size_t prev = j ? order[j - 1] : 0, next = j + 1 < f->n ? order[j + 1] : pp->n;
		size_t last = order[f->n - 1], k;
		struct sb_cp_change *c;
		struct cmp2 here, now;
		double q;

		if (*nout == *cap) {
			size_t nc = *cap ? 2 * *cap : 16;
			struct sb_cp_change *g = realloc(*out, nc * sizeof(*g));

			if (!g) {
				free(order);
				return SB_EXIT_ENV;
			}
			*out = g;
			*cap = nc;
		}
		c = &(*out)[(*nout)++];
		c->series = series;
		c->at = order[j];
		for (k = 0; f->at[k] != c->at; k++)
			;
		c->p = f->p[k];
		compare2(pp, prev, c->at, c->at, next, &here);
		q = here.df > 0 ? sb_student_quantile(0.975, here.df) : INFINITY;
		c->before = exp(pp->centre + here.ma);
		c->after = exp(pp->centre + here.mb);
		c->pct = 100 * expm1(here.diff);
		c->lo = 100 * expm1(here.diff - q * here.se);
		c->hi = 100 * expm1(here.diff + q * here.se);
		/* the newest segment against the one before this change */
		compare2(pp, prev, c->at, last, pp->n, &now);
		c->holds = (now.diff < 0) == (here.diff < 0) && now.df > 0 &&
			   sb_student_p2(now.t, now.df) < 0.05;
	}
	free(order);
	return 0;
}

int sb_cp_check(const struct sb_cp_series *s, size_t ns, char *err, size_t errlen)
{
	if (ns && !s) {
		snprintf(err, errlen, "no series given");
		return SB_EXIT_USAGE;
	}
	for (size_t j = 0; j < ns; j++) {
		if (s[j].n && !s[j].obs) {
			snprintf(err, errlen, "series %zu: no sweeps given", j);
			return SB_EXIT_USAGE;
		}
		for (size_t i = 0; i < s[j].n; i++) {
			const struct sb_cp_obs *o = &s[j].obs[i];

			if (o->nruns == 0 || !o->runs) {
				snprintf(err, errlen, "series %zu, sweep %zu: no runs", j, i);
				return SB_EXIT_USAGE;
			}
			for (size_t r = 0; r < o->nruns; r++)
				if (!isfinite(o->runs[r]) || !(o->runs[r] > 0)) {
					snprintf(err, errlen, "series %zu, sweep %zu, run %zu: %g is "
						 "not a positive finite number", j, i, r, o->runs[r]);
					return SB_EXIT_USAGE;
				}
		}
	}
	return 0;
}

static void prep_free(struct prep *pp, size_t n)
{
	for (size_t j = 0; j < n; j++)
		free(pp[j].s1);
	free(pp);
}

/* Holm over every series' first split, then each rejected series split further. */
static int detect_all(const struct prep *pp, size_t ns, double alpha, size_t min_seg,
		      struct sb_cp_change **out, size_t *nout)
{
	size_t m = ns ? ns : 1, j, cap = 0;
	struct cut *c0 = malloc(m * sizeof(*c0));
	double *p0 = calloc(m, sizeof(*p0)), *adj = malloc(m * sizeof(*adj));
	int *rej = malloc(m * sizeof(*rej)), rc = 0;
	struct found f = { 0 };

	if (!p0 || !adj || !c0 || !rej) {
		rc = SB_EXIT_ENV;
		goto done;
	}
	for (j = 0; j < ns; j++) {
		best_cut(&pp[j], 0, pp[j].n, min_seg, &c0[j]);
		p0[j] = c0[j].p;
	}
	if (sb_holm(p0, NULL, ns, alpha, rej, adj) < 0) {
		rc = SB_EXIT_ENV;
		goto done;
	}
	for (j = 0; j < ns && rc == 0; j++) {
		if (!rej[j])
			continue;
		f.n = 0;
		if ((rc = record(&pp[j], 0, pp[j].n, &c0[j], adj[j], min_seg, (double)ns, alpha,
				 &f)) != 0)
			break;
		rc = emit(&pp[j], j, &f, out, nout, &cap);
	}
done:
	free(f.at);
	free(f.p);
	free(p0);
	free(adj);
	free(c0);
	free(rej);
	return rc;
}

int sb_cp_detect(const struct sb_cp_series *s, size_t ns, const struct sb_cp_opts *o,
		 struct sb_cp_change **out, size_t *nout)
{
	double alpha = o && o->alpha != 0 ? o->alpha : 0.05;
	size_t min_seg = o && o->min_seg ? o->min_seg : 2, j;
	struct prep *pp;
	char err[160];
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!(alpha > 0 && alpha < 1) || sb_cp_check(s, ns, err, sizeof(err)) != 0)
		return SB_EXIT_USAGE;
	pp = calloc(ns ? ns : 1, sizeof(*pp));
	if (!pp)
		return SB_EXIT_ENV;
	for (j = 0; j < ns && rc == 0; j++)
		rc = prep_series(&s[j], &pp[j]);
	if (rc == 0)
		rc = detect_all(pp, ns, alpha, min_seg, out, nout);
	prep_free(pp, ns);
	if (rc != 0) {
		free(*out);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}
