/* The curve as one number a run: the mean log of a run's point means over a mode's points (compare, sb-history and sb-bisect). */
#ifndef SCALEBENCH_CURVE_VALUE_H
#define SCALEBENCH_CURVE_VALUE_H

#include <stddef.h>

/*
 * What a non-positive point mean does. The three callers had three rules and
 * keep them for now (byte-identical output); issue 48 wants one later: a run
 * with a non-positive point mean has no curve value.
 */
enum sb_curve_rule {
	SB_CURVE_ANY,	/* sb-bisect: no check (the log of a non-positive mean is not a number) */
	SB_CURVE_USED,	/* sb-history: a non-positive value among the runs used: no curve value */
	SB_CURVE_EVERY,	/* compare: a non-positive value among any run of the points: no curve value */
};

/*
 * For each run index k < runs, the mean over the npts points of
 * log(v[i][k]) into out[k]: log ops/s, whose exp is the geometric mean of
 * run k's point means. n[i] is point i's count of values (runs is at most
 * the smallest). Returns runs, or 0 when npts or runs is 0 or the rule finds
 * a non-positive value (out is then not to be read).
 */
size_t sb_curve_value(const double *const *v, const size_t *n, size_t npts, size_t runs,
		      enum sb_curve_rule rule, double *out);

#endif
