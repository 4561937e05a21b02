/* The CI gate: one multiple-comparison procedure over every point and curve of a comparison, and the exit code. */
#include <math.h>
#include <stdlib.h>

#include "compare_priv.h"
#include "msg/exit.h"

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
 * The gate over the whole comparison: every point of every pair (and, with
 * SB_GATE_CURVES, every curve) is one hypothesis of one family, tested by
 * the chosen procedure at 1 - conf/100; then each pair's tallies. A point the
 * procedure rejects counts only when its own interval excludes 0 too (they
 * agree but for the t table's 3 decimals) and by the threshold or more.
 * Returns 0, or 3 when memory runs out.
 */
int sb_cmp_gate(struct ctx *c)
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
		rc = SB_EXIT_ENV;
		goto out;
	}
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t j = 0; j < pr->nrows; j++, k++) {
			p[k] = pr->rows[j].v == V_NA ? NAN : pr->rows[j].vd.p;
			w[k] = gate_level(c, 0);
			rej[k] = pr->rows[j].v != V_NA && pr->rows[j].vd.d.rel_significant;
		}
		for (size_t j = 0; j < pr->ncurves; j++, k++) {
			p[k] = o->gate == SB_GATE_CURVES ? pr->curves[j].vd.p : NAN;
			w[k] = gate_level(c, 1);
			rej[k] = 0;
		}
	}
	if (o->gate == SB_GATE_CURVES || o->gate == SB_GATE_HOLM)
		rc = sb_holm(p, w, m, alpha, rej, NULL) < 0 ? SB_EXIT_ENV : 0;
	else if (o->gate == SB_GATE_BH)
		rc = sb_bh(p, m, alpha, rej, NULL) < 0 ? SB_EXIT_ENV : 0;
	if (rc != 0)
		goto out;
	k = 0;
	for (int i = 0; i < c->nruns - 1; i++) {
		struct pair *pr = &c->pairs[i];

		pr->nregress = pr->nchange = 0;
		for (size_t j = 0; j < pr->nrows; j++, k++) {
			struct row *r = &pr->rows[j];

			r->gated = rej[k] && r->v != V_NA && r->vd.d.rel_significant;
			r->counts = r->gated && r->beyond;
			r->detectable = r->v == V_NA ? NAN : sb_verdict_detectable(&r->vd, gate_level(c, 0));
			pr->nchange += r->counts;
			pr->nregress += r->counts && r->v == V_SLOWER;
		}
		for (size_t j = 0; j < pr->ncurves; j++, k++) {
			struct curve_test *ct = &pr->curves[j];

			ct->gated = rej[k] && ct->v != V_SAME;
			ct->counts = ct->gated && fabs(ct->change) >= o->threshold;
			ct->detectable = o->gate != SB_GATE_CURVES ? NAN :
					 sb_verdict_detectable(&ct->vd, gate_level(c, 1));
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

int sb_cmp_failing(const struct ctx *c)
{
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		if (c->o->fail_on == SB_FAIL_REGRESSION && pr->nregress > 0)
			return SB_EXIT_FAIL;
		if (c->o->fail_on == SB_FAIL_CHANGE && pr->nchange > 0)
			return SB_EXIT_FAIL;
	}
	return SB_EXIT_OK;
}
