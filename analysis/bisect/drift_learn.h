/* How a bisect learns the drift between sweeps, one way for a step and for the report: its sweeps in logs, the figure, the moderation. */
#ifndef SCALEBENCH_BISECT_DRIFT_LEARN_H
#define SCALEBENCH_BISECT_DRIFT_LEARN_H

#include <stddef.h>

#include "bisect/point.h"
#include "bisect/steps.h"
#include "stat/drift.h"

/* A sweep's values as the drift model takes them (sb_verdict_log_sweep); -1 when one is not positive. */
int sb_bisect_drift_sweep(const double *v, size_t n, const char *boot, struct sb_drift_sweep *out);

/*
 * The values of target t in the run directory dir into *v (*n of them): a
 * complete sweep of good's testcase; with shape, of its parameters and run
 * shape too. 0, SB_EXIT_FAIL with why in err when no run has a value (a
 * failed measurement), or another nonzero code with why in err. A run left
 * out (no curve value) is said on stderr when boot is given, and the
 * sweep's boot id goes there (64 bytes).
 */
int sb_bisect_values(const struct sb_run *good, const struct sb_target *t, const char *dir, int shape,
		     double **v, size_t *n, char *err, size_t errlen, char *boot);

/* What a bisect's drift is learned from. */
struct sb_bisect_learn {
	double drift_pct;		/* --drift; < 0: learned */
	const struct sb_run *good;	/* the good end's first sweep, loaded */
	const struct sb_target *t;	/* the target, resolved */
	const char *tstr;		/* ... as the step log names it */
	const char *const *ends;	/* the other end sweeps, left out of the history */
	size_t nends;
	int across;			/* the ends' first sweeps ran in two boots, or a boot is unknown */
};

/*
 * The figure a bisect starts from: --drift PCT (0: SB_DRIFT_NONE); else
 * learned from the testbed's history in $SB_HISTORY for good's testcase at
 * the target (good and the ends left out); else the default (drift.h). Not
 * from the bisect's own results directory as a history: its sweeps alternate
 * between good and bad commits in bisect order, and their consecutive
 * differences are the change itself.
 */
void sb_bisect_drift_start(const struct sb_bisect_learn *in, struct sb_drift *d);

/*
 * d (the default's or a history's figure) moderated by the bisect's own
 * sweeps (sb_bisect_drift_est): the step log's sweeps between the ends
 * good_dir and bad_dir at in->tstr, by commit, those of commit except left
 * out (a step's own: its sweeps moderate it in the step; NULL: none); a
 * sweep that no longer loads, or not of good's testcase, parameters and
 * shape, is left out. whose names the sweeps in d->what ("this bisect's
 * earlier steps"). 1 when it moderated d, 0 when not (a given figure, or no
 * commit with two sweeps), -1 when memory runs out.
 */
int sb_bisect_drift_steps(const struct sb_bisect_learn *in, const struct sb_steplog *log, const char *good_dir,
			  const char *bad_dir, const char *except, const char *whose, struct sb_drift *d);

#endif
