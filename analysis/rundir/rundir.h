/* A run directory: resolve, load (points with their per-run means), pool, find. */
#ifndef SCALEBENCH_RUNDIR_H
#define SCALEBENCH_RUNDIR_H

#include <stddef.h>

#include "format/meta.h"
#include "stat/stats.h"
#include "io/meta.h"
#include "io/samples.h"

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
	const char *vm_rounds;	/* runtest.sh with several --kernel: the rounds (run r of each kernel in round r); "" */
	/* the reference loop at the testcase's start and end (meta's reference_start, reference_end) */
	struct sb_reference_reading ref_start, ref_end;
	/* meta whole: every key of its table (format/meta.h) by index, NULL when absent (the last
	 * line of a key wins), and every line in file order, unknown keys too */
	const char *meta[SB_META_NKEYS];
	struct sb_meta_line {
		const char *key, *value;
	} *meta_lines;
	size_t nmeta_lines, meta_cap;
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
/* r's boot id (meta sweep_start's part before '/') into buf; "" unknown. */
void sb_run_boot(const struct sb_run *r, char *buf, size_t len);
/* a and b ran in two boots, or a boot is unknown: a comparison across boots. */
int sb_run_across(const struct sb_run *a, const struct sb_run *b);

/*
 * Load a run directory's meta alone (dir/meta, no samples) into r's meta fields,
 * meta and meta_lines (r->dir: a copy of dir): what a reader of meta and
 * summary.csv takes. Returns 0; 2 (file:line) or 3 with a message in err.
 */
int sb_run_meta(const char *dir, struct sb_run *r, char *err, size_t errlen);

/*
 * Pool src's runs into dst, for one side of a comparison measured by several
 * sweeps: every point's run means and samples are appended to dst's point
 * (a point only src has is added), and the figures recomputed. A single-run
 * point's run mean is its samples' mean. dst's meta stays. Returns 0, or 3
 * when memory runs out (dst is then freed by sb_run_free as usual).
 */
int sb_run_pool(struct sb_run *dst, const struct sb_run *src);

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

#endif
