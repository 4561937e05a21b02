/* Profile diffs: the symbols whose share changed between two profiles, and their table. */
#ifndef SCALEBENCH_PROFILE_DIFF_H
#define SCALEBENCH_PROFILE_DIFF_H

#include <stddef.h>
#include <stdio.h>

#include "profile.h"

enum sb_prof_fmt { SB_PROF_TEXT, SB_PROF_MARKDOWN, SB_PROF_CSV };

/* One symbol's share in both profiles, in percent (self, or with children). */
struct sb_prof_delta {
	const char *name, *dso;	/* point into the profiles */
	int kernel;
	double base, new, change;
};

/*
 * The union of both profiles' symbols whose share changed (at the printed
 * precision), largest change first; *n rows. NULL when memory runs out.
 */
struct sb_prof_delta *sb_prof_diff_rows(const struct sb_prof *b, const struct sb_prof *x, int children,
					size_t *n);

/*
 * The table of a diff's first limit rows; csv_prefix: the leading CSV fields
 * of each row ("" for none; its header names compare's), csv_header: print it.
 */
void sb_prof_print_diff(FILE *out, const struct sb_prof_delta *d, size_t n, size_t limit,
			enum sb_prof_fmt fmt, int children, const char *csv_prefix, int csv_header);

#endif
