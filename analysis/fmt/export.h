/* Runs as continuous-benchmarking JSON: github-action-benchmark's customBiggerIsBetter, Bencher's BMF. */
#ifndef SCALEBENCH_EXPORT_H
#define SCALEBENCH_EXPORT_H

#include <stdio.h>

enum sb_export { SB_EXPORT_GAB, SB_EXPORT_BENCHER };

/*
 * One list (gab) or object (bencher) of every point (test, mode, tasks) of
 * the runs in dirs[0..n-1] (meta and summary.csv): the value is the
 * run-level mean, the range its confidence interval (absent below 2 runs;
 * Bencher's lower bound cut at 0). Two runs of one test are named apart by
 * their labels. Nothing is written unless all read. Returns 0; 2 or 3 with
 * a message in err.
 */
int sb_export_runs(FILE *out, int n, char **dirs, enum sb_export f, char *err, size_t errlen);

/* The test= of a run directory's meta (or of a test directory's latest run); 0, or 2 when none. */
int sb_export_test_of(const char *dir, char *test, size_t len);

/*
 * Several lists (gab) or objects (bencher) as this module and compare_report
 * write them, joined into one on out; -1 (nothing of the piece written) when
 * one is not of that shape.
 */
int sb_json_join(FILE *out, char *const *pieces, size_t n, enum sb_export f);

/* JSON pieces, shared with the comparison export of compare_report.c. */
void sb_json_str(FILE *out, const char *s);	/* a string, escaped */
void sb_csv_field(FILE *out, const char *s);	/* a CSV field, quoted when it holds , " or a newline */
void sb_json_num(FILE *out, double v);	/* a finite number, enough digits to read back */

#endif
