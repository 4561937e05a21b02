/* The one verdict on "is this change real" (verdict.h): today's pooled Student's t, the runs as the independent values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

const char *const sb_vword_name[4] = { "not comparable", "same", "faster", "slower" };

/* A side pooled: its values' count, mean and variance (n - 1; 0 below 2 values). */
struct pooled {
	size_t n;
	double mean, var;
};

/* One sweep's summary: as given, or from its values (sb_mean_var). */
static void sweep_summary(const struct sb_vsweep *w, struct pooled *p)
{
	*p = (struct pooled){ w->n, w->mean, w->n > 1 ? w->var : 0 };
	if (w->v != NULL && w->n > 0)
		sb_mean_var(&w->v, &w->n, 1, &p->n, &p->mean, &p->var);
}

/*
 * Sweeps, some given as summaries, pooled from their summaries: the sums of
 * squares within each and between their means.
 */
static void pool_summaries(const struct sb_vside *s, struct pooled *p)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < s->nsw; i++) {
		struct pooled w;

		sweep_summary(&s->sw[i], &w);
		p->n += w.n;
		sum += (double)w.n * w.mean;
	}
	p->mean = sum / (double)p->n;
	for (size_t i = 0; i < s->nsw; i++) {
		struct pooled w;
		double d;

		sweep_summary(&s->sw[i], &w);
		d = w.mean - p->mean;
		ss += (w.n > 1 ? (double)(w.n - 1) * w.var : 0) + (double)w.n * d * d;
	}
	p->var = p->n > 1 ? ss / (double)(p->n - 1) : 0;
}

/*
 * Pool side s into p: when every sweep has its values, those values one
 * after the other (sb_mean_var: the loaders' arithmetic, so that a pooled
 * side gives the digits a pooled run directory gave); else the sweeps'
 * summaries pooled (one sweep: its summary). 0, or -1 (no value; ENOMEM).
 */
static int pool(const struct sb_vside *s, struct pooled *p)
{
	const double *vs[64], **v = vs;
	size_t ns[64], *n = ns, total = 0;
	int have_v = 1, rc;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < s->nsw; i++) {
		total += s->sw[i].n;
		have_v &= s->sw[i].v != NULL || s->sw[i].n == 0;
	}
	if (total == 0)
		return -1;
	if (!have_v) {
		pool_summaries(s, p);
		return 0;
	}
	if (s->nsw > 64 && ((v = malloc(s->nsw * sizeof(*v))) == NULL ||
			    (n = malloc(s->nsw * sizeof(*n))) == NULL)) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < s->nsw; i++) {
		v[i] = s->sw[i].v;
		n[i] = s->sw[i].n;
	}
	rc = sb_mean_var(v, n, s->nsw, &p->n, &p->mean, &p->var);
	if (v != vs) {
		free(v);
		free(n);
	}
	return rc;
}

/*
 * sb_detectable's factor (the standard errors a detectable change is) at df
 * and alpha: each is two quantiles found by bisection and a comparison or a
 * table asks for a few, so the last ones are kept.
 */
static double factor(double df, double alpha)
{
	static double kdf[64], kalpha[64], kf[64];
	static int next, used;

	for (int i = 0; i < used; i++)
		if (kdf[i] == df && kalpha[i] == alpha)
			return kf[i];
	kdf[next] = df;
	kalpha[next] = alpha;
	kf[next] = sb_detectable(1.0, df, alpha, SB_POWER);
	used = used < 64 ? used + 1 : 64;
	next = (next + 1) % 64;
	return kf[(next + 63) % 64];
}

/* The detectable change (%) of v at alpha, each test with its own arithmetic. */
static double detectable(const struct sb_vresult *v, double alpha)
{
	if (v->drifted)
		return 100 * expm1(v->dt.se * factor(v->dt.df, alpha));
	switch (v->test) {
	case SB_VT_RATIO:
		return v->d.null_se_pct * factor((double)v->d.df, alpha);
	case SB_VT_LOG:
		return 100 * v->tt.se * factor(v->tt.df, alpha);
	case SB_VT_DIFF:
		return 100 * (factor(v->tt.df, alpha) * v->tt.se) / v->mean0;
	}
	return NAN;
}

double sb_verdict_detectable(const struct sb_vresult *v, double alpha)
{
	return v->word == SB_VW_NA ? NAN : detectable(v, alpha);
}

