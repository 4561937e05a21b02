/* Runs as continuous-benchmarking JSON: github-action-benchmark's customBiggerIsBetter, Bencher's BMF. */
#ifndef SCALEBENCH_EXPORT_H
#define SCALEBENCH_EXPORT_H

#include <stdio.h>

enum sb_export { SB_EXPORT_GAB, SB_EXPORT_BENCHER };

struct sb_bench;

/*
 * One list (gab) or object (bencher) of every point (test, mode, tasks) of
 * b (export/bench_runs.h's model, loaded whole): the value is the run-level
 * mean, the range its confidence interval (absent below 2 runs; Bencher's
 * lower bound cut at 0), a run named apart by the model's label.
 */
void sb_export_print(FILE *out, const struct sb_bench *b, enum sb_export f);

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
