/* Descriptive statistics and Student's t, shared by the runner tools and compare. */
#ifndef SCALEBENCH_STATS_H
#define SCALEBENCH_STATS_H

#include <stddef.h>

struct sb_stats {
	size_t n;
	double mean;
	double stddev;		/* sample standard deviation, n - 1; 0 when n < 2 */
	double median;		/* middle value, mean of the two middle ones for even n */
	double min, max;
};

/*
 * The one independence rule: a point measured in this many runs or more is
 * described by its runs' means (independent values); below, by its samples.
 * Used by sb-summary, sb-compare and (through them) the plots.
 */
#define SB_INDEPENDENT_RUNS 2
static inline int sb_runs_independent(size_t nruns)
{
	return nruns >= SB_INDEPENDENT_RUNS;
}

/* Summarise v[0..n-1] (v is not modified). Returns -1 when n == 0. */
int sb_stats_compute(const double *v, size_t n, struct sb_stats *out);

/*
 * Two-sided Student's t quantile for confidence level `conf` in percent
 * (80, 90, 95, 98, 99 or 99.5) and `df` degrees of freedom, to three
 * decimals as in ministat's table: df 1..100 exact rows, above that the
 * infinity row. (ministat's 99.5 column holds 99.8% quantiles; here it is
 * the true 99.5%.) Returns a negative number for an unknown level or df == 0.
 */
double sb_student_t(double conf, unsigned long df);

/*
 * Half-width of the conf% confidence interval of the mean: t * s / sqrt(n);
 * 0 when n < 2, negative for an unknown level.
 */
double sb_ci_halfwidth(const struct sb_stats *s, double conf);

/*
 * sb_stats_compute that also gives the variance (n - 1; 0 when n < 2)
 * unrounded and, when `sorted` is not NULL, v in ascending order in
 * sorted[0..n-1]. The mean sums v in the order given. With `sorted` the
 * variance sums the squared deviations in ascending order, which is
 * ministat's arithmetic: its figures come out the same to the last printed
 * digit; without, it sums them in the order given and the median is found
 * without sorting (linear time). Returns -1 when n == 0 or (errno ENOMEM)
 * when memory runs out.
 */
int sb_stats_compute_var(const double *v, size_t n, struct sb_stats *out,
			 double *var, double *sorted);

/*
 * The mean and variance (n - 1; 0 below 2 values) of the values of
 * parts[0..np-1] taken one after the other as one sample (part i: v[i][0..n[i]-1]),
 * summed in that order: the digits sb_stats_compute_var gives for the same
 * values in one array, without its copy and median. Returns -1 when there is no value.
 */
int sb_mean_var(const double *const *v, const size_t *n, size_t np, size_t *count, double *mean,
		double *var);

/* Student's t comparison of a data set against a baseline, as ministat does it. */
struct sb_tdiff {
	unsigned long df;	/* n + n0 - 2 */
	double t;		/* two-sided quantile for df */
	double pooled_s;	/* sqrt(((n-1)var + (n0-1)var0) / df) */
	double diff;		/* mean - mean0 */
	double halfwidth;	/* t * pooled_s * sqrt(1/n + 1/n0) */
	double rel_pct;		/* 100 * diff / mean0 */
	double rel_halfwidth_pct; /* 100 * re / mean0, re the error of the ratio */
	int significant;	/* |diff| > halfwidth: ministat's "Difference at" test */
	/*
	 * |rel_pct| > rel_halfwidth_pct: the relative interval excludes 0. The
	 * two tests can disagree near the edge (the ratio's error is wider for a
	 * gain than for a loss); a verdict printed next to the relative interval
	 * uses this one, so that "faster +7.15% +/- 7.27%" cannot be printed.
	 */
	int rel_significant;
	/*
	 * rel_se_pct = rel_halfwidth_pct / t, the relative change's standard
	 * error; p the two-sided p-value of the difference of the means
	 * (diff / (halfwidth / t) is Student's t with df degrees of freedom when
	 * the means are equal; the relative interval excludes 0 about when p is
	 * below the level, not exactly). null_se_pct is the relative change's
	 * standard error from each side's relative spread, sqrt(var0 / (n0
	 * mean0^2) + var / (n mean^2)) in %: what the smallest detectable
	 * change is made of (it does not grow with the change itself).
	 */
	double rel_se_pct, p, null_se_pct;
};

/*
 * Compare data set (n, mean, var) against baseline (n0, mean0, var0) at
 * `conf` percent. Returns -1 for an unknown level or when n + n0 < 3.
 */
int sb_tdiff(size_t n0, double mean0, double var0, size_t n, double mean,
	     double var, double conf, struct sb_tdiff *out);

/*
 * I_x(a, b), the regularized incomplete beta function (a, b > 0, 0 <= x <=
 * 1), by its continued fraction; NAN outside the domain.
 */
double sb_betai(double a, double b, double x);

/* P(T <= t) for Student's t with df > 0 degrees of freedom (df need not be whole). */
double sb_student_cdf(double t, double df);

/* Two-sided p-value of t: P(|T| >= |t|). */
double sb_student_p2(double t, double df);

/* The q-quantile of Student's t (0 < q < 1), to about 1e-10; NAN outside. */
double sb_student_quantile(double q, double df);

/* The same by plain bisection, every step computed: the reference the fast one must equal bit for bit. */
double sb_student_quantile_bisect(double q, double df);

/*
 * The smallest true change a two-sided test at level alpha detects with
 * probability `power`, in the units of se: (t(1 - alpha/2) + t(power)) * se
 * at df degrees of freedom. NAN when df <= 0 or alpha is not in (0, 1).
 */
double sb_detectable(double se, double df, double alpha, double power);

/* Two-sample Student's t on (n0, mean0, var0) and (n, mean, var): pooled variance. */
struct sb_ttest {
	double diff;		/* mean - mean0 */
	double se;		/* pooled_s * sqrt(1/n + 1/n0) */
	double df;		/* n + n0 - 2 */
	double t, p;		/* diff / se and its two-sided p-value (1 when se is 0 and diff 0) */
};

/* Returns -1 when n or n0 is 0 or n + n0 < 3. */
int sb_ttest2(size_t n0, double mean0, double var0, size_t n, double mean, double var,
	      struct sb_ttest *out);

/*
 * Multiple comparisons: which of n hypotheses with p-values p[] to reject
 * so that the family's error stays at alpha. reject[i] is set to 1 or 0,
 * adj[i] (when not NULL) to the adjusted p-value (reject[i] iff adj[i] <=
 * alpha); returns how many are rejected. A NAN p-value is never rejected
 * and does not count in the family.
 *
 * sb_holm: Holm's step-down, weighted: the hypotheses are taken in order of
 * p[i] / w[i]; the next one is rejected when p[i] <= alpha * w[i] / (the sum
 * of the weights not yet rejected), and the first that is not stops the
 * procedure. Controls the family-wise error rate (the chance of any false
 * rejection) under any dependence. w == NULL: equal weights, Holm's own.
 *
 * sb_bh: Benjamini-Hochberg's step-up: with m p-values sorted, the largest
 * k with p(k) <= k * alpha / m and every p at or below p(k) are rejected.
 * Controls the false discovery rate (for independent or positively
 * dependent tests); under the complete null its family-wise rate is alpha.
 *
 * Both return -1 (errno ENOMEM) when memory runs out.
 */
int sb_holm(const double *p, const double *w, size_t n, double alpha, int *reject, double *adj);
int sb_bh(const double *p, size_t n, double alpha, int *reject, double *adj);

#endif
