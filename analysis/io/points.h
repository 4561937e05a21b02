/* points.csv's reader: why each task count of a mode is measured. */
#ifndef SCALEBENCH_POINTS_H
#define SCALEBENCH_POINTS_H

#include <stddef.h>

#include "samples.h"

/* One row of points.csv (sb-plan writes it): why a task count of a mode is measured. */
struct sb_points_row {
	int mode;		/* SB_PROCESSES or SB_THREADS */
	long tasks;
	char origin[8];		/* seed, added or given */
	char reason[96];	/* "seed: NUMA node", "peak bracket (4 to 8)" ... */
};

/* Called for each row of points.csv in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_points_fn)(void *ctx, const struct sb_points_row *r);

/*
 * Read points.csv at path: the header mode,tasks,origin,reason, every row
 * checked (a known mode, a task count, origin seed|added|given). Returns 0;
 * 1 when there is no such file (runs before points.csv have none); 2 with a
 * message naming file and line for malformed input; 3 for other errors.
 */
int sb_points_read(const char *path, sb_points_fn fn, void *ctx, char *err, size_t errlen);

#endif
