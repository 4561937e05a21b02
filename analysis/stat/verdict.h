/* The one verdict on "is this change real": compare's points and curves, sb-history show's pairs and sb-bisect's ends and steps ask it. */
#ifndef SCALEBENCH_VERDICT_H
#define SCALEBENCH_VERDICT_H

#include <stddef.h>

#include "drift.h"
#include "stats.h"

/* The chance a change of the "detectable" size is caught: every detectable figure is for this power. */
#define SB_POWER 0.8

/*
 * One sweep of a side: its run values (the per-run means of the quantity,
 * ops/s; log ops/s for SB_VT_LOG), or, with v NULL, their summary (n, mean,
 * var: n - 1, 0 below 2 values). boot and order say when it ran, for the
 * drift model: today's arithmetic (SB_DRIFT_NONE) does not read them.
 */
struct sb_vsweep {
	const double *v;	/* v[0..n-1], or NULL: the summary below */
	size_t n;
	double mean, var;	/* read only when v is NULL */
	const char *boot;	/* the boot id (meta's boot_id); NULL: unknown */
	long order;		/* its start order or round id; -1: unknown */
};

/* A side: its sweeps, in the order they ran (pooled in this order). */
struct sb_vside {
	const struct sb_vsweep *sw;
	size_t nsw;
};

/* The drift between sweeps (a sweep's own offset) a verdict assumes, and where it came from: drift.h. */

/* What is compared. */
enum sb_vtest {
	SB_VT_RATIO,	/* x's mean against base's as a ratio, ministat's test (sb_tdiff): a point */
	SB_VT_LOG,	/* the difference of the mean log values (values in log ops/s): a curve */
	SB_VT_DIFF,	/* the difference of the means in % of base's (sb_ttest2): a bisect's ends and steps */
};

/*
 * A sweep's value in the sweeps model: the mean of its runs' logs, or (the
 * median, where every sweep of both sides has SB_MEDIAN_RUNS runs or more)
 * their median, its variance taken as pi/2 times the mean's (a normal
 * sample's median, as n grows; a little more than at 5 to 10 runs: the
 * interval errs wide). Below that in any sweep, the mean.
 */
enum sb_vvalue { SB_VV_MEAN, SB_VV_MEDIAN };
#define SB_MEDIAN_RUNS 5

enum sb_vword { SB_VW_NA, SB_VW_SAME, SB_VW_FASTER, SB_VW_SLOWER };
extern const char *const sb_vword_name[4];	/* "not comparable", "same", "faster", "slower" */

struct sb_vquery {
	struct sb_vside base, x;
	enum sb_vtest test;
	double conf;		/* the interval's level, percent (sb_student_t's levels for SB_VT_RATIO) */
	double alpha;		/* the two-sided level "detectable" is for; 0: 1 - conf / 100 */
	struct sb_drift drift;	/* SB_DRIFT_NONE: the runs are the values; else the sweeps, with the drift */
};

/*
 * The verdict: x against base. With SB_DRIFT_NONE: pooled Student's t with
 * the runs as the independent values, each test with its own arithmetic as
 * it was before this module (compare, history show and bisect print the same
 * digits). Otherwise the sweep is the unit and the drift is in the variance
 * (sb_drift_compare, in logs: the estimate is the ratio of the sides'
 * geometric means; sides of 3 sweeps or more measured in pairs by their
 * order, a b a b ... or b a b a ... or one round id a pair, are tested as
 * pairs); the sb_tdiff and sb_ttest fields are filled
 * from that test for the reports that print them.
 */
struct sb_vresult {
	enum sb_vtest test;	/* the query's */
	enum sb_vword word;	/* the conf% interval excludes 0: faster or slower; else same */
	double estimate;	/* % change of x against base */
	double lo, hi;		/* its conf% interval, % */
	double se;		/* the estimate's standard error, % */
	double df, p;		/* degrees of freedom, two-sided p-value of the difference */
	double detectable;	/* smallest change (%) found with SB_POWER at level alpha; NAN */
	struct sb_drift drift;	/* the drift used, and its source */
	size_t n0, n;		/* values a side */
	double mean0, mean;	/* each side's mean value */
	double var0, var;	/* and variance (n - 1; 0 below 2 values) */
	/* the arithmetic behind the figures, for the reports that print it */
	struct sb_tdiff d;	/* SB_VT_RATIO */
	struct sb_ttest tt;	/* SB_VT_LOG and SB_VT_DIFF (on the values as given) */
	int drifted;		/* the sweeps model: dt holds the test (d and tt are filled from it) */
	int median;		/* ... on the medians of the sweeps' runs (sb_verdict_value, runs enough) */
	struct sb_drift_test dt;
};

/*
 * Fill out for q. Returns 0; -1 (out->word SB_VW_NA) when a side has fewer
 * than 2 values (SB_VT_DIFF: fewer than 3 between them, one at least each;
 * with a drift: a sweep without a positive value, or no degrees of freedom)
 * or the level is not one SB_VT_RATIO knows.
 * A caller's own rules (a positive base mean, 3 samples) come before.
 */
int sb_verdict(const struct sb_vquery *q, struct sb_vresult *out);
/* A sweep in logs as the drift model takes it (mean and variance of its runs' logs): its values'
 * logs (logs: the values as given), or its summary's by the delta method; -1 when a value (or the
 * summary's mean) is not positive, or it has none. The one place a sweep is summarised so. */
int sb_verdict_log_sweep(const struct sb_vsweep *w, int logs, struct sb_drift_sweep *out);
/* The same with a sweep's value chosen (sb_verdict: SB_VV_MEAN); SB_DRIFT_NONE reads no sweep's value. */
int sb_verdict_value(const struct sb_vquery *q, enum sb_vvalue value, struct sb_vresult *out);

/* The detectable change of v at another two-sided level alpha (a gate's share of its level); NAN. */
double sb_verdict_detectable(const struct sb_vresult *v, double alpha);

/*
 * The spread of one value about its side's mean, pooled over the sides
 * (each side with 2 values or more; sb_decide's spread for Wald's test):
 * sqrt(sum (n - 1) var / sum (n - 1)). NAN when drift is not SB_DRIFT_NONE
 * or no side has 2 values.
 */
double sb_verdict_spread(const struct sb_vside *sides, size_t nsides, const struct sb_drift *drift);

#endif
