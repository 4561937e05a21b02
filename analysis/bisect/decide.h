/* The decisions of a bisect step: whether the two ends differ, and a sequential test of one commit's runs. */
#ifndef SCALEBENCH_BISECT_DECIDE_H
#define SCALEBENCH_BISECT_DECIDE_H

#include <stddef.h>

/* One side's values at the point: its run means (independent values), summarised. */
struct sb_side {
	size_t n;
	double mean;
	double var;		/* n - 1; 0 when n < 2 */
};

/* Fill s from v[0..n-1] (stats.c's arithmetic). Returns -1 when n == 0. */
int sb_side_of(const double *v, size_t n, struct sb_side *s);

/* Whether the good and bad ends differ by more than their runs can detect. */
struct sb_gap {
	double change_pct;	/* 100 (bad - good) / good */
	double detectable_pct;	/* smallest change the ends' runs detect (two-sided 5%, 80% power), % of good */
	double p;		/* two-sided p-value of the difference (Student's t, pooled) */
	int differ;		/* |change| > detectable */
};

/* Returns -1 when a side has fewer than 2 values or a mean is not positive. */
int sb_gap_check(const struct sb_side *good, const struct sb_side *bad, struct sb_gap *out);

/*
 * The sequential test of a step: Wald's sequential probability ratio test
 * between "this commit's runs come from the good end's level" and "from the
 * bad end's", runs normal with one spread, the spread pooled from both ends'
 * runs and the step's own. The log likelihood ratio after k runs x_i is
 * (mu_bad - mu_good) / s^2 * sum(x_i - (mu_good + mu_bad) / 2); the step is
 * bad once it reaches log((1 - beta) / alpha), good once it falls to
 * log(beta / (1 - alpha)). No verdict before min_runs; at max_runs without
 * one: UNSURE (git bisect's skip).
 */
struct sb_rule {
	double alpha;		/* chance to call a good commit bad (default 0.002) */
	double beta;		/* chance to call a bad commit good (default 0.002) */
	size_t min_runs;	/* runs before any verdict (default 2) */
	size_t max_runs;	/* the cap (default 24) */
};

#define SB_RULE_DEFAULT { 0.002, 0.002, 2, 24 }

enum sb_verdict { SB_V_MORE, SB_V_GOOD, SB_V_BAD, SB_V_UNSURE };
extern const char *const sb_verdict_name[4];	/* "more runs", "good", "bad", "cannot tell" */

struct sb_step {
	enum sb_verdict v;
	size_t k;		/* the step's runs */
	double mean;		/* their mean */
	double llr, lo, hi;	/* the log likelihood ratio and its two bounds */
	double sd;		/* the pooled spread used */
	double position;	/* where the mean lies: 0 at the good end's mean, 1 at the bad end's */
};

/* Wald's verdict for a log likelihood ratio out->llr after runs runs (out->lo, out->hi set): out->v. */
void sb_rule_verdict(const struct sb_rule *rule, size_t runs, struct sb_step *out);

/*
 * The verdict after the step's runs x[0..k-1]. Returns -1 for an unusable
 * rule (alpha, beta outside (0, 0.5), min_runs 0, max_runs < min_runs) or
 * ends (a side with < 2 values, equal means).
 */
int sb_decide(const struct sb_side *good, const struct sb_side *bad, const struct sb_rule *rule,
	      const double *x, size_t k, struct sb_step *out);

#endif
