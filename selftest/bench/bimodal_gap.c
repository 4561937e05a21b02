/* bimodal_gap: the gap score's upper 0.1% point for normal samples of n values (analysis/stat/bimodal.c's table). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long s = 88172645463325252ULL;
static double unif(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return ((s >> 11) + 0.5) / 9007199254740992.0; }
static double gauss(void) { return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif()); }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* The score of analysis/stat/bimodal.c: the widest gap between sorted values over the pooled sd within the two groups it splits (each of 2 or more). */
static double score(double *x, int n)
{
	double c[130], c2[130], best = 0;

	qsort(x, n, sizeof(*x), cmp);
	c[0] = c2[0] = 0;
	for (int i = 0; i < n; i++) {
		c[i + 1] = c[i] + (x[i] - x[0]);
		c2[i + 1] = c2[i] + (x[i] - x[0]) * (x[i] - x[0]);
	}
	for (int i = 2; i <= n - 2; i++) {
		double lo = c2[i] - c[i] * c[i] / i, hi = (c2[n] - c2[i]) - (c[n] - c[i]) * (c[n] - c[i]) / (n - i);
		double g = (x[i] - x[i - 1]) / sqrt((lo + hi) / (n - 2));

		best = g > best ? g : best;
	}
	return best;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 400000;
	static const int ns[] = { 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 24, 28, 32, 40, 48, 64 };
	double *sc = malloc((size_t)reps * sizeof(*sc)), x[130];

	if (!sc)
		return 1;
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		for (int r = 0; r < reps; r++) {
			for (int i = 0; i < ns[k]; i++)
				x[i] = gauss();
			sc[r] = score(x, ns[k]);
		}
		qsort(sc, (size_t)reps, sizeof(*sc), cmp);
		printf("%2d %.2f %.2f\n", ns[k], sc[(int)(reps * 0.99)], sc[(int)(reps * 0.999)]);
	}
	free(sc);
	return 0;
}
