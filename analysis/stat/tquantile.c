/* Student's t quantile (the bisection on the distribution function, and the same bits in a fraction of its steps) and the detectable change. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats.h"

/*
 * The quantile as the reference bisection below finds it (the same bits): a
 * bisection on the computed distribution function, from [0, the first power
 * of two at or above the quantile], until the bracket is 1e-12 of its top.
 */
static double quantile_bisect(double q, double df)
{
	double lo = 0, hi = 1;

	while (sb_student_cdf(hi, df) < q && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (sb_student_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The logarithm of the density of Student's t at 0 (its constant). */
static double student_logc(double df)
{
	return lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);
}

/*
 * The quantile (q >= 0.5) by Newton's method on log P(T > x) against log x
 * (nearly a line in the tail). The start: the normal quantile (Abramowitz and
 * Stegun 26.2.23, then one Newton step on erfc) and three Cornish-Fisher
 * terms. *dens the density there. NAN when it does not settle.
 */
static double quantile_newton(double q, double df, double *dens)
{
	double p = 1 - q, w = sqrt(-2 * log(p)), z, z2, x, logc = student_logc(df);

	z = w - (2.515517 + w * (0.802853 + w * 0.010328)) /
		(1 + w * (1.432788 + w * (0.189269 + w * 0.001308)));
	if (!(z > 0.05))
		return NAN;
	z += (0.5 * erfc(z / M_SQRT2) - p) / (exp(-z * z / 2) / sqrt(2 * M_PI));
	z2 = z * z;
	x = z + z * (z2 + 1) / (4 * df) + z * (5 * z2 * z2 + 16 * z2 + 3) / (96 * df * df) +
	    z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * df * df * df);
	if (!(x > 0) || !isfinite(x))
		x = z;
	for (int i = 0; i < 40; i++) {
		double tail = sb_student_p2(x, df) / 2, step;

		*dens = exp(logc - (df + 1) / 2 * log1p(x * x / df));
		if (!(tail > 0) || !(*dens > 0) || !isfinite(x))
			return NAN;
		/* u = log x: d log(tail) / du = -x f(x) / tail */
		step = (log(tail) - log(p)) * tail / (x * *dens);
		step = fmax(-2.0, fmin(2.0, step));
		x *= exp(step);
		if (fabs(step) < 1e-8)	/* quadratic convergence: x is now good to about 1e-16 */
			return x;
	}
	return NAN;
}

/* The bisection's predicate at x: known below lo (true) and above hi (false), computed between. */
static int below(double x, double lo, double hi, double q, double df)
{
	if (x < lo)
		return 1;
	if (x > hi)
		return 0;
	return sb_student_cdf(x, df) < q;
}

/*
 * quantile_bisect's result with a fraction of its evaluations: Newton's method
 * finds the quantile x, then a band [lo, hi] around it is checked to hold the
 * crossing with a margin m far above the distribution function's rounding
 * (F(lo) <= q - m, F(hi) >= q + m, F monotone): outside the band every
 * comparison the bisection makes is then known, and only those inside it are
 * computed, so the steps and the result are the bisection's own. Any doubt
 * (no convergence, the band not confirmed) falls back to the bisection.
 */
static double quantile_fast(double q, double df)
{
	double dens = 0, x = quantile_newton(q, df, &dens), m, r, lo, hi, blo = 0, bhi = 1;
	int ok = 0;

	if (!isfinite(x))
		return quantile_bisect(q, df);
	/*
	 * The rounding of F in x (its factor in df alone does not move with x):
	 * a few ulps of the continued fraction, df / 2 times log's ulp, and 1 - tail's;
	 * m is 100 times the first, 20 times the second, 10 times the last.
	 */
	m = (1e-12 + 1e-15 * df) * (1 - q) + 2e-15;
	r = fmax(4 * m / (dens * x), 1e-12);
	for (int i = 0; i < 8 && !ok; i++, r *= 8) {
		lo = x * (1 - r);
		hi = x * (1 + r);
		ok = sb_student_cdf(lo, df) <= q - m && sb_student_cdf(hi, df) >= q + m;
	}
	if (!ok)
		return quantile_bisect(q, df);
	while (below(bhi, lo, hi, q, df) && bhi < 1e300)
		bhi *= 2;
	for (int i = 0; i < 200 && bhi - blo > 1e-12 * bhi; i++) {
		double mid = (blo + bhi) / 2;

		if (below(mid, lo, hi, q, df))
			blo = mid;
		else
			bhi = mid;
	}
	return (blo + bhi) / 2;
}

/* The last quantiles asked for, by (q, df): a report asks for the same ones many times (one thread: the analysis tools have no other). */
#define QCACHE 8192
static struct {
	double q, df, x;
} qcache[QCACHE];

double sb_student_quantile(double q, double df)
{
	uint64_t bq, bd, h;
	double x;

	if (!(q > 0) || !(q < 1) || !(df > 0))
		return NAN;
	if (q < 0.5)
		return -sb_student_quantile(1 - q, df);
	memcpy(&bq, &q, sizeof(bq));
	memcpy(&bd, &df, sizeof(bd));
	h = (bq * 0x9e3779b97f4a7c15ULL ^ bd) * 0xff51afd7ed558ccdULL;
	h = (h >> 40) % QCACHE;
	if (qcache[h].q == q && qcache[h].df == df)
		return qcache[h].x;
	x = quantile_fast(q, df);
	qcache[h].q = q;
	qcache[h].df = df;
	qcache[h].x = x;
	return x;
}

/* The reference: every comparison computed (selftest/compare_stats.t checks quantile_fast against it). */
double sb_student_quantile_bisect(double q, double df)
{
	if (!(q > 0) || !(q < 1) || !(df > 0))
		return NAN;
	if (q < 0.5)
		return -sb_student_quantile_bisect(1 - q, df);
	return quantile_bisect(q, df);
}

double sb_detectable(double se, double df, double alpha, double power)
{
	if (!(df > 0) || !(alpha > 0) || !(alpha < 1) || !(power > 0) || !(power < 1))
		return NAN;
	return (sb_student_quantile(1 - alpha / 2, df) + sb_student_quantile(power, df)) * se;
}
