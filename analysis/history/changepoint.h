/* Change points in ordered series of sweeps: where a point's level moved, how much, how sure. */
#ifndef SCALEBENCH_CHANGEPOINT_H
#define SCALEBENCH_CHANGEPOINT_H

#include <stddef.h>

/* One sweep's observations of one series (one kernel): the per-run means, ops/s. */
struct sb_cp_obs {
	const double *runs;
	size_t nruns;
};

/* One series (testcase x params x testbed x mode x tasks, or a mode's curve), oldest first. */
struct sb_cp_series {
	const struct sb_cp_obs *obs;
	size_t n;
};

struct sb_cp_opts {
	double alpha;		/* the error held over ALL the series given together (default 0.05) */
	size_t min_seg;		/* the fewest sweeps a segment may have (default 2: a spike is no step) */
};

/* One change found in one series. */
struct sb_cp_change {
	size_t series;		/* index into the series given */
	size_t at;		/* index of the first sweep after the change */
	double before, after;	/* the means of the segments either side, ops/s */
	double pct, lo, hi;	/* (after - before) / before in %, and its 95% interval */
	double p;		/* the split's p-value, adjusted over the whole selection */
	int holds;		/* 1 when the newest sweep still differs from `before` the same way */
};

/*
 * Find the change points of ns series at once, with the false-alarm rate held
 * at o->alpha over all of them. *out is malloc'd (series order, then `at`).
 * o may be NULL (the defaults); alpha 0 and min_seg 0 mean the defaults.
 * before and after are geometric means (of the sweeps' mean logs), pct and its
 * interval come from the difference of those logs; the method is in
 * docs/HISTORY.md "The method". Deterministic: no random numbers.
 * Returns 0; 2 for bad input (a sweep with no runs, a value that is not
 * finite or not above 0, alpha outside (0, 1)); 3 when memory runs out.
 */
int sb_cp_detect(const struct sb_cp_series *s, size_t ns, const struct sb_cp_opts *o,
		 struct sb_cp_change **out, size_t *nout);

/*
 * The input check sb_cp_detect makes, with the problem named in err ("series
 * 3, sweep 7: no runs", "... run 2: not a positive finite number", ...), for
 * a caller that prints it. Returns 0, or 2.
 */
int sb_cp_check(const struct sb_cp_series *s, size_t ns, char *err, size_t errlen);

#endif
