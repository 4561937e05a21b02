/* summary.csv: its reader and writer, from one column table. */
#ifndef SCALEBENCH_SUMMARY_H
#define SCALEBENCH_SUMMARY_H

#include <stddef.h>

#include <stdio.h>

#include "format/summary.h"
#include "samples.h"

/* `<mode>_peak` of summary.csv: the count with the highest mean, or another count of its plateau. */
enum { SB_PEAK_UNKNOWN = -1, SB_PEAK_NONE = 0, SB_PEAK_PLATEAU = 1, SB_PEAK_BEST = 2 };

/*
 * One mode's values in a row, its fields from summary.csv's table (format/summary.h):
 * mean, idle, stddev, ci, min, max, precision (NAN when empty); n (the values: the runs,
 * or a single run's samples); runs (independent runs; from _n and _ci in older files);
 * peak (SB_PEAK_*: UNKNOWN in a file without the column).
 */
struct sb_summary_mode {
#define SB_SUMMARY_X_MEMBER(member, kind) SB_SUMMARY_TYPE_##kind member;
	SB_SUMMARY_MODE_FIELDS(SB_SUMMARY_X_MEMBER)
#undef SB_SUMMARY_X_MEMBER
};

/* One task count's row of summary.csv; NAN (n, runs 0) where a field is empty. */
struct sb_summary_row {
	long tasks;
	double linear;
	struct sb_summary_mode mode[SB_NMODES];
};

/*
 * Read summary.csv at path: will-it-scale's header first, every row checked
 * (fields, numbers, tasks rising; the 0 row skipped), the file whole (it ends
 * with a newline). *rows is malloc'd. Returns 0, 2 (file:line) or 3.
 */
int sb_summary_read(const char *path, struct sb_summary_row **rows, size_t *nrows, char *err,
		    size_t errlen);

/*
 * rows[0..n-1] as summary.csv: the header, will-it-scale's 0 row, then the rows. A mode
 * is absent from a row when its mean is NAN (its fields empty). The caller checks ferror.
 */
void sb_summary_write(FILE *out, const struct sb_summary_row *rows, size_t n);

#endif
