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

#endif
