/* The machine's drift between sweeps: tau^2 from consecutive sweeps' means, pooled, moderated by a prior. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drift.h"
#include "stats.h"

/*
 * The estimate of one class of pairs: the mean square of the k differences of
 * consecutive sweeps' means, without the largest sb_drift_trim(k) of them,
 * halved. One step (a real change) makes one large difference and one bad
 * sweep two: the trim takes them out, so neither inflates the figure; but a
 * machine whose bad sweeps recur shows them in it (bursts are part of its
 * drift, and a median would discount them). For successive N(0, 1) values the
 * trimmed estimate has expectation BIAS[k - 1] and behaves like a variance on
 * DF[k - 1] degrees of freedom (2 E^2 / Var): 400,000 draws each, made by
 * selftest/bench/drift_trim.c. Past the table: 1 - (4 ln k - 6.5) / k and 0.64 k.
 * (Its efficiency is about twice a median's, which its degrees of freedom carry.)
 */
#define TRIM_TABLE 60
static const double trim_bias[TRIM_TABLE] = {
	1.0000, 1.0000, 0.5194, 0.5645, 0.3562, 0.4022, 0.4411, 0.4737, 0.5023, 0.5251,
	0.5473, 0.5666, 0.5839, 0.6009, 0.6154, 0.6283, 0.6397, 0.6509, 0.6607, 0.6712,
	0.6805, 0.6882, 0.6962, 0.7042, 0.7105, 0.7177, 0.7237, 0.7297, 0.7361, 0.7409,
	0.7464, 0.7516, 0.7569, 0.7600, 0.7645, 0.7690, 0.7729, 0.7765, 0.7805, 0.7837,
	0.7868, 0.7901, 0.7931, 0.7961, 0.7995, 0.8022, 0.8050, 0.8076, 0.8098, 0.8129,
	0.8153, 0.8177, 0.8197, 0.8219, 0.8243, 0.8261, 0.8280, 0.8299, 0.8329, 0.8337,
};
static const double trim_df[TRIM_TABLE] = {
	0.999, 1.603, 1.361, 2.040, 1.869, 2.503, 3.113, 3.765, 4.410, 5.087,
	5.688, 6.356, 6.948, 7.622, 8.267, 8.988, 9.566, 10.189, 10.874, 11.549,
	12.237, 12.854, 13.459, 14.110, 14.815, 15.435, 16.083, 16.795, 17.423, 18.074,
	18.758, 19.398, 20.086, 20.630, 21.326, 22.034, 22.679, 23.450, 24.000, 24.658,
	25.302, 25.940, 26.685, 27.295, 27.956, 28.576, 29.308, 29.894, 30.589, 31.316,
	31.918, 32.632, 33.153, 33.876, 34.525, 35.290, 35.965, 36.519, 37.365, 37.785,
};

size_t sb_drift_trim(size_t k)
{
	return k >= 5 ? 2 : k >= 3 ? 1 : 0;
}

double sb_drift_est_bias(size_t k)
{
	double x = (double)k;

	if (k == 0)
		return NAN;
	return k <= TRIM_TABLE ? trim_bias[k - 1] : 1 - (4 * log(x) - 6.5) / x;
}

