/* Rank statistics on sweep means: Mann-Whitney's U with its exact or normal p-value, the Hodges-Lehmann shift. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rank.h"

#define EXACT_MAX 20

static double u_of(const double *a, size_t na, const double *b, size_t nb)
{
	double u = 0;

	for (size_t j = 0; j < nb; j++)
		for (size_t i = 0; i < na; i++)
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
	return u;
}

/* Every split of v[0..n-1] into nb values and the rest: how many give a U at least as far from its mean. */
static void enumerate(const double *v, size_t n, size_t nb, double dev, double mean, double *hit, double *all)
{
	double a[EXACT_MAX], b[EXACT_MAX];

	for (unsigned long m = 0; m < (1UL << n); m++) {
		size_t na = 0, k = 0;

		if ((size_t)__builtin_popcountl(m) != nb)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (m & (1UL << i))
				b[k++] = v[i];
			else
				a[na++] = v[i];
		}
		*all += 1;
		*hit += fabs(u_of(a, na, b, nb) - mean) >= dev - 1e-9;
	}
}

int sb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p)
{
	double mean = (double)na * (double)nb / 2, hit = 0, all = 0;

	if (na == 0 || nb == 0)
		return -1;
	*u = u_of(a, na, b, nb);
	if (na + nb <= EXACT_MAX) {
		double v[EXACT_MAX];

		memcpy(v, a, na * sizeof(*a));
		memcpy(v + na, b, nb * sizeof(*b));
		enumerate(v, na + nb, nb, fabs(*u - mean), mean, &hit, &all);
		*p = hit / all;
		return 0;
	}
	{
		size_t n = na + nb, t;
		double *v = malloc(n * sizeof(*v)), ties = 0, var, z;

		if (!v) {
			errno = ENOMEM;
			return -1;
		}
		memcpy(v, a, na * sizeof(*a));
		memcpy(v + na, b, nb * sizeof(*b));
		for (size_t i = 0; i < n; i++) {
			t = 0;
			for (size_t k = 0; k < n; k++)
				t += v[k] == v[i];
			ties += (double)t * (double)t - 1;	/* each of a tie's t values adds t^2 - 1: t^3 - t a tie */
		}
		free(v);
		var = (double)na * (double)nb / 12 * ((double)n + 1 - ties / ((double)n * ((double)n - 1)));
		z = var > 0 ? (fabs(*u - mean) - 0.5) / sqrt(var) : 0;
		*p = var > 0 ? erfc((z > 0 ? z : 0) / sqrt(2)) : 1;
	}
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double sb_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na * nb, k = 0;
	double *d, m;

	if (n == 0 || (d = malloc(n * sizeof(*d))) == NULL)
		return NAN;
	for (size_t j = 0; j < nb; j++)
		for (size_t i = 0; i < na; i++)
			d[k++] = b[j] - a[i];
	qsort(d, n, sizeof(*d), cmp_double);
	m = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	free(d);
	return m;
}
