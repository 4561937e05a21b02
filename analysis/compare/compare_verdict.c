/* The comparison's verdict printed from the model: the sentence, the procedure that holds its error, the detectable change, the notes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"

const char sb_cmp_correlated_note[] =
	"per-second samples are compared (--force) where a side has a single run of a point; "
	"samples of one run are correlated, so those +/- figures are not 95% confidence "
	"intervals: they are too narrow and differences look more certain than they are; "
	"measure both sides with runtest.sh's default runs (3 or more a point) to compare "
	"the means of independent runs";

/* Said under every text and markdown report of single sweeps (no --vs). */
const char sb_cmp_drift_note[] =
	"each side is one sweep: its interval holds the spread of the runs within that sweep, "
	"not the drift of the machine between two sweeps (two sweeps of one kernel one after "
	"the other can differ by more); for a gate, alternate several sweeps of each side and "
	"pool them with --vs (docs/COMPARE.md)";

/* The procedure as the verdict names it, e.g. "weighted Holm over 6 points and 2 curves". */
static void print_procedure(const struct ctx *c)
{
	const struct sb_cmp_opts *o = c->o;
	size_t np = c->gate_points, nc = c->gate_curves;

	switch (o->gate) {
	case SB_GATE_POINT:
		fprintf(c->out, "%g%% confidence at each point alone, no control over the whole "
			"comparison (--gate point)", o->conf);
		return;
	case SB_GATE_BH:
		fprintf(c->out, "false discovery rate %g%% over the whole comparison: "
			"Benjamini-Hochberg over %zu point%s", 100 - o->conf, np, np == 1 ? "" : "s");
		return;
	default:
		fprintf(c->out, "%g%% confidence for the whole comparison: %s over %zu point%s",
			o->conf, nc ? "weighted Holm" : "Holm", np, np == 1 ? "" : "s");
		if (nc)
			fprintf(c->out, " and %zu curve%s", nc, nc == 1 ? "" : "s");
	}
}

/* "+/-1.20%" or "+/-1.20%..4.10%": the smallest and largest detectable change of points (curves). */
static void print_detectable(const struct ctx *c, int md)
{
	double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
	const char *pm = md ? "±" : "+/-";

	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			double d = pr->rows[k].detectable;

			if (!isnan(d)) {
				lo[0] = fmin(lo[0], d);
				hi[0] = fmax(hi[0], d);
			}
		}
		for (size_t k = 0; k < pr->ncurves; k++) {
			double d = pr->curves[k].detectable;

			if (!isnan(d)) {
				lo[1] = fmin(lo[1], d);
				hi[1] = fmax(hi[1], d);
			}
		}
	}
	if (isinf(lo[0]))
		return;
	fprintf(c->out, "%sDetectable (found 80%% of the time at the gate's level; smaller changes may "
		"pass unseen): %s%.2f%%", md ? "" : "  ", pm, lo[0]);
	if (hi[0] - lo[0] >= 0.005)	/* as printed */
		fprintf(c->out, " to %s%.2f%%", pm, hi[0]);
	fputs(" at a point", c->out);
	if (!isinf(lo[1])) {
		fprintf(c->out, ", %s%.2f%%", pm, lo[1]);
		if (hi[1] - lo[1] >= 0.005)
			fprintf(c->out, " to %s%.2f%%", pm, hi[1]);
		fputs(" over a whole curve (geometric mean)", c->out);
	}
	fputs(md ? ".\n\n" : ".\n", c->out);
}

/* The verdict sentence, e.g. "REGRESSION: 1 of 8 points ..." (without markup). */
/* What fails, after the verdict: the curves first, then the points, at most 8 named; how many. */
static size_t print_failing(const struct ctx *c, int md, int change)
{
	size_t listed = 0;

	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->ncurves; k++) {
			const struct curve_test *ct = &pr->curves[k];

			if (!ct->counts || (ct->v != V_SLOWER && !change))
				continue;
			if (listed++ >= 8)
				continue;
			fprintf(c->out, "%s %s %s curve %+.2f%% (%+.2f%% to %+.2f%%)",
				listed == 1 ? ":" : ",", pr->x->name, ct->mode, ct->change, ct->lo, ct->hi);
		}
	}
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			const struct row *r = &pr->rows[k];

			if (!r->counts || (r->v != V_SLOWER && !change))
				continue;
			if (listed++ >= 8)
				continue;
			fprintf(c->out, "%s %s %s at %ld task%s %+.2f%% %s %.2f%%",
				listed == 1 ? ":" : ",", pr->x->name, r->b->mode, r->b->tasks,
				r->b->tasks == 1 ? "" : "s", r->vd.d.rel_pct, md ? "±" : "+/-",
				r->vd.d.rel_halfwidth_pct);
		}
	}
	return listed;
}

void sb_cmp_print_verdict(const struct ctx *c, int md)
{
	const struct sb_cmp_opts *o = c->o;
	size_t reg = 0, chg = 0, creg = 0, cchg = 0, faster = 0, slower = 0, same = 0, na = 0;
	size_t total = 0, listed;
	int bad = c->failing != 0, change = o->fail_on == SB_FAIL_CHANGE;

	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->nrows; k++) {
			reg += pr->rows[k].counts && pr->rows[k].v == V_SLOWER;
			chg += pr->rows[k].counts;
		}
		for (size_t k = 0; k < pr->ncurves; k++) {
			creg += pr->curves[k].counts && pr->curves[k].v == V_SLOWER;
			cchg += pr->curves[k].counts;
		}
		faster += pr->nfaster;
		slower += pr->nslower;
		same += pr->nsame;
		na += pr->nna;
		total += pr->nrows;
	}
	if (md)
		fprintf(c->out, "### %s: compare %s\n\n",
			bad ? (change ? "CHANGE" : "REGRESSION") : "PASS", c->runs[0].test);
	else
		fprintf(c->out, "Verdict: %s: ",
			bad ? (change ? "CHANGE" : "REGRESSION") :
			reg + creg ? "regression, not failing (--fail-on never)" : "no regression");
	if (md)
		fprintf(c->out, "%s: ", bad ? (change ? "**Change**" : "**Regression**") : "No regression");
	fprintf(c->out, "%zu of %zu point%s significantly slower by %g%% or more", reg, total,
		total == 1 ? "" : "s", o->threshold);
	if (change)
		fprintf(c->out, ", %zu faster by %g%% or more", chg - reg, o->threshold);
	if (c->gate_curves && c->o->point == NULL) {
		fprintf(c->out, "; %zu of %zu curve%s slower", creg, c->gate_curves,
			c->gate_curves == 1 ? "" : "s");
		if (change)
			fprintf(c->out, ", %zu faster", cchg - creg);
	}
	fputs(" (", c->out);
	print_procedure(c);
	fprintf(c->out, "; each point's own %g%% interval: %zu faster, %zu slower, %zu no difference proven",
		o->conf, faster, slower, same);
	if (na)
		fprintf(c->out, ", %zu not comparable", na);
	fputs(")", c->out);
	listed = print_failing(c, md, change);
	if (listed > 8)
		fprintf(c->out, " and %zu more", listed - 8);
	fputs(md ? ".\n\n" : ".\n", c->out);
	print_detectable(c, md);
}

