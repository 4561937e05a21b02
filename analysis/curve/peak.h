/* The honest peak of a curve: the best task count and the plateau of counts indistinguishable from it. */
#ifndef SCALEBENCH_PEAK_H
#define SCALEBENCH_PEAK_H

#include <stddef.h>

/* One measured count of a mode: n runs, the mean of their means and the variance of those means (n - 1). */
struct sb_peak_point {
	unsigned long tasks;
	size_t n;
	double mean, var;
};

/* Indexes into the caller's array: the best mean and the plateau lo..hi around it (lo <= best <= hi). */
struct sb_peak {
	size_t best, lo, hi;
};

/*
 * p[0..np-1] sorted by tasks, ascending. best is the largest mean (the
 * lowest count on a tie; points with n == 0 are not measured and never
 * best). The plateau grows from best to each side while the next point is
 * not significantly different from best at conf percent (sb_tdiff's test).
 * A point with fewer than 2 runs has no interval: it is never
 * indistinguishable, and a best with fewer than 2 runs has the plateau
 * best..best. Returns 0; -1 when no point is measured, the counts are not
 * rising, or conf is not a level sb_student_t knows.
 */
int sb_peak_find(const struct sb_peak_point *p, size_t np, double conf, struct sb_peak *out);

/*
 * Whether a and b are statistically indistinguishable at conf percent:
 * 1 when both have 2 runs or more and sb_tdiff finds no significant
 * difference, else 0.
 */
int sb_peak_same(const struct sb_peak_point *a, const struct sb_peak_point *b, double conf);

#endif
