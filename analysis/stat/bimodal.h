/* Two groups in a handful of values: the gap test behind compare's bimodality note. */
#ifndef SCALEBENCH_BIMODAL_H
#define SCALEBENCH_BIMODAL_H

#include <stddef.h>

/* The fewest values the test looks at: two groups of two. */
#define SB_BIMODAL_MIN 4
/* The least difference of the groups' means (log units: 1%) worth a note. */
#define SB_BIMODAL_MIN_APART 0.01

struct sb_bimodal {
	double score;		/* the widest gap over the pooled sd within its two groups */
	double limit;		/* the score normal values of this count exceed 0.1% of the time */
	size_t nlo, nhi;	/* the values below the gap and above it */
	double lo, hi;		/* each group's mean */
};

/*
 * Whether v[0..n-1] (log values: runs of a point, or sweeps' means) fall in
 * two groups. Sorted, every split into a lower and an upper group of 2 values
 * or more gives a score: the gap between them over the pooled sd within the
 * two groups; the widest score is compared with its 0.1% point for n normal
 * values (by simulation: selftest/bench/bimodal_gap.c; the table's entry for
 * the largest count at or below n, so the rate stays below 0.1%). Returns 1
 * (bimodal) when the score exceeds that point and the groups' means are at
 * least SB_BIMODAL_MIN_APART apart; 0 otherwise, or below SB_BIMODAL_MIN
 * values or above 256, or for a value that is not finite; out (may be NULL) is filled
 * whenever a score was computed.
 */
int sb_bimodal(const double *v, size_t n, struct sb_bimodal *out);

/* The 0.1% point of the score for n normal values (n >= SB_BIMODAL_MIN); INFINITY below. */
double sb_bimodal_limit(size_t n);

#endif
