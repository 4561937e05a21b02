/* samples.csv's reader: the modes, one measured row, the bound on values. */
#ifndef SCALEBENCH_SAMPLES_H
#define SCALEBENCH_SAMPLES_H

#include <stddef.h>

/* The modes a runner measures, in the order summaries show them. */
enum { SB_PROCESSES, SB_THREADS, SB_NMODES };
extern const char *const sb_mode_name[SB_NMODES];

/* One measured row of samples.csv (warmup rows are checked, then skipped). */
struct sb_sample {
	int mode;		/* SB_PROCESSES or SB_THREADS */
	long tasks, run;
	double rate;		/* ops_per_s */
	double idle;		/* idle_all_pct; NAN when the runner could not measure it */
};

/*
 * The largest ops_per_s or idle_all_pct the reader accepts: no machine counts 1e15 operations a
 * second, and below it every sum, square and ratio the statistics take of a file stays finite.
 */
#define SB_VALUE_MAX 1e15

/* Called for each measured row in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_sample_fn)(void *ctx, const struct sb_sample *s);

/*
 * Read samples.csv at path: the header names the columns (others are
 * ignored), every row is checked. Returns 0; 2 with a message naming file and
 * line in err for malformed input or a missing file; 3 for other read errors
 * or when memory runs out.
 */
int sb_samples_read(const char *path, sb_sample_fn fn, void *ctx, char *err, size_t errlen);

#endif
