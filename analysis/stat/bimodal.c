/* The gap test for two groups: the widest gap between sorted values over the sd within the groups it splits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bimodal.h"

#define MAXN 256	/* more values: the first MAXN are not a sample of them; none is tested */

/* The score's 0.1% point for normal values, 400,000 draws a count (selftest/bench/bimodal_gap.c). */
static const struct {
	size_t n;
	double limit;
} limits[] = {
	{ 4, 55.20 }, { 5, 23.96 }, { 6, 14.76 }, { 7, 10.94 }, { 8, 8.51 }, { 9, 7.01 }, { 10, 6.06 },
	{ 11, 5.31 }, { 12, 4.76 }, { 13, 4.37 }, { 14, 4.02 }, { 15, 3.76 }, { 16, 3.51 }, { 18, 3.13 },
	{ 20, 2.89 }, { 24, 2.52 }, { 28, 2.28 }, { 32, 2.12 }, { 40, 1.90 }, { 48, 1.79 }, { 64, 1.64 },
};

double sb_bimodal_limit(size_t n)
{
	double l = INFINITY;

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]) && limits[i].n <= n; i++)
		l = limits[i].limit;
	return l;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

int sb_bimodal(const double *v, size_t n, struct sb_bimodal *out)
{
	double x[MAXN], c[MAXN + 1], c2[MAXN + 1];
	struct sb_bimodal b = { 0, sb_bimodal_limit(n), 0, 0, NAN, NAN };

	if (out)
		*out = (struct sb_bimodal){ NAN, b.limit, 0, 0, NAN, NAN };
	if (n < SB_BIMODAL_MIN || n > MAXN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	memcpy(x, v, n * sizeof(*x));
	qsort(x, n, sizeof(*x), cmp_double);
	c[0] = c2[0] = 0;
	for (size_t i = 0; i < n; i++) {	/* about x[0]: no cancellation between large logs */
		c[i + 1] = c[i] + (x[i] - x[0]);
		c2[i + 1] = c2[i] + (x[i] - x[0]) * (x[i] - x[0]);
	}
	b.score = -1;
	for (size_t i = 2; i + 2 <= n; i++) {
		double lo = c2[i] - c[i] * c[i] / (double)i;
		double hi = (c2[n] - c2[i]) - (c[n] - c[i]) * (c[n] - c[i]) / (double)(n - i);
		double sw = sqrt(fmax(lo + hi, 0) / (double)(n - 2)), gap = x[i] - x[i - 1];
		double g = sw > 0 ? gap / sw : gap > 0 ? INFINITY : 0;

		if (g > b.score) {
			b.score = g;
			b.nlo = i;
			b.nhi = n - i;
			b.lo = x[0] + c[i] / (double)i;
			b.hi = x[0] + (c[n] - c[i]) / (double)(n - i);
		}
	}
	if (out)
		*out = b;
	return b.score > b.limit && b.hi - b.lo >= SB_BIMODAL_MIN_APART;
}
