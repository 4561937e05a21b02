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

/* Called for each key=value line of meta in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_meta_fn)(void *ctx, const char *key, const char *value);

/*
 * Read meta at path (key=value lines; blank and # lines skipped). key and
 * value point into *text, which the caller frees. Returns 0, 2 (message with
 * file:line) or 3.
 */
int sb_meta_read(const char *path, sb_meta_fn fn, void *ctx, char **text, char *err,
		 size_t errlen);

/* `<mode>_peak` of summary.csv: the count with the highest mean, or another count of its plateau. */
enum { SB_PEAK_UNKNOWN = -1, SB_PEAK_NONE = 0, SB_PEAK_PLATEAU = 1, SB_PEAK_BEST = 2 };

/* One task count's row of summary.csv; NAN (n, runs 0) where a field is empty. */
struct sb_summary_row {
	long tasks;
	double linear;
	struct {
		double mean, idle, stddev, ci, precision;
		long n;		/* values: the runs, or a single run's samples */
		long runs;	/* independent runs (_runs; from _n and _ci in older files) */
		int peak;	/* SB_PEAK_*: UNKNOWN in a file without the column */
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
	double idle;			/* mean idle_all_pct of the samples that have it; NAN without */
	double idle_sum;		/* its sum and count (pooling adds them) */
	size_t idle_n;
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
	/* a VM run's host: every guest is host=scalebench-guest, its CPU and topology QEMU's */
	const char *host_name, *host_cpu, *host_topology;
	const char *system;	/* runtest.sh's short system check: "governor=... turbo=... vm=kvm ..." */
	/* the testcase's parameters and the run shape; NULL when meta lacks the key (older runs) */
	const char *params, *period_ms, *duration, *warmup;
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

/*
 * Load the measured rows of samples.csv at path alone (no meta) into r's
 * points (r->dir, r->name and meta's fields stay NULL): what sb-summary and
 * sb-plan read. A file of no measured row gives no point. Returns 0, 2 or 3.
 */
int sb_run_samples(const char *path, struct sb_run *r, char *err, size_t errlen);

/* The run means of p: its means, or the one run's mean for a single run (*n 1), else *n 0. */
const double *sb_point_run_means(const struct sb_point *p, size_t *n);

/* The means of independent runs (sb_runs_independent), else the samples. */
const struct sb_values *sb_point_values(const struct sb_point *p);

/* One row of points.csv (sb-plan writes it): why a task count of a mode is measured. */
struct sb_points_row {
	int mode;		/* SB_PROCESSES or SB_THREADS */
	long tasks;
	char origin[8];		/* seed, added or given */
	char reason[96];	/* "seed: NUMA node", "peak bracket (4 to 8)" ... */
};

/* Called for each row of points.csv in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_points_fn)(void *ctx, const struct sb_points_row *r);

/*
 * Read points.csv at path: the header mode,tasks,origin,reason, every row
 * checked (a known mode, a task count, origin seed|added|given). Returns 0;
 * 1 when there is no such file (runs before points.csv have none); 2 with a
 * message naming file and line for malformed input; 3 for other errors.
 */
int sb_points_read(const char *path, sb_points_fn fn, void *ctx, char *err, size_t errlen);

#endif
