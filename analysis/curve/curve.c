/* A mode's curve of one run (struct sb_curve): points, peak and plateau, linear(N), efficiency, lkp's scalability. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"
#include "peak.h"
#include "stat/stats.h"

/* The peak and plateau of cv from pp[0..cv->n-1] (cv's points as sb_peak_find sees them). */
static void mark_peak(struct sb_curve *cv, const struct sb_peak_point *pp)
{
	struct sb_peak pk;

	if (cv->n == 0 || sb_peak_find(pp, cv->n, SB_CURVE_CONF, &pk) != 0)
		return;
	cv->has_peak = 1;
	cv->best = pk.best;
	cv->lo = pk.lo;
	cv->hi = pk.hi;
	for (size_t k = pk.lo; k <= pk.hi; k++)
		cv->pt[k].peak = k == pk.best ? SB_PEAK_BEST : SB_PEAK_PLATEAU;
}

int sb_curve_of_run(const struct sb_run *r, const char *mode, struct sb_curve *cv)
{
	struct sb_peak_point *pp;
	size_t n = 0;

	memset(cv, 0, sizeof(*cv));
	cv->mode = mode;
	for (size_t i = 0; i < r->npts; i++)
		n += strcmp(r->pts[i].mode, mode) == 0;
	cv->pt = calloc(n ? n : 1, sizeof(*cv->pt));
	pp = calloc(n ? n : 1, sizeof(*pp));
	if (cv->pt == NULL || pp == NULL) {
		free(pp);
		sb_curve_free(cv);
		return -1;
	}
	for (size_t i = 0; i < r->npts; i++) {
		const struct sb_point *p = &r->pts[i];
		const struct sb_values *v = sb_point_values(p);
		struct sb_curve_point *c = &cv->pt[cv->n];

		if (strcmp(p->mode, mode) != 0)
			continue;
		*c = (struct sb_curve_point){ .tasks = p->tasks, .p = p, .mean = v->st.mean,
					      .idle = p->idle, .nruns = p->nruns, .peak = SB_PEAK_NONE };
		/* an interval only across independent runs: one run's samples are correlated */
		c->ci = p->means.n > 0 ? sb_ci_halfwidth(&p->means.st, SB_CURVE_CONF) : NAN;
		/* a point of one run has no interval: n 1, never on another's plateau */
		pp[cv->n++] = (struct sb_peak_point){ .tasks = (unsigned long)p->tasks,
						      .n = p->means.n > 0 ? p->means.n : 1,
						      .mean = v->st.mean, .var = p->means.var };
	}
	mark_peak(cv, pp);
	free(pp);
	return 0;
}

/* The peak from summary.csv's _peak columns: 0, or -1 when the file has none for mode m. */
static int peak_columns(struct sb_curve *cv)
{
	int seen = 0;

	if (cv->n == 0 || cv->pt[0].peak == SB_PEAK_UNKNOWN)
		return -1;
	for (size_t i = 0; i < cv->n; i++) {
		if (cv->pt[i].peak == SB_PEAK_NONE)
			continue;
		if (!seen)
			cv->lo = i;
		cv->hi = i;
		seen = 1;
		if (cv->pt[i].peak == SB_PEAK_BEST) {
			cv->best = i;
			cv->has_peak = 1;	/* a plateau without its best count is no peak */
		}
	}
	return 0;
}

int sb_curve_of_summary(const struct sb_summary_row *rows, size_t n, int m, struct sb_curve *cv,
			int *from_columns)
{
	struct sb_peak_point *pp;

	memset(cv, 0, sizeof(*cv));
	cv->mode = sb_mode_name[m];
	cv->pt = calloc(n ? n : 1, sizeof(*cv->pt));
	pp = calloc(n ? n : 1, sizeof(*pp));
	if (cv->pt == NULL || pp == NULL) {
		free(pp);
		sb_curve_free(cv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		long runs = rows[i].mode[m].runs;

		if (isnan(rows[i].mode[m].mean))
			continue;
		cv->pt[cv->n] = (struct sb_curve_point){ .tasks = rows[i].tasks,
							 .mean = rows[i].mode[m].mean,
							 .ci = rows[i].mode[m].ci,
							 .idle = rows[i].mode[m].idle,
							 .nruns = runs > 0 ? (size_t)runs : 0,
							 .peak = rows[i].mode[m].peak };
		pp[cv->n++] = (struct sb_peak_point){ .tasks = (unsigned long)rows[i].tasks,
						      .n = runs >= SB_INDEPENDENT_RUNS ? (size_t)runs : 1,
						      .mean = rows[i].mode[m].mean,
						      .var = rows[i].mode[m].stddev * rows[i].mode[m].stddev };
	}
	*from_columns = n > 0 && rows[0].mode[m].peak != SB_PEAK_UNKNOWN;
	if (*from_columns)
		peak_columns(cv);
	else
		mark_peak(cv, pp);
	free(pp);
	return 0;
}

void sb_curve_free(struct sb_curve *cv)
{
	free(cv->pt);
	memset(cv, 0, sizeof(*cv));
}

const struct sb_curve_point *sb_curve_at(const struct sb_curve *cv, long tasks)
{
	for (size_t i = 0; i < cv->n; i++)
		if (cv->pt[i].tasks == tasks)
			return &cv->pt[i];
	return NULL;
}

double sb_best1(const struct sb_run *r)
{
	double best1 = NAN;

	for (int m = 0; m < SB_NMODES; m++) {
		const struct sb_point *p = sb_run_find(r, sb_mode_name[m], 1);

		if (p && (isnan(best1) || sb_point_values(p)->st.mean > best1))
			best1 = sb_point_values(p)->st.mean;
	}
	return best1;
}

double sb_linear(double best1, long tasks)
{
	return isnan(best1) ? NAN : best1 * (double)tasks;
}

double sb_curve_efficiency(const struct sb_curve *cv)
{
	const struct sb_curve_point *one = sb_curve_at(cv, 1);

	if (cv->n == 0 || one == NULL || !(one->mean > 0))
		return NAN;
	return cv->pt[cv->n - 1].mean / ((double)cv->pt[cv->n - 1].tasks * one->mean);
}

double sb_lkp_scalability(const struct sb_run *r, long *n_out)
{
	const struct sb_point *p;
	double best1 = sb_best1(r);
	long n = 0;

	for (size_t i = 0; i < r->npts; i++)
		if (r->pts[i].tasks > n)
			n = r->pts[i].tasks;
	*n_out = n;
	p = sb_run_find(r, "processes", n);
	if (p == NULL || n <= 1 || !(best1 > 0))
		return NAN;
	return sb_point_values(p)->st.mean / sb_linear(best1, n);
}
