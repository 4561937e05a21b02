/* The one reader of a run's files: samples.csv rows, meta, and a run directory's points for compare. */
#ifndef SCALEBENCH_RESULTS_H
#define SCALEBENCH_RESULTS_H

#include <stddef.h>

#include "stats.h"

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

/* Called for each measured row in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_sample_fn)(void *ctx, const struct sb_sample *s);

/*
 * Read samples.csv at path: the header names the columns (others are
 * ignored), every row is checked. Returns 0; 2 with a message naming file and
 * line in err for malformed input or a missing file; 3 for other read errors
 * or when memory runs out.
 */
int sb_samples_read(const char *path, sb_sample_fn fn, void *ctx, char *err, size_t errlen);

/* Called for each key=value line of meta in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_meta_fn)(void *ctx, const char *key, const char *value);

/*
 * Read meta at path (key=value lines; blank and # lines skipped). key and
 * value point into *text, which the caller frees. Returns 0, 2 (message with
 * file:line) or 3.
 */
int sb_meta_read(const char *path, sb_meta_fn fn, void *ctx, char **text, char *err,
		 size_t errlen);

/* One task count's row of summary.csv; NAN (n 0) where a field is empty. */
struct sb_summary_row {
	long tasks;
	double linear;
	struct {
		double mean, idle, stddev, ci;
		long n;
	} mode[SB_NMODES];
};

/*
 * Read summary.csv at path: will-it-scale's header first, every row checked
 * (fields, numbers, tasks rising; the 0 row skipped), the file whole (it ends
 * with a newline). *rows is malloc'd. Returns 0, 2 (file:line) or 3.
 */
int sb_summary_read(const char *path, struct sb_summary_row **rows, size_t *nrows, char *err,
		    size_t errlen);

struct sb_run_acc;		/* per-run sums while loading */

/* Values of a point, and their summary. */
struct sb_values {
	double *v;
	size_t n;
	struct sb_stats st;
	double var;		/* unrounded variance, n - 1 */
};

/* One measurement point (mode, task count) of a run. */
struct sb_point {
	char mode[32];
	long tasks;
	struct sb_values samples;	/* every measured per-second sample, all runs */
	struct sb_values means;		/* the per-run means; n == 0 below SB_INDEPENDENT_RUNS runs */
	size_t nruns;			/* distinct runs seen */
	/* loading state */
	size_t scap;
	struct sb_run_acc *runs;
	size_t rcap;
};

struct sb_run {
	char *arg;		/* as given on the command line */
	char *dir;		/* the run directory read (a test directory's latest run) */
	char *name;		/* short name for tables: label, else the run id */
	/* from meta; "" when absent */
	const char *test, *label, *kernel, *host, *status, *run_id, *date, *repeat;
	const char *vm_accel;	/* a run inside a VM (runtest.sh --kernel): kvm or tcg */
	const char *cpu_model, *topology, *hwloc_version, *placement;	/* the machine */
	const char *sweep_host, *sweep_pid, *sweep_start;	/* the runtest.sh that wrote it */
	char *meta_text;	/* storage of the meta values */
	char *test_owned;	/* test name taken from the path when meta has none */
	struct sb_point *pts;	/* sorted: processes, threads, other modes; tasks ascending */
	size_t npts;
};

/*
 * Load a run directory, or the `latest` run of a test directory. Returns 0;
 * 2 with a message (naming file and line) in err for unreadable or malformed
 * input; 3 when memory runs out.
 */
int sb_run_load(const char *arg, struct sb_run *r, char *err, size_t errlen);
void sb_run_free(struct sb_run *r);
const struct sb_point *sb_run_find(const struct sb_run *r, const char *mode, long tasks);

/*
 * Pool src's runs into dst, for one side of a comparison measured by several
 * sweeps: every point's run means and samples are appended to dst's point
 * (a point only src has is added), and the figures recomputed. A single-run
 * point's run mean is its samples' mean. dst's meta stays. Returns 0, or 3
 * when memory runs out (dst is then freed by sb_run_free as usual).
 */
int sb_run_pool(struct sb_run *dst, const struct sb_run *src);

/*
 * A run's status as a reader shows it: meta's, except "abandoned" for a
 * `running` run whose sweep is gone: it was recorded on this host (host,
 * meta's sweep_host, is uname's node name) and pid (sweep_pid) is no process
 * now, or a process that started otherwise than start (sweep_start: the boot
 * id and the start time, where /proc tells them): the pid was reused. Another
 * host's run, or one without those keys (an older runtest.sh), stays
 * `running`: nothing here can tell. sb_run_load applies it to r->status.
 */
const char *sb_status_now(const char *status, const char *host, const char *pid,
			  const char *start);

/* The means of independent runs (sb_runs_independent), else the samples. */
const struct sb_values *sb_point_values(const struct sb_point *p);

#endif