/* ministat's ratio of the means (sb_tdiff): its relative interval decides. */
static int ratio(const struct sb_vquery *q, struct sb_vresult *v)
{
	struct sb_tdiff *d = &v->d;

	if (sb_tdiff(v->n0, v->mean0, v->var0, v->n, v->mean, v->var, q->conf, d) != 0)
		return -1;
	v->estimate = d->rel_pct;
	v->lo = d->rel_pct - d->rel_halfwidth_pct;
	v->hi = d->rel_pct + d->rel_halfwidth_pct;
	v->se = d->rel_se_pct;
	v->df = (double)d->df;
	v->p = d->p;
	v->word = !d->rel_significant ? SB_VW_SAME : d->diff > 0 ? SB_VW_FASTER : SB_VW_SLOWER;
	return 0;
}

/* Student's t on the values as given (log ops/s for SB_VT_LOG): the interval of the difference. */
static int two_sample(const struct sb_vquery *q, struct sb_vresult *v)
{
	struct sb_ttest *tt = &v->tt;
	double t;

	if (sb_ttest2(v->n0, v->mean0, v->var0, v->n, v->mean, v->var, tt) != 0)
		return -1;
	t = sb_student_quantile(1 - (1 - q->conf / 100) / 2, tt->df);
	v->df = tt->df;
	v->p = tt->p;
	if (q->test == SB_VT_LOG) {
		v->estimate = 100 * expm1(tt->diff);
		v->lo = 100 * expm1(tt->diff - t * tt->se);
		v->hi = 100 * expm1(tt->diff + t * tt->se);
		v->se = 100 * tt->se;
	} else {
		v->estimate = 100 * tt->diff / v->mean0;
		v->se = 100 * tt->se / v->mean0;
		v->lo = v->estimate - t * v->se;
		v->hi = v->estimate + t * v->se;
	}
	v->word = v->lo > 0 ? SB_VW_FASTER : v->hi < 0 ? SB_VW_SLOWER : SB_VW_SAME;
	return 0;
}

int sb_verdict_log_sweep(const struct sb_vsweep *w, int logs, struct sb_drift_sweep *out)
{
	double sum = 0, ss = 0;

	*out = (struct sb_drift_sweep){ NAN, 0, w->n, w->boot };
	if (w->n == 0)
		return -1;
	if (w->v == NULL) {
		if (!logs && !(w->mean > 0))
			return -1;
		out->mean = logs ? w->mean : log(w->mean);
		out->var = w->n > 1 ? (logs ? w->var : w->var / (w->mean * w->mean)) : 0;
		return 0;
	}
	for (size_t i = 0; i < w->n; i++) {
		if (!logs && !(w->v[i] > 0))
			return -1;
		sum += logs ? w->v[i] : log(w->v[i]);
	}
	out->mean = sum / (double)w->n;
	for (size_t i = 0; i < w->n; i++) {
		double e = (logs ? w->v[i] : log(w->v[i])) - out->mean;

		ss += e * e;
	}
	out->var = w->n > 1 ? ss / (double)(w->n - 1) : 0;
	return 0;
}

/*
 * Measured in pairs: every order known, and the i-th sweeps of the two sides
 * (either first, or one round id) both before either (i+1)-th: a b a b ...,
 * b a b a ..., a b b a ...
 */
