/* Rank statistics on sweep means: Mann-Whitney's test and the Hodges-Lehmann shift, a cross-check beside the t on 5 or more sweeps a side. */
#ifndef SCALEBENCH_RANK_H
#define SCALEBENCH_RANK_H

#include <stddef.h>

/*
 * Mann-Whitney's U of b against a (the pairs b_j > a_i, ties counting one
 * half) and its two-sided p-value: exact by enumeration of the splits up to
 * 20 values in all (no ties' correction needed there), else the normal
 * approximation with the ties' correction. Returns -1 when a side is empty
 * (or, errno ENOMEM, memory runs out).
 */
int sb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p);

/* The Hodges-Lehmann shift of b against a: the median of the na * nb differences b_j - a_i; NAN when empty. */
double sb_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

#endif