double sb_drift_est_df(size_t k)
{
	if (k == 0)
		return 0;
	return k <= TRIM_TABLE ? trim_df[k - 1] : 0.64 * (double)k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int same_boot(const struct sb_drift_sweep *a, const struct sb_drift_sweep *b)
{
	return a->boot && b->boot && a->boot[0] && strcmp(a->boot, b->boot) == 0;
}

/* One class's estimate from its differences d[0..k-1] in ascending order and the runs' mean share. */
static void estimate_sorted(const double *d, size_t k, double runs_share, size_t sweeps, struct sb_drift_est *e)
{
	double ss = 0, v;
	size_t m = k - sb_drift_trim(k);

	memset(e, 0, sizeof(*e));
	if (k == 0)
		return;
	for (size_t i = 0; i < m; i++)
		ss += d[i] * d[i];
	v = ss / (double)m / 2 / sb_drift_est_bias(k);	/* tau^2 + the runs' share */
	e->tau2 = v > runs_share ? v - runs_share : 0;
	e->df = sb_drift_est_df(k);
	e->pairs = k;
	e->sweeps = sweeps;
}

/* The same from d[0..k-1] in any order (sorted here). */
static void estimate(double *d, size_t k, double runs_share, size_t sweeps, struct sb_drift_est *e)
{
	if (k > 0)
		qsort(d, k, sizeof(*d), cmp_double);
	estimate_sorted(d, k, runs_share, sweeps, e);
}

/* Pair i of s (sweeps i and i + 1) counts: both have runs and a finite mean. */
static int pair_ok(const struct sb_drift_sweep *s, size_t i)
{
	return s[i].n != 0 && s[i + 1].n != 0 && isfinite(s[i].mean) && isfinite(s[i + 1].mean);
}

/* The pooled variance of the runs inside the sweeps (sweeps of one run add nothing), its df into *df. */
static double runs_sigma2(const struct sb_drift_sweep *s, size_t n, double *df)
{
	double wss = 0, wdf = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i].n >= 2) {
			wss += s[i].var * (double)(s[i].n - 1);
			wdf += (double)(s[i].n - 1);
		}
	*df = wdf;
	return wdf > 0 ? wss / wdf : 0;
}

/* Both classes' estimates carry the series' runs' variance (one figure: the runs do not know the boots). */
static void set_runs(struct sb_drift_est est[2], double sigma2, double df)
{
	for (int c = 0; c < 2; c++) {
		est[c].sigma2 = sigma2;
		est[c].sigma_df = df;
	}
}

/* Pair indices, sorted by their differences (ties: by index). */
struct pair_key {
	double d;
	size_t i;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair_key *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

size_t sb_drift_series_order(const struct sb_drift_sweep *s, size_t n, size_t *order)
{
	struct pair_key *k = malloc((n + 1) * sizeof(*k));
	size_t m = 0;

	if (!k)
		return (size_t)-1;
	for (size_t i = 0; i + 1 < n; i++)
		if (pair_ok(s, i))
			k[m++] = (struct pair_key){ fabs(s[i + 1].mean - s[i].mean), i };
	qsort(k, m, sizeof(*k), cmp_pair);
	for (size_t i = 0; i < m; i++)	/* the pair and its class (SB_DRIFT_WITHIN or ACROSS) */
		order[i] = k[i].i << 1 | (size_t)(same_boot(&s[k[i].i], &s[k[i].i + 1]) ? SB_DRIFT_WITHIN : SB_DRIFT_ACROSS);
	free(k);
	return m;
}

int sb_drift_series_sorted(const struct sb_drift_sweep *s, size_t n, const size_t *order, size_t norder,
			   struct sb_drift_est est[2])
{
	double *d[2], share[2] = { 0, 0 }, sigma2, wdf;
	size_t k[2] = { 0, 0 }, sweeps[2] = { 0, 0 };
	unsigned char *cls;

