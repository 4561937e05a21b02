/* The decisions of a bisect step: whether the two ends differ, and Wald's sequential test of a commit's runs (both through verdict.h). */
#include <math.h>

#include "bisect/decide.h"
#include "stat/stats.h"
#include "stat/verdict.h"

const char *const sb_verdict_name[4] = { "more runs", "good", "bad", "cannot tell" };

/* The level the ends' detectable change is for (its power: verdict.h's SB_POWER, as compare's gate). */
#define GAP_ALPHA 0.05

int sb_side_of(const double *v, size_t n, struct sb_side *s)
{
	struct sb_stats st;
	double var = 0;

	if (n == 0 || sb_stats_compute_var(v, n, &st, &var, NULL) < 0)
		return -1;
	s->n = n;
	s->mean = st.mean;
	s->var = n > 1 ? var : 0;
	return 0;
}

int sb_gap_check(const struct sb_side *good, const struct sb_side *bad, struct sb_gap *out)
{
	struct sb_vsweep g = { NULL, good->n, good->mean, good->var, NULL, -1 };
	struct sb_vsweep b = { NULL, bad->n, bad->mean, bad->var, NULL, -1 };
	struct sb_vquery q = { { &g, 1 }, { &b, 1 }, SB_VT_DIFF, 95, GAP_ALPHA, SB_DRIFT_NONE_INIT };
	struct sb_vresult v;

	if (good->n < 2 || bad->n < 2 || !(good->mean > 0) || !(bad->mean > 0))
		return -1;
	if (sb_verdict(&q, &v) != 0)
		return -1;
	out->change_pct = v.estimate;
	out->detectable_pct = v.detectable;
	out->p = v.p;
	out->differ = fabs(out->change_pct) > out->detectable_pct;
	return 0;
}

static int rule_ok(const struct sb_rule *r)
{
	return r->alpha > 0 && r->alpha < 0.5 && r->beta > 0 && r->beta < 0.5 && r->min_runs > 0 &&
	       r->max_runs >= r->min_runs;
}

/* The spread pooled over both ends' runs and the step's (each about its own mean): the verdict module's. */
static double pooled_sd(const struct sb_side *g, const struct sb_side *b, const struct sb_side *x)
{
	const struct sb_vsweep sw[3] = { { NULL, g->n, g->mean, g->var, NULL, -1 },
					 { NULL, b->n, b->mean, b->var, NULL, -1 },
					 { NULL, x->n, x->mean, x->var, NULL, -1 } };
	const struct sb_vside sides[3] = { { &sw[0], 1 }, { &sw[1], 1 }, { &sw[2], 1 } };
	const struct sb_drift none = SB_DRIFT_NONE_INIT;

	return sb_verdict_spread(sides, x->n > 0 ? 3 : 2, &none);
}

int sb_decide(const struct sb_side *good, const struct sb_side *bad, const struct sb_rule *rule,
	      const double *x, size_t k, struct sb_step *out)
{
	struct sb_side xs = { 0, NAN, 0 };
	double gap = bad->mean - good->mean, mid = (good->mean + bad->mean) / 2, sd;

	if (!rule_ok(rule) || good->n < 2 || bad->n < 2 || !(fabs(gap) > 0))
		return -1;
	if (k > 0 && sb_side_of(x, k, &xs) < 0)
		return -1;
	sd = pooled_sd(good, bad, &xs);
	out->k = k;
	out->mean = xs.mean;
	out->sd = sd;
	out->lo = log(rule->beta / (1 - rule->alpha));
	out->hi = log((1 - rule->beta) / rule->alpha);
	out->position = k > 0 ? (xs.mean - good->mean) / gap : NAN;
	if (!(sd > 0)) {	/* no spread anywhere: the nearer end, once min_runs are in */
		out->llr = k > 0 ? (xs.mean - mid) * gap * INFINITY : 0;
		if (k > 0 && xs.mean == mid)
			out->llr = 0;
	} else {
		out->llr = k > 0 ? gap / (sd * sd) * (double)k * (xs.mean - mid) : 0;
	}
	sb_rule_verdict(rule, k, out);
	return 0;
}

void sb_rule_verdict(const struct sb_rule *rule, size_t runs, struct sb_step *out)
{
	if (runs < rule->min_runs)
		out->v = SB_V_MORE;
	else if (out->llr >= out->hi)
		out->v = SB_V_BAD;
	else if (out->llr <= out->lo)
		out->v = SB_V_GOOD;
	else
		out->v = runs >= rule->max_runs ? SB_V_UNSURE : SB_V_MORE;
}
