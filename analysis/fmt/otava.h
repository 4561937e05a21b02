/* A testcase's history as Apache Otava's CSV: a time column, commit/kernel/testbed attributes, a metric column each. */
#ifndef SCALEBENCH_OTAVA_H
#define SCALEBENCH_OTAVA_H

#include <stddef.h>
#include <stdio.h>

#include "history/history.h"

/*
 * h (loaded and ordered; one testcase x params x testbed, else exit 2 naming
 * them) as CSV: time (the sweep's start), commit, kernel (release), testbed,
 * then each mode's curve (the geometric mean over the counts every sweep has)
 * and peak (its best count's mean); all_points: every point's mean too
 * (<mode>_<tasks>). A sweep without a value has an empty field. Returns 0; 2
 * or 3 with a message in err.
 */
int sb_otava_write(FILE *out, const struct sb_hist *h, int all_points, char *err, size_t errlen);

/* One metric column: a series' mean a sweep (a curve: tasks 0), or mode peak_mode's peak (series NULL). */
struct sb_otava_col {
	const char *mode;
	long tasks;
	const struct sb_hist_series *series;
	int peak_mode;
};

/* The export built whole (history/otava_table.c: sb_otava_write): rows x cols values, NAN for none. */
struct sb_otava_table {
	struct sb_otava_col *cols;
	size_t ncols, nrows;
	const struct sb_hist_sweep **rows;	/* the sweeps in the history's order */
	double *v;				/* nrows x ncols */
};

/* fmt/otava.c: the table as Otava's CSV (its header, then a row a sweep). */
void sb_otava_print(FILE *out, const struct sb_otava_table *t);

#endif