	memset(est, 0, 2 * sizeof(*est));
	if (n < 2)
		return 0;
	d[0] = malloc(2 * (n - 1) * sizeof(double) + n);
	if (!d[0]) {
		errno = ENOMEM;
		return -1;
	}
	d[1] = d[0] + (n - 1);
	cls = (unsigned char *)(d[1] + (n - 1));
	for (size_t j = 0; j < norder; j++)	/* a pair not in the order does not count in s either */
		if ((order[j] >> 1) + 1 < n)
			cls[order[j] >> 1] = (unsigned char)(order[j] & 1);
	sigma2 = runs_sigma2(s, n, &wdf);
	/* the share and the sweeps in pair order, as sb_drift_series adds them */
	for (size_t i = 0; i + 1 < n; i++) {
		int c;

		if (!pair_ok(s, i))
			continue;
		c = cls[i];
		k[c]++;
		share[c] += sigma2 * (1.0 / (double)s[i].n + 1.0 / (double)s[i + 1].n) / 2;
		sweeps[c] += k[c] == 1 ? 2 : 1;
	}
	k[0] = k[1] = 0;
	/* the differences already in order: the pairs that still count, each in its class */
	for (size_t j = 0; j < norder; j++) {
		size_t i = order[j] >> 1;

		if (i + 1 < n && pair_ok(s, i))
			d[order[j] & 1][k[order[j] & 1]++] = fabs(s[i + 1].mean - s[i].mean);
	}
	for (int c = 0; c < 2; c++)
		estimate_sorted(d[c], k[c], k[c] ? share[c] / (double)k[c] : 0, sweeps[c], &est[c]);
	set_runs(est, sigma2, wdf);
	free(d[0]);
	return 0;
}

int sb_drift_series(const struct sb_drift_sweep *s, size_t n, struct sb_drift_est est[2])
{
	double *d[2], share[2] = { 0, 0 }, wss = 0, wdf = 0, sigma2;
	size_t k[2] = { 0, 0 }, sweeps[2] = { 0, 0 };

	memset(est, 0, 2 * sizeof(*est));
	if (n < 2)
		return 0;
	d[0] = malloc((n - 1) * sizeof(double));
	d[1] = malloc((n - 1) * sizeof(double));
	if (!d[0] || !d[1]) {
		free(d[0]);
		free(d[1]);
		errno = ENOMEM;
		return -1;
	}
	/* sigma^2 pooled from the runs inside the sweeps (sweeps of one run add nothing) */
	for (size_t i = 0; i < n; i++)
		if (s[i].n >= 2) {
			wss += s[i].var * (double)(s[i].n - 1);
			wdf += (double)(s[i].n - 1);
		}
	sigma2 = wdf > 0 ? wss / wdf : 0;
	for (size_t i = 0; i + 1 < n; i++) {
		int c = same_boot(&s[i], &s[i + 1]) ? SB_DRIFT_WITHIN : SB_DRIFT_ACROSS;

		if (s[i].n == 0 || s[i + 1].n == 0 || !isfinite(s[i].mean) || !isfinite(s[i + 1].mean))
			continue;
		d[c][k[c]++] = fabs(s[i + 1].mean - s[i].mean);
		share[c] += sigma2 * (1.0 / (double)s[i].n + 1.0 / (double)s[i + 1].n) / 2;
		sweeps[c] += k[c] == 1 ? 2 : 1;
	}
	for (int c = 0; c < 2; c++)
		estimate(d[c], k[c], k[c] ? share[c] / (double)k[c] : 0, sweeps[c], &est[c]);
	set_runs(est, sigma2, wdf);
	free(d[0]);
	free(d[1]);
	return 0;
}

void sb_drift_pool(struct sb_drift_est *acc, const struct sb_drift_est *e)
{
	double df = acc->df + e->df;

	if (!(e->df > 0))
		return;
	acc->tau2 = (acc->df * acc->tau2 + e->df * e->tau2) / df;
	acc->df = df;
	acc->pairs += e->pairs;
	acc->sweeps += e->sweeps;
}

void sb_drift_given(double pct, struct sb_drift *d)
{
	d->tau2 = pct / 100 * (pct / 100);
	d->df = INFINITY;
	d->weight = 0;
	d->sigma2 = d->sigma_df = 0;
	d->src = pct > 0 ? SB_DRIFT_GIVEN : SB_DRIFT_NONE;
	snprintf(d->what, sizeof(d->what), pct > 0 ? "given (--drift)" :
		 "none (--drift 0: only the runs inside each sweep)");
}

void sb_drift_default(struct sb_drift *d)
{
	d->tau2 = SB_DRIFT_DEFAULT_PCT / 100 * (SB_DRIFT_DEFAULT_PCT / 100);
	d->df = SB_DRIFT_DEFAULT_DF;
	d->weight = 0;
	d->sigma2 = d->sigma_df = 0;
	d->src = SB_DRIFT_DEFAULT;
	snprintf(d->what, sizeof(d->what), "the default, taken as known: nothing learned on this "
		 "testbed");
}

void sb_drift_words(const struct sb_drift *d, char *buf, size_t len)
{
	if (d->src == SB_DRIFT_NONE)
		snprintf(buf, len, "machine drift between sweeps: %s", d->what);
	else if (d->sigma_df > 0)
		snprintf(buf, len, "machine drift between sweeps: +/-%.1f%% sd, %s; the runs inside a sweep: "
			 "+/-%.1f%% sd from the same sweeps (as %.0f df)", sb_drift_pct(d), d->what,
			 100 * sqrt(d->sigma2), d->sigma_df);
	else
		snprintf(buf, len, "machine drift between sweeps: +/-%.1f%% sd, %s", sb_drift_pct(d), d->what);
}

double sb_drift_runs_var(const struct sb_drift *d, double wss, double wdf, double *df)
{
	double d0 = d->src != SB_DRIFT_NONE && d->sigma_df > 0 && d->sigma2 >= 0 ? d->sigma_df : 0;
	double own = wdf > 0 ? wss / wdf : 0, mod = d0 + wdf > 0 ? (d0 * d->sigma2 + wss) / (d0 + wdf) : 0;

	/* never narrower than the sweeps' own runs: a bad sweep's noise is its own, not the history's */
	if (!(d0 > 0) || (wdf > 0 && own >= mod)) {
		*df = wdf;
		return own;
	}
	*df = d0 + wdf;
	return mod;
}

double sb_drift_pct(const struct sb_drift *d)
{
	return 100 * sqrt(d->tau2);
}

double sb_drift_moderated_df(const struct sb_drift *prior, double d, double tau_d2, double post)
{
	if (!(d > 0))
		return prior->src == SB_DRIFT_DEFAULT ? INFINITY : prior->df;
	if (prior->src != SB_DRIFT_DEFAULT)
		return prior->df + d;
	/* the default is taken as known: only the learned part is uncertain; its share of post is
	 * d tau_d2 / (d0 + d), whose variance is (d / (d0 + d))^2 2 tau_d2^2 / d */
	if (!(tau_d2 > 0))
		return INFINITY;
	return (prior->df + d) * (prior->df + d) * post * post / (d * tau_d2 * tau_d2);
}

void sb_drift_moderate(const struct sb_drift *prior, const struct sb_drift_est *data,
		       const char *what, struct sb_drift *out)
{
	double d = data ? data->df : 0, w0 = prior->weight > 0 ? prior->weight : prior->df;

	if (out != prior)
		*out = *prior;
	if (prior->src == SB_DRIFT_GIVEN || prior->src == SB_DRIFT_NONE || !(d > 0))
		return;
	out->weight = w0 + d;
	out->tau2 = (w0 * prior->tau2 + d * data->tau2) / (w0 + d);
	out->df = sb_drift_moderated_df(prior, d, data->tau2, out->tau2);
	out->src = SB_DRIFT_LEARNED;
	snprintf(out->what, sizeof(out->what), "%s, %.0f df", what, out->df);
	sb_drift_runs_prior(data, out);
}

void sb_drift_runs_prior(const struct sb_drift_est *e, struct sb_drift *out)
{
	if (!(e->sigma_df > 0) || out->src == SB_DRIFT_GIVEN || out->src == SB_DRIFT_NONE)
		return;
	out->sigma2 = e->sigma2;
	out->sigma_df = fmin(e->sigma_df, SB_DRIFT_PRIOR_MAXDF);
}

/* Sum of the side's sweep means, the squared deviations from their mean, and mean(1/n). */
static int side_stats(const struct sb_drift_side *s, double *mean, double *ss, double *inv_n,
		      double *wss, double *wdf)
{
	size_t k = 0;
	double sum = 0;

	*ss = *inv_n = 0;
	for (size_t i = 0; i < s->k; i++) {
		if (s->sw[i].n == 0 || !isfinite(s->sw[i].mean))
			return -1;
		sum += s->sw[i].mean;
		*inv_n += 1.0 / (double)s->sw[i].n;
		if (s->sw[i].n >= 2) {
			*wss += s->sw[i].var * (double)(s->sw[i].n - 1);
			*wdf += (double)(s->sw[i].n - 1);
		}
		k++;
	}
	if (k == 0)
		return -1;
	*mean = sum / (double)k;
	*inv_n /= (double)k;
	for (size_t i = 0; i < s->k; i++)
		*ss += (s->sw[i].mean - *mean) * (s->sw[i].mean - *mean);
	return 0;
}

static void finish_test(double conf, double power, struct sb_drift_test *o)
{
	double tq = sb_student_quantile(1 - (1 - conf / 100) / 2, o->df);

	o->t = o->se > 0 ? o->diff / o->se : o->diff == 0 ? 0 : copysign(INFINITY, o->diff);
	o->p = o->se > 0 ? sb_student_p2(o->t, o->df) : o->diff == 0 ? 1 : 0;
	o->est_pct = 100 * expm1(o->diff);
	o->lo_pct = 100 * expm1(o->diff - tq * o->se);
	o->hi_pct = 100 * expm1(o->diff + tq * o->se);
	o->detectable_pct = 100 * expm1(sb_detectable(o->se, o->df, 1 - conf / 100, power));
}

static int paired_test(const struct sb_drift_side *a, const struct sb_drift_side *b,
		       double conf, double power, struct sb_drift_test *o)
{
	double sum = 0, ss = 0, k = (double)a->k, m;

	for (size_t i = 0; i < a->k; i++)
		sum += b->sw[i].mean - a->sw[i].mean;
	m = sum / k;
	for (size_t i = 0; i < a->k; i++) {
		double e = b->sw[i].mean - a->sw[i].mean - m;

		ss += e * e;
	}
	o->paired = 1;
	o->diff = m;
	o->se = sqrt(ss / (k - 1) / k);
	o->df = k - 1;
	finish_test(conf, power, o);
	return 0;
}

int sb_drift_compare(const struct sb_drift_side *a, const struct sb_drift_side *b,
		     const struct sb_drift *d, int paired, double conf, double power,
		     struct sb_drift_test *o)
{
	double ma, mb, ssa, ssb, ia, ib, wss = 0, wdf = 0, bdf, tau2, tdf, ct, cw;

