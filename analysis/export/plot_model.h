/* sb-summary --format plot's model: a run directory's records for plot/plot.py, every file checked, computed before fmt/plot_data.c prints them. */
#ifndef SCALEBENCH_PLOT_MODEL_H
#define SCALEBENCH_PLOT_MODEL_H

#include <limits.h>
#include <stddef.h>

#include "io/results.h"

/* A mode's best count, its plateau lo..hi (task counts) and sb_peak_label's words. */
struct sb_plot_peak {
	const char *mode;
	long tasks, lo, hi;
	double mean;
	char label[160];
};

/* A point short of meta's precision target, or one that meta's unmet names. */
struct sb_plot_unmet {
	const char *mode;
	long tasks;
	double precision;	/* NAN without an interval */
	double target;		/* NAN without a target */
};

/* A row of points.csv: why a count was measured. */
struct sb_plot_origin {
	const char *mode;
	long tasks;
	char origin[8], reason[96];
};

/*
 * The records, in plot.py's order, as far as the checks got: a record is in
 * the model only when every check before it passed (rc then says why the
 * rest is not).
 */
struct sb_plot {
	struct sb_run r;	/* the run model's meta: its lines (those before a malformed one too) */
	const char *status;	/* meta's status now (sb_status_now); NULL without one, or when meta is bad */
	const char *empty;	/* why there is nothing to draw, or NULL */
	struct sb_summary_row *rows;	/* summary.csv's rows as they are */
	size_t nrows;
	struct sb_plot_peak peak[SB_NMODES];
	int npeak;
	struct sb_plot_unmet *unmet;
	size_t nunmet;
	struct sb_plot_origin *origin;
	size_t norigin, origin_cap;
	int rc;			/* 0, or the exit code (2, 3) of the check that stopped the records */
	char err[PATH_MAX + 512];	/* its message */
};

/*
 * Build p from dir: meta, summary.csv (a complete run must have one),
 * samples.csv when there (checked), each mode's peak, the unmet points,
 * points.csv's origins. Returns p->rc. sb_plot_free frees p whatever the
 * result.
 */
int sb_plot_build(const char *dir, struct sb_plot *p);
void sb_plot_free(struct sb_plot *p);

#endif
