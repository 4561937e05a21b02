/* A run as continuous-benchmarking JSON: github-action-benchmark's customBiggerIsBetter, Bencher's BMF. */
#ifndef SCALEBENCH_EXPORT_H
#define SCALEBENCH_EXPORT_H

#include <stdio.h>

enum sb_export { SB_EXPORT_GAB, SB_EXPORT_BENCHER };

/*
 * One entry per point (test, mode, tasks) of the run in dir (meta and
 * summary.csv): the value is the run-level mean, the range its confidence
 * interval (absent below 2 runs). Returns 0; 2 or 3 with a message in err.
 */
int sb_export_run(FILE *out, const char *dir, enum sb_export f, char *err, size_t errlen);

/* JSON pieces, shared with the comparison export of compare_runs.c. */
void sb_json_str(FILE *out, const char *s);	/* a string, escaped */
void sb_json_num(FILE *out, double v);	/* a finite number, enough digits to read back */

#endif
