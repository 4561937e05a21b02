/* A mode's curve of one run: its points in task order, their values, peak and plateau, linear(N), scalability. */
#ifndef SCALEBENCH_CURVE_H
#define SCALEBENCH_CURVE_H

#include <stddef.h>

#include "io/results.h"

/* The plateau is summary.csv's: at 95% whatever a report's --conf says, so that every report agrees. */
#define SB_CURVE_CONF 95.0

/* One task count of a mode. */
struct sb_curve_point {
	long tasks;
	const struct sb_point *p;	/* the loaded point; NULL in a curve read from summary.csv */
	double mean;		/* the run means' mean, or the samples' (one run) */
	double ci;		/* SB_CURVE_CONF half-width across run means; NAN below SB_INDEPENDENT_RUNS */
	double idle;		/* mean idle_all_pct; NAN when unknown */
	size_t nruns;
	int peak;		/* SB_PEAK_NONE, _PLATEAU or _BEST */
};

struct sb_curve {
	const char *mode;
	struct sb_curve_point *pt;	/* tasks ascending */
	size_t n;
	int has_peak;		/* best, lo, hi are set (a mode with a point has one) */
	size_t best, lo, hi;	/* indexes into pt: the best count and its plateau */
};

/*
 * The curve of mode in r (its points, tasks ascending), the peak and plateau
 * found by sb_peak_find at SB_CURVE_CONF. An absent mode gives n 0. Returns
 * 0, or -1 when memory runs out. sb_curve_free frees it.
 */
int sb_curve_of_run(const struct sb_run *r, const char *mode, struct sb_curve *cv);

/*
 * The curve of mode m from summary.csv's rows: the points that have a mean,
 * the peak from its _peak columns, or for a file without them sb_peak_find on
 * the written means, standard deviations and runs (*from_columns 0 then).
 * Returns 0, or -1 when memory runs out.
 */
int sb_curve_of_summary(const struct sb_summary_row *rows, size_t n, int m, struct sb_curve *cv,
			int *from_columns);

void sb_curve_free(struct sb_curve *cv);

/* The point at tasks, or NULL. */
const struct sb_curve_point *sb_curve_at(const struct sb_curve *cv, long tasks);

/*
 * linear(N): N times the better mode's mean at 1 task (will-it-scale's and
 * lkp-tests' rule, written here only). best1 is sb_best1's. NAN without a 1-task point.
 */
double sb_best1(const struct sb_run *r);
double sb_linear(double best1, long tasks);

/* The mode's efficiency at its largest count N: mean(N) / (N x its own 1-task mean); NAN without. */
double sb_curve_efficiency(const struct sb_curve *cv);

/*
 * lkp-tests' will-it-scale.scalability: processes(N) / linear(N) at the largest
 * task count N of the run (*n_out). NAN without a processes point at N, a
 * 1-task point, or with N = 1.
 */
double sb_lkp_scalability(const struct sb_run *r, long *n_out);

#endif
