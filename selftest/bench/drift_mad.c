/* drift_mad: the bias and the equivalent degrees of freedom of the drift estimate (MAD of successive differences). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long s = 88172645463325252ULL;
static double unif(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return ((s >> 11) + 0.5) / 9007199254740992.0; }
static double gauss(void) { return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif()); }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double med(double *v, int k) { qsort(v, k, sizeof(*v), cmp); return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2; }

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 200000;
	double x[130], d[130];

	for (int k = 1; k <= 40; k++) {
		double sum = 0, sum2 = 0;
		for (int r = 0; r < reps; r++) {
			for (int i = 0; i <= k; i++)
				x[i] = gauss();
			for (int i = 0; i < k; i++)
				d[i] = fabs(x[i + 1] - x[i]);
			double m = med(d, k) / 0.6744897501960817;
			double e = m * m / 2;
			sum += e;
			sum2 += e * e;
		}
		double mu = sum / reps, var = sum2 / reps - mu * mu;
		printf("%2d %.4f %.3f\n", k, mu, 2 * mu * mu / var);
	}
	return 0;
}