static int alternated(const struct sb_vside *a, const struct sb_vside *b)
{
	if (a->nsw != b->nsw || a->nsw < 3)
		return 0;
	for (size_t i = 0; i < a->nsw; i++)
		if (a->sw[i].order < 0 || b->sw[i].order < 0 ||
		    (i + 1 < a->nsw && fmax(a->sw[i].order, b->sw[i].order) >=
					fmin(a->sw[i + 1].order, b->sw[i + 1].order)))
			return 0;
	return 1;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Every sweep of s has its values and SB_MEDIAN_RUNS of them or more. */
static int medians_possible(const struct sb_vside *s)
{
	for (size_t i = 0; i < s->nsw; i++)
		if (s->sw[i].v == NULL || s->sw[i].n < SB_MEDIAN_RUNS)
			return 0;
	return 1;
}

/* out (log_sweep's) with the median of w's logs as its value, its variance the median's (verdict.h). */
static int median_sweep(const struct sb_vsweep *w, int logs, struct sb_drift_sweep *out)
{
	double *x = malloc(w->n * sizeof(*x));
	size_t n = w->n;

	if (x == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		x[i] = logs ? w->v[i] : log(w->v[i]);
	qsort(x, n, sizeof(*x), cmp_double);
	out->mean = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	out->var *= M_PI / 2;
	free(x);
	return 0;
}

/* Side s's sweeps in logs for the drift test: each sweep's mean, or its median. */
static int log_side(const struct sb_vside *s, int logs, int median, struct sb_drift_sweep *out)
{
	for (size_t i = 0; i < s->nsw; i++)
		if (sb_verdict_log_sweep(&s->sw[i], logs, &out[i]) != 0 || (median && median_sweep(&s->sw[i], logs, &out[i]) != 0))
			return -1;
	return 0;
}

/* The sweeps model (drift.h): the test, and the figures every report reads filled from it. */
static int drift_verdict(const struct sb_vquery *q, enum sb_vvalue value, struct sb_vresult *v)
{
	struct sb_drift_sweep a[64], b[64];
	struct sb_drift_side sa = { a, q->base.nsw }, sb = { b, q->x.nsw };
	struct sb_drift_test *t = &v->dt;
	int logs = q->test == SB_VT_LOG;

	if (q->base.nsw > 64 || q->x.nsw > 64 || q->base.nsw == 0 || q->x.nsw == 0)
		return -1;
	v->median = value == SB_VV_MEDIAN && medians_possible(&q->base) && medians_possible(&q->x);
	if (log_side(&q->base, logs, v->median, a) != 0 || log_side(&q->x, logs, v->median, b) != 0)
		return -1;
	if (sb_drift_compare(&sa, &sb, &q->drift, alternated(&q->base, &q->x), q->conf, SB_POWER, t) != 0)
		return -1;
	v->drifted = 1;
	v->estimate = t->est_pct;
	v->lo = t->lo_pct;
	v->hi = t->hi_pct;
	v->se = 100 * t->se;
	v->df = t->df;
	v->p = t->p;
	v->word = v->lo > 0 ? SB_VW_FASTER : v->hi < 0 ? SB_VW_SLOWER : SB_VW_SAME;
	/* the reports' fields: the ratio's, and the difference of the logs' */
	v->d = (struct sb_tdiff){ .df = t->df >= 1 ? (unsigned long)floor(t->df) : 1,
		.t = sb_student_quantile(1 - (1 - q->conf / 100) / 2, t->df), .diff = v->mean - v->mean0,
		.rel_pct = v->estimate, .rel_halfwidth_pct = (v->hi - v->lo) / 2,
		.significant = v->word != SB_VW_SAME, .rel_significant = v->word != SB_VW_SAME,
		.rel_se_pct = v->se, .p = t->p, .null_se_pct = v->se };
	v->d.halfwidth = v->d.rel_halfwidth_pct / 100 * v->mean0;
	v->tt = (struct sb_ttest){ t->diff, t->se, t->df, t->t, t->p };
	return 0;
}

int sb_verdict(const struct sb_vquery *q, struct sb_vresult *out)
{
	return sb_verdict_value(q, SB_VV_MEAN, out);
}

int sb_verdict_value(const struct sb_vquery *q, enum sb_vvalue value, struct sb_vresult *out)
{
	struct pooled b, x;
	int rc;

	memset(out, 0, sizeof(*out));
	out->test = q->test;
	out->word = SB_VW_NA;
	out->estimate = out->lo = out->hi = out->se = out->df = out->p = out->detectable = NAN;
	out->drift = q->drift;
	if (pool(&q->base, &b) != 0 || pool(&q->x, &x) != 0)
		return -1;
	out->n0 = b.n;
	out->n = x.n;
	out->mean0 = b.mean;
	out->mean = x.mean;
	out->var0 = b.var;
	out->var = x.var;
	if (q->test == SB_VT_DIFF ? b.n + x.n < 3 : b.n < 2 || x.n < 2)
		return -1;
	if (q->drift.src != SB_DRIFT_NONE)
		rc = drift_verdict(q, value, out);
	else
		rc = q->test == SB_VT_RATIO ? ratio(q, out) : two_sample(q, out);
	if (rc != 0) {
		out->word = SB_VW_NA;
		return -1;
	}
	out->detectable = detectable(out, q->alpha > 0 ? q->alpha : 1 - q->conf / 100);
	return 0;
}

double sb_verdict_spread(const struct sb_vside *sides, size_t nsides, const struct sb_drift *drift)
{
	double ss = 0, df = 0;

	if (drift->src != SB_DRIFT_NONE)
		return NAN;
	for (size_t i = 0; i < nsides; i++) {
		struct pooled p;

		if (pool(&sides[i], &p) != 0 || p.n < 2)
			continue;
		ss += (double)(p.n - 1) * p.var;
		df += (double)(p.n - 1);
	}
	return df > 0 ? sqrt(ss / df) : NAN;
}
