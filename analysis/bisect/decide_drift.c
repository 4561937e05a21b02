/* A bisect step's decisions on sweeps with the machine's drift: the ends' gap (sb_drift_compare), a likelihood ratio of the step's sweep means. */
#include <math.h>

#include "bisect/decide_drift.h"
#include "stat/stats.h"
#include "stat/verdict.h"

int sb_gap_check_drift(const struct sb_drift_side *good, const struct sb_drift_side *bad,
		       const struct sb_drift *d, struct sb_gap *out)
{
	struct sb_drift_test t;

	if (sb_drift_compare(good, bad, d, 0, 95, SB_POWER, &t) != 0)
		return -1;
	out->change_pct = t.est_pct;
	out->detectable_pct = t.detectable_pct;
	out->p = t.p;
	out->differ = t.p < SB_ENDS_P;
	return 0;
}

/* A side's mean of sweep means, its runs' squared deviations and df, mean(1/n); -1 if empty. */
static int side(const struct sb_drift_side *s, double *mean, double *between, double *wss, double *wdf,
		double *inv_n)
{
	double sum = 0;

	*between = *inv_n = 0;
	if (s->k == 0)
		return -1;
	for (size_t i = 0; i < s->k; i++) {
		if (s->sw[i].n == 0 || !isfinite(s->sw[i].mean))
			return -1;
		sum += s->sw[i].mean;
		*inv_n += 1.0 / (double)s->sw[i].n;
		if (s->sw[i].n > 1) {
			*wss += s->sw[i].var * (double)(s->sw[i].n - 1);
			*wdf += (double)(s->sw[i].n - 1);
		}
	}
	*mean = sum / (double)s->k;
	*inv_n /= (double)s->k;
	for (size_t i = 0; i < s->k; i++)
		*between += (s->sw[i].mean - *mean) * (s->sw[i].mean - *mean);
	return 0;
}

/* log density of x under a t of df degrees of freedom (infinite: the normal) about mu, scale^2 var;
 * the constant both hypotheses share is left out */
static double log_t(double x, double mu, double var, double df)
{
	if (!isfinite(df) || df > 1e6)
		return -0.5 * log(var) - (x - mu) * (x - mu) / (2 * var);
	return -0.5 * log(var) - (df + 1) / 2 * log1p((x - mu) * (x - mu) / (df * var));
}

/*
 * tau^2 (and its t's degrees of freedom) from d moderated by replicate sweeps
 * whose spread, less the runs' share, sums to ss over df degrees of freedom.
 */
static void moderate(const struct sb_drift *d, double ss, double df, double *tau2, double *tdf)
{
	double own = df > 0 && ss > 0 ? ss / df : 0, w = d->weight > 0 ? d->weight : d->df;

	*tau2 = d->tau2;
	*tdf = d->src == SB_DRIFT_DEFAULT ? INFINITY : d->df;	/* the default alone, taken at its value */
	if (!(df > 0) || d->src == SB_DRIFT_GIVEN || d->src == SB_DRIFT_NONE || !isfinite(w))
		return;
	*tau2 = (w * d->tau2 + df * own) / (w + df);
	*tdf = sb_drift_moderated_df(d, df, own, *tau2);
}

