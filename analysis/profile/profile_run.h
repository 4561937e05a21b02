/* The profiled points of a run directory (runtest.sh --profile) and each one's throughput verdict. */
#ifndef SCALEBENCH_PROFILE_RUN_H
#define SCALEBENCH_PROFILE_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "profile.h"
#include "profile_diff.h"
#include "profile_drift.h"
#include "io/results.h"
#include "stat/drift.h"

/* The confidence level of a point's verdict, as sb-compare's default. */
#define SB_PROF_CONF 95.0

/* A point of a sweep: profile/<mode>-<tasks>/ in its run directory. */
struct sb_prof_point {
	char mode[32];
	long tasks;
};

/* qsort's order of points: by mode (processes first), then tasks. */
int sb_prof_point_cmp(const void *a, const void *b);

/* The points of run directory dir with a profile (its top.csv), sorted; *n of them, NULL: none. */
struct sb_prof_point *sb_prof_points_of_run(const char *dir, size_t *n);

/*
 * The throughput verdict of point pt between runs b and x, as sb-compare
 * gives it, a sweep a side with drift's figure in its variance
 * (SB_DRIFT_NONE: the runs alone): word ("faster", "slower", "no difference
 * proven", "n/a: ..."), the change and its half-width in percent (NAN
 * without one), *slower.
 */
void sb_prof_verdict(const struct sb_run *b, const struct sb_run *x, const struct sb_prof_point *pt,
		     const struct sb_drift *drift, char *word, size_t wlen, double *pct, double *half, int *slower);

/* "MODE:TASKS" into *pt; 0, or -1 when it is not one. */
int sb_prof_point_parse(const char *s, struct sb_prof_point *pt);

/*
 * The profiles of the points profiled in both runs (only *want, when not
 * NULL), of the testcase's tasks (test-top.csv) or the machine's (top.csv):
 * (*profs)[2 i] base's, (*profs)[2 i + 1] new's, of point (*common)[i].
 * Every one is read and checked before a report's first line. Returns their
 * count; none, or a bad profile: sb_die with its message.
 */
size_t sb_prof_load_common(const struct sb_run *rb, const struct sb_run *rx, const struct sb_prof_point *want,
			   int testcase, struct sb_prof **profs, struct sb_prof_point **common);

/*
 * One point's part of sb-profile compare's report: its throughput verdict (drift: sb_prof_verdict's),
 * then the diff of profs[0] (base) and profs[1] (new), as sb_prof_print_diff
 * (first: the CSV header too). Returns 1 when the point is slower, else 0.
 */
int sb_prof_report_point(FILE *out, const struct sb_run *rb, const struct sb_run *rx,
			 const struct sb_prof_point *pt, const struct sb_drift *drift, const struct sb_prof *profs,
			 enum sb_prof_fmt fmt, size_t limit, int children, int first);

/*
 * sb-profile compare's whole report: its header, each of the shown points
 * (sb_prof_report_point, with pd's figure for it; each pair of profs freed
 * after its point), then the Note naming the drift (text and markdown).
 * Returns 1 when a point is slower, else 0.
 */
int sb_prof_compare_report(FILE *out, const struct sb_run *rb, const struct sb_run *rx,
			   const struct sb_prof_point *common, struct sb_prof *profs, size_t shown,
			   struct sb_prof_drift *pd, enum sb_prof_fmt fmt, size_t limit, int children, int testcase);

#endif
