/* The peak and efficiency of each run's modes and lkp's scalability of each run of a comparison, from curve/, into the model. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "msg/exit.h"
#include "compare_priv.h"

/* Run r's mode at point k as a peak row; 0, or SB_EXIT_ENV (memory). */
static int peak_of(const struct sb_run *r, size_t k, struct peak_row *row)
{
	struct sb_curve cv;
	const struct sb_curve_point *pk, *mx;

	if (sb_curve_of_run(r, r->pts[k].mode, &cv) != 0)
		return SB_EXIT_ENV;
	/* a mode with a point has a peak (curve.h) */
	pk = &cv.pt[cv.best];
	mx = &cv.pt[cv.n - 1];
	*row = (struct peak_row){ .run = r->name, .mode = cv.mode, .peak_mean = pk->mean,
				  .mean_n = mx->mean, .efficiency = sb_curve_efficiency(&cv),
				  .peak_tasks = pk->tasks, .lo_tasks = pk->tasks, .hi_tasks = pk->tasks,
				  .n_tasks = mx->tasks };
	if (cv.lo < cv.hi) {
		row->lo_tasks = cv.pt[cv.lo].tasks;
		row->hi_tasks = cv.pt[cv.hi].tasks;
	}
	sb_curve_free(&cv);
	return 0;
}

int sb_cmp_curves(struct ctx *c)
{
	size_t total = 0;

	for (int i = 0; i < c->nruns; i++)
		total += c->runs[i].npts;
	c->peaks = calloc(total + 1, sizeof(*c->peaks));
	c->scal = calloc((size_t)c->nruns + 1, sizeof(*c->scal));
	if (c->peaks == NULL || c->scal == NULL)
		return SB_EXIT_ENV;
	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];

		for (size_t k = 0; k < r->npts; k++) {
			if (k > 0 && strcmp(r->pts[k].mode, r->pts[k - 1].mode) == 0)
				continue;	/* each mode once, at its first point */
			if (peak_of(r, k, &c->peaks[c->npeaks]) != 0)
				return SB_EXIT_ENV;
			c->npeaks++;
		}
		c->scal[i].s = sb_lkp_scalability(r, &c->scal[i].n);
	}
	return 0;
}

void sb_cmp_curves_free(struct ctx *c)
{
	free(c->peaks);
	free(c->scal);
	c->peaks = NULL;
	c->scal = NULL;
}
