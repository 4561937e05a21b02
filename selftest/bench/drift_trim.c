/* drift_trim: the bias and the equivalent degrees of freedom of the drift estimate (trimmed mean square of successive differences). */
/*
 * The estimate (analysis/stat/drift.c): for k differences of successive
 * sweeps' means, the mean of their squares without the largest
 * sb_drift_trim(k) of them, halved. For successive N(0, 1) values this prints,
 * per k, its expectation (the bias the estimate is divided by) and its
 * equivalent degrees of freedom 2 E^2 / Var; then, for large k, the same at a
 * few sizes, to fit the formulas drift.c uses past its table.
 *
 *   cc -O2 -o drift_trim selftest/bench/drift_trim.c -lm && ./drift_trim [DRAWS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long s = 88172645463325252ULL;

static double unif(void)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return ((s >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the same rule as sb_drift_trim() */
static size_t trim(size_t k)
{
	return k >= 5 ? 2 : k >= 3 ? 1 : 0;
}

static void one(size_t k, long reps, double *x, double *d)
{
	double sum = 0, sum2 = 0, mu, var;

	for (long r = 0; r < reps; r++) {
		double e = 0;
		size_t m = k - trim(k);

		for (size_t i = 0; i <= k; i++)
			x[i] = gauss();
		for (size_t i = 0; i < k; i++)
			d[i] = (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
		qsort(d, k, sizeof(*d), cmp);
		for (size_t i = 0; i < m; i++)
			e += d[i];
		e = e / (double)m / 2;
		sum += e;
		sum2 += e * e;
	}
	mu = sum / (double)reps;
	var = sum2 / (double)reps - mu * mu;
	printf("%4zu %.4f %.3f\n", k, mu, 2 * mu * mu / var);
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 400000;
	static const size_t big[] = { 100, 200, 400, 800 };
	double *x = malloc(801 * sizeof(double)), *d = malloc(800 * sizeof(double));

	if (!x || !d || reps < 2)
		return 2;
	for (size_t k = 1; k <= 60; k++)
		one(k, reps, x, d);
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		one(big[i], reps / 10, x, d);
	free(x);
	free(d);
	return 0;
}
