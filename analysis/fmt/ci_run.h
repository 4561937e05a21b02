/* A run directory as the kernel CI exports (KCIDB, SQUAD) see it: the run, its curves, its status and a stable key. */
#ifndef SCALEBENCH_CI_RUN_H
#define SCALEBENCH_CI_RUN_H

#include <stddef.h>

#include "curve.h"
#include "results.h"

struct sb_ci_run {
	struct sb_run r;
	struct sb_curve cv[SB_NMODES];
	char failed_mode[32];	/* meta's failed_mode and failed_tasks ("" and 0 without) */
	long failed_tasks;
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
};

/* What a run's status makes of its points. */
enum sb_ci_outcome { SB_CI_DONE, SB_CI_FAILED, SB_CI_ERROR };

/* Load dir (a run directory, or a test directory's latest). Returns 0; 2 or 3 with a message in err. */
int sb_ci_load(const char *dir, struct sb_ci_run *c, char *err, size_t errlen);
void sb_ci_free(struct sb_ci_run *c);

/*
 * Load dirs[0..n-1] into a new array *runs (sb_ci_load each, stopping at the
 * first error); *loaded says how many to give sb_ci_free_all, whatever the
 * result. 0, or the failing run's exit code with err.
 */
int sb_ci_load_all(int n, char **dirs, struct sb_ci_run **runs, int *loaded, char *err, size_t errlen);
void sb_ci_free_all(struct sb_ci_run *runs, int loaded);

/* complete: DONE; failed: FAILED; interrupted, abandoned, running: ERROR. */
enum sb_ci_outcome sb_ci_outcome(const struct sb_ci_run *c);

/* The machine the run measured: a VM run's host_name, else host ("" when unknown). */
const char *sb_ci_testbed(const struct sb_ci_run *c);

/* A 64-bit FNV-1a hash of s, continuing from h (start with SB_CI_HASH0). */
#define SB_CI_HASH0 0xcbf29ce484222325ULL
unsigned long long sb_ci_hash(unsigned long long h, const char *s);

/* Whether s is a name of only [A-Za-z0-9_-] (a KCIDB path segment, a LAVA or SQUAD name part). */
int sb_ci_plain(const char *s);

#endif
