/* The curve as one number a run: the mean log of a run's point means over a mode's points (compare, sb-history and sb-bisect). */
#ifndef SCALEBENCH_CURVE_VALUE_H
#define SCALEBENCH_CURVE_VALUE_H

#include <stddef.h>

/*
 * One rule for every caller: run k has a curve value only when its mean at
 * every point is positive and finite; a run with a mean of 0, below 0 or not
 * finite at some point has none (its log is not a number), and the other
 * runs keep theirs. For each run index k < runs, out[k] is the mean over the
 * npts points of log(v[i][k]) (log ops/s, whose exp is the geometric mean of
 * run k's point means), or NAN when run k has no value. Every point holds at
 * least runs values. *bad (when bad is not NULL) is the index of the first
 * point holding a run without a value, or npts when every run has one.
 * Returns how many runs have a value (0 when npts or runs is 0).
 */
size_t sb_curve_value(const double *const *v, size_t npts, size_t runs, double *out, size_t *bad);

/* The runs with a value moved to the front of out[0..runs-1], in order; returns how many. */
size_t sb_curve_value_pack(double *out, size_t runs);

#endif