/* sb_decide_drift; own_step 0: the step's sweeps are hypothetical (sb_ends_decidable's), their spread unknown */
static int decide(const struct sb_drift_side *good, const struct sb_drift_side *bad, const struct sb_drift *d,
		  const struct sb_rule *rule, const struct sb_drift_side *step, int own_step, struct sb_step *out)
{
	double mg, mb, my = NAN, bg, bb, by = 0, ig, ib, iy = 0, wss = 0, wdf = 0, sigma2, tau2, vg, vb, vy = 0;
	double tdf, rdf, rss, sdf;
	size_t runs = 0, sk;

	if (!(rule->alpha > 0 && rule->alpha < 0.5 && rule->beta > 0 && rule->beta < 0.5 &&
	      rule->min_runs > 0 && rule->max_runs >= rule->min_runs))
		return -1;
	if (side(good, &mg, &bg, &wss, &wdf, &ig) < 0 || side(bad, &mb, &bb, &wss, &wdf, &ib) < 0 ||
	    !(fabs(mb - mg) > 0))
		return -1;
	if (step->k > 0 && side(step, &my, &by, &wss, &wdf, &iy) < 0)
		return -1;
	for (size_t i = 0; i < step->k; i++)
		runs += step->sw[i].n;
	sigma2 = sb_drift_runs_var(d, wss, wdf, &sdf);
	/* the replicate sweeps of one level (each end's, the step's: one commit each) moderate the
	 * drift, as in compare: their spread less the runs' share */
	rdf = (double)(good->k - 1) + (double)(bad->k - 1);
	rss = bg + bb - sigma2 * (ig * (double)(good->k - 1) + ib * (double)(bad->k - 1));
	sk = step->k ? step->k - 1 : 0;
	if (own_step) {
		rdf += (double)sk;
		rss += by - sigma2 * iy * (double)sk;
	}
	moderate(d, rss, rdf, &tau2, &tdf);
	if (!own_step && sk) {
		/* a step not yet measured: its sweeps will bring their degrees of freedom, and a spread
		 * as the ends' replicate sweeps show it (the figure itself when they have none) */
		double own = rdf > 0 ? (rss > 0 ? rss / rdf : 0) : tau2;

		rss = (rss > 0 ? rss : 0) + (double)sk * own;
		rdf += (double)sk;
		moderate(d, rss, rdf, &tau2, &tdf);
	}
	vg = (tau2 + sigma2 * ig) / (double)good->k;
	vb = (tau2 + sigma2 * ib) / (double)bad->k;
	if (step->k > 0)
		vy = (tau2 + sigma2 * iy) / (double)step->k;
	out->k = runs;
	out->mean = exp(my);
	out->sd = sqrt(tau2 + sigma2);
	out->lo = log(rule->beta / (1 - rule->alpha));
	out->hi = log((1 - rule->beta) / rule->alpha);
	out->position = step->k > 0 ? (my - mg) / (mb - mg) : NAN;
	if (step->k == 0)
		out->llr = 0;
	else if (!(vg + vy > 0) || !(vb + vy > 0))	/* no spread anywhere: the nearer end */
		out->llr = fabs(my - mb) < fabs(my - mg) ? INFINITY : fabs(my - mb) > fabs(my - mg) ? -INFINITY : 0;
	else
		out->llr = log_t(my, mb, vb + vy, tdf) - log_t(my, mg, vg + vy, tdf);
	sb_rule_verdict(rule, runs, out);
	return 0;
}

int sb_decide_drift(const struct sb_drift_side *good, const struct sb_drift_side *bad,
		    const struct sb_drift *d, const struct sb_rule *rule,
		    const struct sb_drift_side *step, struct sb_step *out)
{
	return decide(good, bad, d, rule, step, 1, out);
}

int sb_bisect_drift_est(const struct sb_drift_side *groups, size_t n, struct sb_drift_est *out)
{
	double between = 0, share = 0, df = 0, wss = 0, wdf = 0, m, b, inv;

	*out = (struct sb_drift_est){ 0, 0, 0, 0, 0, 0 };
	for (size_t i = 0; i < n; i++) {
		b = 0;
		if (groups[i].k < 2 || side(&groups[i], &m, &b, &wss, &wdf, &inv) < 0)
			continue;
		between += b;
		share += inv * (double)(groups[i].k - 1);
		df += (double)(groups[i].k - 1);
		out->sweeps += groups[i].k;
		out->pairs += groups[i].k - 1;
	}
	if (!(df > 0))
		return -1;
	out->tau2 = (between - (wdf > 0 ? wss / wdf : 0) * share) / df;
	if (out->tau2 < 0)
		out->tau2 = 0;
	out->df = df;
	return 0;
}

int sb_ends_decidable(const struct sb_drift_side *good, const struct sb_drift_side *bad,
		      const struct sb_drift *d, const struct sb_rule *rule, size_t batch)
{
	struct sb_drift_sweep sw[256];
	struct sb_drift_side x = { sw, 0 };
	struct sb_step s;
	double pooled = 0, n = 0;

	if (batch == 0 || good->k == 0 || bad->k == 0)
		return -1;
	for (size_t i = 0; i < good->k + bad->k; i++) {
		const struct sb_drift_sweep *e = i < good->k ? &good->sw[i] : &bad->sw[i - good->k];

		if (e->n > 1) {
			pooled += e->var * (double)(e->n - 1);
			n += (double)(e->n - 1);
		}
	}
	for (int end = 0; end < 2; end++) {
		const struct sb_drift_side *at = end ? bad : good;
		double m = 0;

		for (size_t i = 0; i < at->k; i++)
			m += at->sw[i].mean / (double)at->k;
		for (x.k = 0; x.k < rule->max_runs / batch && x.k < 256; x.k++)
			sw[x.k] = (struct sb_drift_sweep){ m, n > 0 ? pooled / n : 0, batch, NULL };
		if (x.k == 0 || decide(good, bad, d, rule, &x, 0, &s) != 0)
			return -1;
		if (s.v != (end ? SB_V_BAD : SB_V_GOOD))
			return 0;
	}
	return 1;
}
