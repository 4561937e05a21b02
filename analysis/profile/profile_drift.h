/* compare --profile's throughput verdicts with the machine's drift between sweeps: the figure compare uses, point by point. */
#ifndef SCALEBENCH_PROFILE_DRIFT_H
#define SCALEBENCH_PROFILE_DRIFT_H

#include <stddef.h>

#include "rundir/rundir.h"
#include "stat/drift.h"

struct sb_prof_drift;

/*
 * The drift base b's and new x's points are judged with: drift_pct >= 0
 * (--drift) as given; else learned as compare learns it, from the history
 * (sb_drift_lookup_find: history, $SB_HISTORY, else the results
 * directory's), the two runs left out, else the default. A history that
 * cannot be read is said in the note, not fatal; out of memory and the like:
 * SB_EXIT_ENV with why in err. 0 and *out.
 */
int sb_prof_drift_open(const struct sb_run *b, const struct sb_run *x, double drift_pct, const char *history,
		       struct sb_prof_drift **out, char *err, size_t errlen);
void sb_prof_drift_free(struct sb_prof_drift *d);

/* The figure for point (mode, tasks); the first one asked for is kept for the note. */
void sb_prof_drift_point(struct sb_prof_drift *d, const char *mode, long tasks, struct sb_drift *out);

/* The report's note: the first point's figure in words, and where it came from. */
void sb_prof_drift_note(const struct sb_prof_drift *d, char *buf, size_t len);

#endif
