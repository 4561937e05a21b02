/* What a bisect measures: a point MODE:TASKS, a mode's peak count, or a mode's curve; its values in a run. */
#ifndef SCALEBENCH_BISECT_POINT_H
#define SCALEBENCH_BISECT_POINT_H

#include <stddef.h>

#include "io/results.h"

enum sb_target_kind { SB_T_POINT, SB_T_PEAK, SB_T_CURVE };

struct sb_target {
	enum sb_target_kind kind;
	char mode[32];		/* "processes", "threads" (peak without a mode: the good end's first) */
	long tasks;		/* SB_T_POINT, and SB_T_PEAK once resolved; 0 for a curve */
};

/* Parse MODE:TASKS, peak, peak:MODE or curve:MODE. Returns 0, or 2 with a message in err. */
int sb_target_parse(const char *s, struct sb_target *t, char *err, size_t errlen);

/* A peak's count from the good end's run (its best mean); 0, or 2 with a message. */
int sb_target_resolve(struct sb_target *t, const struct sb_run *good, char *err, size_t errlen);

/* "processes:4" or "curve:threads", into buf. */
const char *sb_target_str(const struct sb_target *t, char *buf, size_t len);

/*
 * The target's independent values in run r, malloc'd into *v: the point's run
 * means (sb_point_values, runs only), or for a curve one value a run index:
 * the geometric mean over the mode's counts of that run's means (as compare's
 * curve). A run with no curve value (its mean at some count is 0, below 0 or
 * not finite: curve_value.h) is a failed measurement, never a number: it is
 * left out and err names the point (a note to say; err is "" otherwise).
 * Returns 0; 1 with a message when no run has a curve value; 2 with a
 * message when r lacks the point or has fewer than SB_INDEPENDENT_RUNS runs
 * of it; 3 when memory runs out.
 */
int sb_target_values(const struct sb_target *t, const struct sb_run *r, double **v, size_t *n,
		     char *err, size_t errlen);

#endif
