/* A bisect step's decisions on sweeps, with the machine's drift between them: the ends' gap and the sequential test. */
#ifndef SCALEBENCH_BISECT_DECIDE_DRIFT_H
#define SCALEBENCH_BISECT_DECIDE_DRIFT_H

#include "bisect/decide.h"
#include "stat/drift.h"

/*
 * Whether the good and bad ends, each one sweep or several, differ with the
 * drift between sweeps in the test (sb_drift_compare): out->differ when the
 * two-sided p is below SB_ENDS_P; out->detectable_pct is what they detect
 * (two-sided 5%, 80% power), for the words. Not the rule on runs' "more than
 * detectable": here the guard against bisecting noise is sb_ends_decidable
 * (a step must be able to reach Wald's bound, the ends' own uncertainty in
 * it), which is the stricter one, and a gap below the detectable change,
 * yet clear, is still worth a bisect. Returns -1 when there is nothing to test.
 */
#define SB_ENDS_P 0.05
int sb_gap_check_drift(const struct sb_drift_side *good, const struct sb_drift_side *bad,
		       const struct sb_drift *d, struct sb_gap *out);

/*
 * The step's verdict from its sweeps so far (in logs), against the ends:
 * the mean of the step's sweep means has, under "good", the good end's
 * mean and the variance of both means (each (tau^2 + sigma^2 mean(1/n)) /
 * sweeps), the ends' own uncertainty included, so that it never shrinks
 * below what the ends know; the same under "bad", each a Student's t on
 * the drift's degrees of freedom (the drift's own uncertainty: a t's
 * likelihood ratio is bounded, so few degrees of freedom cannot reach a
 * verdict). The log likelihood ratio is held against Wald's bounds; no verdict
 * before rule->min_runs runs; at rule->max_runs runs without one, UNSURE
 * (git bisect's skip): a step the drift leaves undecided is skipped, never
 * guessed. tau^2 is d's, moderated by the ends' own spread when they have
 * two sweeps or more. Returns -1 for an unusable rule or ends.
 */
/*
 * --max-runs when it is not given and the drift is in the test: 96 runs, 48
 * sweeps of 2 (the rule on runs keeps SB_RULE_DEFAULT's 24). A sweep's
 * offset adds to every sweep of a step, so a step near a bound needs more
 * sweeps than runs, and sb_ends_decidable asks what this budget can decide
 * (bisect_sim.sh, ends of 3 sweeps, 1% drift, a 5% change: found in 94.7%
 * of 1000 bisects with 64, 95.6% with 96; a step's mean stays about 8 runs).
 */
#define SB_DRIFT_MAX_RUNS 96

int sb_decide_drift(const struct sb_drift_side *good, const struct sb_drift_side *bad,
		    const struct sb_drift *d, const struct sb_rule *rule,
		    const struct sb_drift_side *step, struct sb_step *out);

/*
 * The drift the bisect's earlier steps show: each a commit measured in
 * replicate sweeps (groups[i], one level), their spread about their commit's
 * mean less the runs' share, pooled over the steps: out->tau2 on out->df =
 * sum(k_i - 1) degrees of freedom. Their levels are left out (their
 * differences are the change). sb-bisect moderates its drift with it before
 * the ends' check and the step (sb_drift_moderate), so that a drift larger
 * than the figure it started from stops the bisect (the ends no longer
 * differ, or no step can decide) rather than leading it astray. 0, or -1
 * when no step has two sweeps.
 */
int sb_bisect_drift_est(const struct sb_drift_side *groups, size_t n, struct sb_drift_est *out);

/*
 * Whether a step can reach a verdict at all: a step whose sweeps (of batch
 * runs each, up to rule->max_runs runs) land exactly on the bad end's mean
 * must reach Wald's upper bound, one on the good end's its lower bound.
 * Ends too uncertain for that (the drift, few sweeps) would skip every
 * step: sb-bisect refuses them first. The step's sweeps are not measured
 * yet: they count with their degrees of freedom and the spread the ends'
 * replicate sweeps show (d's figure when the ends are one sweep each),
 * never with none (sweeps landing exactly on an end's mean would shrink
 * the drift to nothing). 1: decidable, 0: not, -1: no test.
 */
int sb_ends_decidable(const struct sb_drift_side *good, const struct sb_drift_side *bad,
		      const struct sb_drift *d, const struct sb_rule *rule, size_t batch);

#endif
