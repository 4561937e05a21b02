/* The model sb-history changes builds whole before its printer (changes_print.c) runs. */
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

#endif
