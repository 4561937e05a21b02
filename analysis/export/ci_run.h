/* The kernel CI exports' model (KCIDB, SQUAD): each run directory loaded, its curves, status, testbed and stable keys, computed before fmt/ prints. */
#ifndef SCALEBENCH_CI_RUN_H
#define SCALEBENCH_CI_RUN_H

#include <stddef.h>

#include "curve/curve.h"
#include "io/results.h"

/* What a run's status makes of its points: complete DONE; failed FAILED; interrupted, abandoned, running ERROR. */
enum sb_ci_outcome { SB_CI_DONE, SB_CI_FAILED, SB_CI_ERROR };

/* A curve point's run means (SQUAD's metric): v[0..n-1], n 0 when it has none. */
struct sb_ci_means {
	const double *v;
	size_t n;
};

struct sb_ci_run {
	struct sb_run r;
	struct sb_curve cv[SB_NMODES];	/* each mode's curve; cv[m].mode its name */
	struct sb_ci_means *means[SB_NMODES];	/* the run means of cv[m].pt[i] (NULL when cv[m].n is 0) */
	char failed_mode[32];	/* meta's failed_mode and failed_tasks ("" and 0 without) */
	long failed_tasks;
	int failed_plain;	/* failed_mode is a plain name (sb_ci_plain) and failed_tasks > 0 */
	char error[512];	/* meta's error */
	char git_revision[64];	/* scalebench's revision that measured */
	char commit[128];	/* the measured kernel's commit (meta's commit) */
	/*
	 * A failed or interrupted sweep with no measured sample: its meta alone
	 * (sb_run_meta's; r's fields NULL where meta lacks the key, r has no point,
	 * cv are empty).
	 */
	int meta_only;
	char arch[64];		/* the kernel's machine (uname -m), lower case, [a-z0-9_] only */
	/*
	 * 16 hex digits from the sweep's start id (sweep_start, else its host and
	 * date), the test and the run id: the same run exported twice gets the same
	 * ids, two runs never share them.
	 */
	char key[17];
	/* 16 hex digits from the kernel (uname -srvm) and the checkout's commit: its checkout's and build's id */
	char build_key[17];
	enum sb_ci_outcome outcome;
	const char *testbed;	/* the machine the run measured: a VM run's host_name, else host ("" when unknown) */
	int test_plain;		/* the test's name is plain (sb_ci_plain): a KCIDB path segment, a SQUAD name part */
};

/* The runs of one export, in the order given. */
struct sb_ci_runs {
	struct sb_ci_run *run;
	int n;			/* loaded (to free, whatever the result) */
	char job_id[32];	/* "scalebench-" and 16 hex digits from the runs' keys (SQUAD's job_id) */
};

/*
 * Load dirs[0..n-1] (each a run directory, or a test directory's latest) into
 * all, stopping at the first error. commit: the checkout's commit for the
 * build keys, NULL for each run's meta commit. Returns 0, or the failing run's
 * exit code (2 or 3) with a message in err. sb_ci_free_all frees all whatever
 * the result.
 */
int sb_ci_load_all(int n, char **dirs, const char *commit, struct sb_ci_runs *all, char *err,
		   size_t errlen);
void sb_ci_free_all(struct sb_ci_runs *all);

#endif
