/* Compare's curve tests: each mode's curve as one number a run (sb_curve_value), both sides judged by the verdict module. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "curve_value.h"
#include "exit.h"
#include "msg.h"

/*
 * One side's curve values (log, sb_curve_value with compare's rule) of the
 * rows [i, end) compared on run means, into g[0..runs-1]. Returns 0, -1 (a
 * non-positive run mean: no curve) or SB_EXIT_ENV (memory).
 */
static int side_curve(const struct pair *pr, size_t i, size_t end, size_t npts, int base, size_t runs,
		      double *g)
{
	const double **v = calloc(npts, sizeof(*v));
	size_t *n = calloc(npts, sizeof(*n)), m = 0, got;

	if (v == NULL || n == NULL) {
		free(v);
		free(n);
		return SB_EXIT_ENV;
	}
	for (size_t k = i; k < end; k++) {
		const struct row *r = &pr->rows[k];

		if (r->v == V_NA || !r->means)
			continue;
		v[m] = base ? r->bv->v : r->xv->v;
		n[m++] = base ? r->bv->n : r->xv->n;
	}
	got = sb_curve_value(v, n, npts, runs, SB_CURVE_EVERY, g);
	free(v);
	free(n);
	return got == runs ? 0 : -1;
}

/* The curve test of rows [i, end) into ct: the verdict module on both sides' curve values. 0, -1 (none), SB_EXIT_ENV. */
static int curve_test_of(const struct pair *pr, size_t i, size_t end, size_t npts, size_t n0, size_t n,
			 double conf, struct curve_test *ct)
{
	double *g = calloc(n0 + n, sizeof(*g));
	struct sb_vsweep b = { g, n0, 0, 0, NULL, -1 }, x = { g + n0, n, 0, 0, NULL, -1 };
	struct sb_vquery q = { { &b, 1 }, { &x, 1 }, SB_VT_LOG, conf, 0, SB_DRIFT_NONE_INIT };
	int rc;

	if (g == NULL)
		return SB_EXIT_ENV;
	rc = side_curve(pr, i, end, npts, 1, n0, g);
	if (rc == 0)
		rc = side_curve(pr, i, end, npts, 0, n, g + n0);
	if (rc == 0 && sb_verdict(&q, &ct->vd) != 0)
		rc = SB_EXIT_ENV;
	free(g);
	if (rc != 0)
		return rc;
	ct->npts = npts;
	ct->n0 = n0;
	ct->n = n;
	ct->change = ct->vd.estimate;
	ct->lo = ct->vd.lo;
	ct->hi = ct->vd.hi;
	ct->v = (enum verdict)ct->vd.word;
	return 0;
}

/*
 * The curve of each mode with 2 or more points compared on run means: the
 * first n0 (n) run means of every point a side, n0 (n) the fewest any point
 * has. Returns 0, or 3 when memory runs out.
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