	memset(o, 0, sizeof(*o));
	if (side_stats(a, &ma, &ssa, &ia, &wss, &wdf) < 0 || side_stats(b, &mb, &ssb, &ib, &wss, &wdf) < 0)
		return -1;
	o->sigma2 = sb_drift_runs_var(d, wss, wdf, &o->sigma_df);

	/* the sides' own replicate sweeps: their spread less the runs' share */
	bdf = (double)(a->k - 1) + (double)(b->k - 1);
	tau2 = d->tau2;
	tdf = d->df;
	if (bdf > 0 && d->src != SB_DRIFT_GIVEN && d->src != SB_DRIFT_NONE) {
		double own = (ssa + ssb) / bdf - o->sigma2 * (ia * (double)(a->k - 1) +
							       ib * (double)(b->k - 1)) / bdf;

		if (own < 0)
			own = 0;
		if (isfinite(tdf)) {
			tau2 = (tdf * tau2 + bdf * own) / (tdf + bdf);
			tdf = sb_drift_moderated_df(d, bdf, own, tau2);
		}
	} else if (d->src == SB_DRIFT_DEFAULT)
		/* the default alone is taken at its value: on its 2 df a single sweep a side could
		 * detect nothing below about 25%; its d0 only weighs it against what is learned */
		tdf = INFINITY;
	o->tau2 = tau2;
	o->tau_df = tdf;
	if (paired && a->k == b->k && a->k >= 3)
		return paired_test(a, b, conf, power, o);
	ct = tau2 * (1.0 / (double)a->k + 1.0 / (double)b->k);
	cw = o->sigma2 * (ia / (double)a->k + ib / (double)b->k);
	o->diff = mb - ma;
	o->se = sqrt(ct + cw);
	if (ct + cw <= 0)
		return -1;
	/* Welch-Satterthwaite: a part known exactly (df infinite) adds nothing to the denominator */
	o->df = (ct + cw) * (ct + cw) /
		((isfinite(tdf) && ct > 0 ? ct * ct / tdf : 0) +
		 (cw > 0 ? (o->sigma_df > 0 ? cw * cw / o->sigma_df : INFINITY) : 0));
	if (!(o->df > 0))
		return -1;
	if (!isfinite(o->df))
		o->df = 1e6;
	finish_test(conf, power, o);
	return 0;
}
