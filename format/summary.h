/* summary.csv's columns, declared once: sb-summary writes them, every reader finds them by name (analysis/io/summary.c). */
#ifndef SCALEBENCH_FORMAT_SUMMARY_H
#define SCALEBENCH_FORMAT_SUMMARY_H

/*
 * X(member, kind): one mode's values in a row of summary.csv, the fields of
 * struct sb_summary_mode (analysis/io/summary.h) in that order. A kind is how
 * the value is held, written and read:
 *   MEAN   double, %.6f; will-it-scale's first row has 0; empty: the mode was not measured
 *   IDLE   double, % idle, %.6f; empty when unknown; will-it-scale's first row has 100
 *   STAT   double, %.6f; empty when unknown (NAN)
 *   COUNT  long, a whole number; empty: 0
 *   PEAK   int, SB_PEAK_* (2 best, 1 plateau, empty: neither)
 */
#define SB_SUMMARY_MODE_FIELDS(X) \
	X(mean, MEAN) X(idle, IDLE) X(stddev, STAT) X(ci, STAT) X(min, STAT) X(max, STAT) \
	X(precision, STAT) X(n, COUNT) X(runs, COUNT) X(peak, PEAK)

#define SB_SUMMARY_TYPE_MEAN double
#define SB_SUMMARY_TYPE_IDLE double
#define SB_SUMMARY_TYPE_STAT double
#define SB_SUMMARY_TYPE_COUNT long
#define SB_SUMMARY_TYPE_PEAK int

/*
 * X(mode, member): the columns in file order. mode ROW is a column of the row
 * (tasks, linear, lkp_linear), named member; PROCESSES or THREADS a column of a
 * mode's member, named the mode then "_member" ("threads_ci"; the mean is the
 * mode's name alone). Will-it-scale's six come first (lkp-tests and plot.py read
 * them), lkp_linear last (lkp-tests reads linear from the last field; 0 there means
 * "unknown" to it). Adding a column: a member above, its column here (before
 * lkp_linear), and the line of sb-summary that computes it (analysis/cmd_summary.c).
 */
#define SB_SUMMARY_COLUMNS(X) \
	X(ROW, tasks) X(PROCESSES, mean) X(PROCESSES, idle) X(THREADS, mean) X(THREADS, idle) \
	X(ROW, linear) \
	X(PROCESSES, stddev) X(PROCESSES, ci) X(PROCESSES, min) X(PROCESSES, max) X(PROCESSES, n) \
	X(THREADS, stddev) X(THREADS, ci) X(THREADS, min) X(THREADS, max) X(THREADS, n) \
	X(PROCESSES, runs) X(PROCESSES, precision) X(THREADS, runs) X(THREADS, precision) \
	X(PROCESSES, peak) X(THREADS, peak) \
	X(ROW, lkp_linear)

/* will-it-scale's six: a file starts with them */
#define SB_SUMMARY_WIS_COLUMNS "tasks,processes,processes_idle,threads,threads_idle,linear"

#endif
