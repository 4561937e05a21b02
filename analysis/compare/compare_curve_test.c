/* Compare's curve tests: each mode's curve as one number a run (sb_curve_value), both sides judged by the verdict module. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "curve/curve_value.h"
#include "msg/exit.h"
#include "msg/msg.h"

/* Into pr->curve_note: the mode's curve of side base (1) or new (0) leaves out left of its runs; r: the first point holding one. */
static void note_left_out(struct pair *pr, const char *mode, int base, size_t left, size_t runs, const struct row *r)
{
	size_t len = strlen(pr->curve_note);
	const struct sb_run *run = base ? pr->base : pr->x;
	const struct sb_point *p = base ? r->b : r->x;

	if (len < sizeof(pr->curve_note) - 400)
		snprintf(pr->curve_note + len, sizeof(pr->curve_note) - len,
			 "%sthe %s curve of %s leaves out %zu of its %zu runs: a run's mean at %s:%ld is not "
			 "positive (0, below 0 or not finite), so that run has no curve value", len ? "; " : "",
			 mode, run->name, left, runs, p->mode, p->tasks);
}

/*
 * One side's curve values (log, sb_curve_value) of the rows [i, end)
 * compared on run means: those of the runs that have one, packed into
 * g[0..*got-1]; a run left out is named in pr's curve note. Returns 0 or
 * SB_EXIT_ENV (memory).
 */
static int side_curve(struct pair *pr, size_t i, size_t end, size_t npts, int base, size_t runs,
		      double *g, size_t *got)
{
	const double **v = calloc(npts, sizeof(*v));
	const struct row **rw = calloc(npts, sizeof(*rw));
	size_t m = 0, bad;

	if (v == NULL || rw == NULL) {
		free(v);
		free(rw);
		return SB_EXIT_ENV;
	}
	for (size_t k = i; k < end; k++) {
		const struct row *r = &pr->rows[k];

		if (r->v == V_NA || !r->means)
			continue;
		rw[m] = r;
		v[m++] = base ? r->bv->v : r->xv->v;
	}
	*got = sb_curve_value(v, npts, runs, g, &bad);
	if (bad < npts)
		note_left_out(pr, rw[bad]->b->mode, base, runs - *got, runs, rw[bad]);
	sb_curve_value_pack(g, runs);
	free(v);
	free(rw);
	return 0;
}

/*
 * The curve test of rows [i, end) into ct: the verdict module on both sides'
 * curve values, of the runs that have one. 0, -1 (none: a side with fewer
 * than 2 such runs), SB_EXIT_ENV.
 */
static int curve_test_of(struct pair *pr, size_t i, size_t end, size_t npts, size_t n0, size_t n,
			 double conf, struct curve_test *ct)
{
	double *g = calloc(n0 + n, sizeof(*g));
	size_t got0 = 0, got = 0;
	struct sb_vsweep b = { g, 0, 0, 0, NULL, -1 }, x = { NULL, 0, 0, 0, NULL, -1 };
	struct sb_vquery q = { { &b, 1 }, { &x, 1 }, SB_VT_LOG, conf, 0, SB_DRIFT_NONE_INIT };
	int rc;

	if (g == NULL)
		return SB_EXIT_ENV;
	rc = side_curve(pr, i, end, npts, 1, n0, g, &got0);
	if (rc == 0)
		rc = side_curve(pr, i, end, npts, 0, n, g + n0, &got);
	if (rc == 0 && (got0 < 2 || got < 2))
		rc = -1;
	b.n = got0;
	x.v = g + n0;
	x.n = got;
	if (rc == 0 && sb_verdict(&q, &ct->vd) != 0)
		rc = SB_EXIT_ENV;
	free(g);
	if (rc != 0)
		return rc;
	ct->npts = npts;
	ct->n0 = got0;
	ct->n = got;
	ct->change = ct->vd.estimate;
	ct->lo = ct->vd.lo;
	ct->hi = ct->vd.hi;
	ct->v = (enum verdict)ct->vd.word;
	return 0;
}

/*
 * The curve of each mode with 2 or more points compared on run means: the
 * first n0 (n) run means of every point a side, n0 (n) the fewest any point
 * has, of which the runs with a curve value count (pr->curve_note names the
 * others). Returns 0, or 3 when memory runs out.
 */
int sb_cmp_curve_tests(struct pair *pr, const struct sb_cmp_opts *o)
{
	pr->curves = calloc(pr->nrows + 1, sizeof(*pr->curves));
	if (pr->curves == NULL)
		return SB_EXIT_ENV;
	for (size_t i = 0; i < pr->nrows;) {
		const char *mode = pr->rows[i].b->mode;
		size_t end = i, npts = 0, n0 = SIZE_MAX, n = SIZE_MAX;

		while (end < pr->nrows && strcmp(pr->rows[end].b->mode, mode) == 0)
			end++;
		for (size_t k = i; k < end; k++) {
			const struct row *r = &pr->rows[k];

			if (r->v == V_NA || !r->means)
				continue;
			npts++;
			n0 = r->bv->n < n0 ? r->bv->n : n0;
			n = r->xv->n < n ? r->xv->n : n;
		}
		if (npts >= 2 && n0 >= 2 && n >= 2) {
			int rc = curve_test_of(pr, i, end, npts, n0, n, o->conf, &pr->curves[pr->ncurves]);

			if (rc == SB_EXIT_ENV)
				return rc;
			if (rc == 0)
				pr->curves[pr->ncurves++].mode = mode;
		}
		i = end;
	}
	return 0;
}
