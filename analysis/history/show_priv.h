/* sb-history show's private parts: a table's columns and rows, its cells and the verdicts of its column pairs (show.c and show_judge.c compute, show_print.c prints). */
#ifndef SCALEBENCH_SHOW_PRIV_H
#define SCALEBENCH_SHOW_PRIV_H

#include "history.h"
#include "stat/verdict.h"

/* The level a pair of columns is compared at, over the pair's whole family (compare's). */
#define SHOW_CONF 95

struct column {
	const char *name;
	size_t *sw, n;		/* its sweeps, in order */
};

struct table {
	const struct sb_hist_sweep *first;	/* names the table: test, params, testbed */
	struct column *cols;
	size_t ncols;
};

/* One row's key: a point, or a mode's curve (tasks 0) over the counts tasks[0..nt-1]. */
struct rowkey {
	int mode;
	long tasks;
	long *ctasks;
	size_t nct;
};

struct cell {
	size_t sweeps, runs;
	double mean, var, ci;	/* ci: half-width of the 95% interval; NAN below 2 runs */
	double *v;		/* the runs' values, sweep after sweep */
	struct sb_vsweep *vs;	/* its sweeps with values, for the verdict module */
	size_t nvs;
	int failed;		/* a run measured no progress: no value (runs 0), said "failed" */
};

struct vs {
	int ok;			/* both sides have 2 runs or more */
	double pct, hw, det;	/* the change, its interval's half-width, detectable (at the family's level), % */
	const char *word;	/* worse, better, same */
	double p;		/* its two-sided p-value, before the family's procedure */
};

/*
 * A table judged: cell (i, j) of row i and column j, and the verdicts of
 * column j against the first and against the previous column (j 0: none).
 * Each column pair is one family, its points and curves together (compare's
 * weighted Holm: half the level to the curves), at SHOW_CONF.
 */
struct judged {
	size_t nr, ncols;
	struct cell *c;		/* nr x ncols */
	struct vs *first, *prev;	/* nr x ncols */
	struct sb_drift drift;	/* the first figure used, for the title */
	size_t ndrift;		/* rows judged with a drift */
};

/* One table built: its rows, their names, every cell and pair judged, the drift's words for its title. */
struct show_table {
	struct rowkey *r;
	size_t nr;
	char **names;		/* nr: sb_hist_point_name's */
	struct judged jd;
	int judged;		/* jd is set (to free) */
	char drift_words[400];
};

/* What sb-history show prints: every table, built before any is printed. */
struct show_model {
	struct table *t;
	size_t nt;
	struct show_table *tabs;	/* nt */
};

/* show_print.c: the model's tables in o's format; 0, or -1 when memory runs out. */
int sb_show_print(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o);

const struct sb_hist_point *sb_show_point_of(const struct sb_hist_sweep *s, int mode, long tasks);

/*
 * Judge table t over its rows r[0..nr-1] into j: every cell, then every
 * column pair's verdicts, with the drift of each row's series from d (NULL:
 * the base, e.g. --drift or --by testbed's none). Returns 0, or -1 when
 * memory runs out.
 */
int sb_show_judge(const struct sb_hist *h, const struct table *t, const struct rowkey *r, size_t nr,
		  const struct sb_hist_drift *d, const struct sb_hist_series *s, size_t ns,
		  const struct sb_drift *base, struct judged *j);
void sb_show_judged_free(struct judged *j);

#endif
