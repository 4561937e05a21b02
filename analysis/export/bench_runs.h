/* The continuous-benchmarking exports' model (github-action-benchmark, Bencher): runs' meta and summary.csv, named apart, as a list of points. */
#ifndef SCALEBENCH_BENCH_RUNS_H
#define SCALEBENCH_BENCH_RUNS_H

#include <stddef.h>

#include "io/results.h"

/* One run: its meta's names and summary.csv's rows. */
struct sb_bench_run {
	char test[256], label[256], run_id[256];
	struct sb_summary_row *rows;
	size_t n;
	const char *who;	/* "" or the label that tells two runs of one test apart */
};

/* One point (test, mode, tasks) with a mean, in the exports' order: run, mode, row. */
struct sb_bench_point {
	const struct sb_bench_run *run;
	const char *mode;
	long tasks;
	double mean;		/* the run-level mean */
	double ci;		/* its confidence interval's half-width; NAN below 2 runs */
	long runs;
};

struct sb_bench {
	struct sb_bench_run *run;
	int n;
	struct sb_bench_point *pt;
	size_t npt;
};

/*
 * Load dirs[0..n-1] (meta and summary.csv) into b, whole before anything is
 * written: two runs of one test are told apart by their labels (a stable name
 * keeps the dashboard's history); two with one test and one label cannot be.
 * Returns 0; 2 or 3 with a message in err. sb_bench_free frees b whatever the
 * result.
 */
int sb_bench_load(int n, char **dirs, struct sb_bench *b, char *err, size_t errlen);
void sb_bench_free(struct sb_bench *b);

/* The test= of a run directory's meta (or of a test directory's latest run); 0, or 2 when none. */
int sb_export_test_of(const char *dir, char *test, size_t len);

#endif
