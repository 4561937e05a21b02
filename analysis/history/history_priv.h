/* The models sb-history changes and drift build whole before their printers (changes_print.c, drift_print.c) run. */
#ifndef SCALEBENCH_HISTORY_PRIV_H
#define SCALEBENCH_HISTORY_PRIV_H

#include <stdio.h>

#include "history.h"

/* ---- changes.c builds, changes_print.c prints ---- */

/* A change point tied back to its series and sweeps. */
struct found {
	const struct sb_cp_change *c;
	const struct sb_hist_series *se;
	const struct sb_hist_sweep *last, *at, *newest;	/* last: the newest sweep before it */
	int regression, counts;
	char name[512];		/* the series' name (both sides' params when they differ) */
};

/* A point of a sweep whose run measured no progress: a failed measurement. */
struct failed_point {
	const struct sb_hist_sweep *s;
	char pt[64];		/* the point's name */
	int gates;		/* at or after --since */
};

struct changes_model {
	struct found *f;
	size_t nf, ns, nreg;	/* changes; series; changes that gate */
	struct failed_point *failed;
	size_t nfailed, nfail;	/* failed points; those that gate */
	double det[4];		/* sb_hist_detectable_range's */
};

void sb_changes_print(FILE *out, const struct sb_hist *h, const struct changes_model *m,
		      const struct sb_changes_opts *o);

/* ---- drift_report.c builds, drift_print.c prints ---- */

/* One group's (testcase x params x testbed) figures of one sweep shape: the runs' variance, drift within and across boots. */
struct figures {
	double wss, wdf;		/* log runs' squared deviations inside sweeps, their df */
	struct sb_drift_est pt[2];	/* pooled over the points' series */
	struct sb_drift_est cv[2];	/* pooled over the modes' curves */
	size_t sweeps;
};

/* What buys precision: runs a sweep (r* and the whole number used) and sweeps a side (65: more than 64). */
struct advice {
	double r;
	long runs, k;
};

/* A group's and shape's figures, and what the report says of them. */
struct drift_fig {
	struct figures f;
	double sigma2;			/* the runs' variance inside a sweep (log); 0 unknown */
	struct sb_drift_est use;	/* the figure the advice rests on: across boots where known */
	int across;			/* use is f.pt[SB_DRIFT_ACROSS] */
	int advised;			/* use and the runs' variance known: a and c_sweep are set */
	struct advice a;
	double c_sweep;			/* the cost of the sweep the advice counts: a reboot's across boots */
};

/* A group's first sweep (NULL: none), its sweeps, how many shapes it has and the first of them (m: none). */
struct drift_group {
	const struct sb_hist_sweep *first;
	size_t total, nsh, one;
};

struct drift_model {
	size_t ngroups, m;		/* groups, shapes */
	struct drift_fig *f;		/* ngroups x m */
	struct drift_group *g;		/* ngroups */
	const char **shape;		/* m: each shape's name */
	struct drift_fig none;		/* a group without figures */
};

void sb_drift_print(FILE *out, const struct drift_model *dm, const struct sb_drift_report_opts *o);
void sb_drift_print_advise(FILE *out, const struct drift_fig *g, const struct sb_drift_report_opts *o);

#endif
