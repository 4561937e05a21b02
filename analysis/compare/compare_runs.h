/* Comparing scalebench runs point by point: the table, peak and scalability, the CI verdict. */
#ifndef SCALEBENCH_COMPARE_RUNS_H
#define SCALEBENCH_COMPARE_RUNS_H

#include <stddef.h>
#include <stdio.h>

#include "stat/ministat.h"

/* GAB and BENCHER: the change of every point as dashboard JSON (export.h's formats). */
enum sb_cmp_format { SB_CMP_TEXT, SB_CMP_MARKDOWN, SB_CMP_CSV, SB_CMP_GAB, SB_CMP_BENCHER };
enum sb_fail_on { SB_FAIL_REGRESSION, SB_FAIL_CHANGE, SB_FAIL_NEVER };
/*
 * The procedure that holds the whole comparison's false alarms at the level
 * (docs/COMPARE.md "The gate"): CURVES tests each mode's curve (the geometric
 * mean change) and every point, weighted Holm; HOLM and BH the points only;
 * POINT every point at the level alone (the gate before issue 24).
 */
enum sb_gate { SB_GATE_CURVES, SB_GATE_HOLM, SB_GATE_BH, SB_GATE_POINT };

struct sb_cmp_opts {
	enum sb_cmp_format format;
	enum sb_fail_on fail_on;
	double conf;		/* confidence level, percent */
	double threshold;	/* a significant change below this many percent does not count */
	const char *point;	/* "MODE:TASKS": the ministat block of one point */
	int force;		/* compare what would otherwise be refused */
	enum sb_gate gate;	/* the multiple-comparison procedure */
	int pool;		/* > 0: dirs[0..pool-1] are base's sweeps, the rest new's; each side pooled */
	double drift_pct;	/* --drift: a sweep's offset sd, %; < 0: learned (the history, else the default) */
	const char *history;	/* --history: where to learn it (NULL: $SB_HISTORY, results/history.db) */
	int sweep_median;	/* --sweep-value median: a sweep's value the median of its runs (verdict.h) */
	struct sb_mopts mopts;	/* plot options for --point */
};

/*
 * Compare the runs dirs[1..n-1] against dirs[0] (run or test directories)
 * and print the report on out. Returns the exit code: 0, 1 (a regression,
 * or a change with SB_FAIL_CHANGE), 2 or 3 with a one-line message in err.
 * Notes that must not mix with CSV go to stderr.
 */
int sb_compare_runs(int n, char **dirs, const struct sb_cmp_opts *o, FILE *out,
		    char *err, size_t errlen);

#endif
