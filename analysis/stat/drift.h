/* The machine's drift between sweeps: a sweep's own offset, estimated from series of sweeps, pooled, moderated by a prior. */
#ifndef SCALEBENCH_DRIFT_H
#define SCALEBENCH_DRIFT_H

#include <stddef.h>

/*
 * The model (docs/HISTORY.md "The model", docs/COMPARE.md "Machine drift"):
 * a run's log value = level + its sweep's offset (sd tau, shared by the
 * sweep's runs and points) + the run's own noise (sd sigma). A sweep's mean
 * log has variance tau^2 + sigma^2 / n: the sweep, not the run, is the
 * independent value of every verdict that compares sweeps.
 */

/* With nothing learned: a sweep's offset sd of 2%, worth 2 degrees of freedom. */
#define SB_DRIFT_DEFAULT_PCT 2.0
#define SB_DRIFT_DEFAULT_DF 2.0
/*
 * A testbed's figure pooled over many series counts as this many degrees of
 * freedom at most when it is the prior of one series: its series share
 * their sweeps (a sweep's offset moves all its points), so they are not
 * independent estimates, and a series' own history must still be able to
 * move it.
 */
#define SB_DRIFT_PRIOR_MAXDF 10.0

/* One sweep of a series, in log units. */
struct sb_drift_sweep {
	double mean;		/* mean of its runs' log values */
	double var;		/* their variance (n - 1); 0 when n < 2 */
	size_t n;		/* runs */
	const char *boot;	/* its boot's id; NULL or "": unknown */
};

/* An estimate of tau^2 (log units squared) and what it rests on. */
struct sb_drift_est {
	double tau2;		/* the sweep offset's variance, >= 0 */
	double df;		/* its degrees of freedom (0: nothing known) */
	size_t pairs;		/* consecutive sweep pairs it was made from */
	size_t sweeps;		/* sweeps behind those pairs */
	double sigma2;		/* the runs' variance inside the series' sweeps (log units squared), */
	double sigma_df;	/* pooled over its sweeps with runs: sum of n - 1 (0: none) */
};

enum { SB_DRIFT_WITHIN, SB_DRIFT_ACROSS };	/* one boot, or two (or unknown) */

/*
 * Estimate tau^2 from a series' sweeps in order (s[0] oldest). Each pair of
 * consecutive sweeps gives a difference of means, whose variance with no
 * change between them is 2 tau^2 + sigma^2 (1/n_i + 1/n_j); their scale is
 * the mean square of the differences without the largest sb_drift_trim(k)
 * (one step makes one large difference, one bad sweep two: neither inflates
 * it, while bursts that recur do), corrected for its small-sample bias; the
 * runs' share, sigma^2 pooled inside the sweeps, is subtracted. Pairs
 * whose two sweeps have one boot go to est[SB_DRIFT_WITHIN], the others to
 * est[SB_DRIFT_ACROSS]. Returns 0, or -1 (errno ENOMEM).
 */
int sb_drift_series(const struct sb_drift_sweep *s, size_t n, struct sb_drift_est est[2]);

/*
 * sb_drift_series in two steps, for a series estimated again without some of
 * its sweeps: the order of s's counted pairs (pair i: sweeps i and i + 1) by
 * their difference into order[n] (returns their count; (size_t)-1: no
 * memory); then the estimate of s again with some sweeps' n set to 0 (means
 * unchanged), from that order: the same figures as sb_drift_series, no sort.
 */
size_t sb_drift_series_order(const struct sb_drift_sweep *s, size_t n, size_t *order);
int sb_drift_series_sorted(const struct sb_drift_sweep *s, size_t n, const size_t *order, size_t norder,
			   struct sb_drift_est est[2]);

/* How many of k differences the estimate leaves out: 0, 1 (3-4), 2 (5 or more). */
size_t sb_drift_trim(size_t k);

/*
 * The trimmed estimate's bias (its expectation over the true variance) and
 * equivalent degrees of freedom for k differences of successive normal
 * values (by simulation: selftest/bench/drift_trim.c).
 */
double sb_drift_est_bias(size_t k);
double sb_drift_est_df(size_t k);

/* acc += e, weighted by degrees of freedom. */
void sb_drift_pool(struct sb_drift_est *acc, const struct sb_drift_est *e);

enum sb_drift_source {
	SB_DRIFT_NONE,		/* --drift 0: the runs inside each sweep only (a machine known to hold still) */
	SB_DRIFT_GIVEN,		/* --drift PCT */
	SB_DRIFT_DEFAULT,	/* nothing learned: SB_DRIFT_DEFAULT_PCT */
	SB_DRIFT_LEARNED,	/* the history and/or the comparison's replicate sweeps, moderated */
};

/* The drift a verdict uses: tau^2 with its degrees of freedom (INFINITY: taken as exact). */
struct sb_drift {
	double tau2, df;
	enum sb_drift_source src;
	char what[240];		/* where it came from, in words ("the default, taken as known: ...") */
	double weight;		/* its degrees of freedom as the prior of more data: d0 + d of the figures
				 * moderated into it (0: df). Not df, which the default's "taken as known"
				 * makes large: a step's sweeps must still move a figure learned on few */
	double sigma2, sigma_df;	/* the runs' variance inside a sweep learned with it (the series' own
				 * sweeps, at most SB_DRIFT_PRIOR_MAXDF df): the prior of the sides' own
				 * runs' variance (sb_drift_runs_var); sigma_df 0: none */
};

/* No drift: the runs inside each sweep are the independent values (the arithmetic before the model). */
#define SB_DRIFT_NONE_INIT { 0, 0, SB_DRIFT_NONE, "none: the runs are the independent values", 0, 0, 0 }

/* --drift PCT (0: SB_DRIFT_NONE). */
void sb_drift_given(double pct, struct sb_drift *d);
/* The documented default: 2%, 2 df. */
void sb_drift_default(struct sb_drift *d);

/*
 * The moderated figure (an empirical-Bayes variance, Smyth 2004):
 * tau^2 = (d0 tau0^2 + d tau_d^2) / (d0 + d) on d0 + d degrees of freedom,
 * prior (tau0, d0) and data (tau_d, d). A GIVEN or NONE prior is kept as it
 * is. what names the data ("9 sweeps of unix1 on this testbed"); out->what
 * becomes the whole sentence.
 */
void sb_drift_moderate(const struct sb_drift *prior, const struct sb_drift_est *data,
		       const char *what, struct sb_drift *out);

/*
 * The runs' variance inside e's sweeps (e->sigma2 on e->sigma_df) into out
 * as the prior of the compared sweeps' own runs (sb_drift_runs_var), counted
 * as at most SB_DRIFT_PRIOR_MAXDF degrees of freedom: on a busy machine the
 * runs' noise differs from sweep to sweep, and the compared sweeps' runs
 * must still be able to move it. Nothing when e has none, or out is GIVEN
 * or NONE. sb_drift_moderate calls it with its data.
 */
void sb_drift_runs_prior(const struct sb_drift_est *e, struct sb_drift *out);

/* "machine drift between sweeps: +/-2.1% sd, 14 sweeps of this series across boots ..., 9 df" */
void sb_drift_words(const struct sb_drift *d, char *buf, size_t len);

/*
 * The degrees of freedom of tau^2 moderated from prior (d0 = prior->df) and
 * data (tau_d2 on d df) into post: d0 + d; but the documented default is
 * taken as known (as it is alone), so only the learned part's uncertainty
 * counts: (d0 + d)^2 post^2 / (d tau_d2^2) (infinite for no data, or data of
 * no drift). No cliff: a little learned does not make a verdict less sure
 * than the default alone, unless the data disagree with it.
 */
double sb_drift_moderated_df(const struct sb_drift *prior, double d, double tau_d2, double post);

/*
 * The runs' variance inside the compared sweeps: their own (wss over wdf
 * degrees of freedom) moderated by the figure learned with d (Smyth's
 * formula again, d->sigma_df as d0), so that a few runs that happen to be
 * tight do not stand for the machine's noise; but never below their own
 * (a bad sweep's noise is its own: the sweeps' own figure on wdf df then).
 * Its degrees of freedom into *df. SB_DRIFT_NONE (--drift 0, the runs
 * alone) and no learned figure: the sides' own. 0 with *df 0 when nothing
 * is known.
 */
double sb_drift_runs_var(const struct sb_drift *d, double wss, double wdf, double *df);

/* tau as a percentage (the relative sd of a sweep's offset). */
double sb_drift_pct(const struct sb_drift *d);


/* ---- the test of two sides of sweeps with the drift in it ---- */

struct sb_drift_side {
	const struct sb_drift_sweep *sw;	/* its sweeps, in the order they were measured */
	size_t k;
};

struct sb_drift_test {
	double est_pct, lo_pct, hi_pct;	/* b against a (ratio of geometric means) and its interval */
	double diff, se, df, t, p;	/* in log units; p two-sided */
	double detectable_pct;		/* the change found with SB_POWER at the level (two-sided) */
	double tau2, tau_df;		/* the drift used (moderated by the sides' own replicate sweeps) */
	double sigma2, sigma_df;	/* the runs' variance inside the sweeps (sb_drift_runs_var) */
	int paired;			/* 1: tested as pairs of sweeps measured one after the other */
};

/*
 * Side b against side a at conf percent (two-sided), the sweep the unit:
 * each side's mean is the mean of its sweeps' mean logs, whose variance is
 * (tau^2 + sigma^2 mean(1/n)) / k; tau^2 is d's, moderated by the spread of
 * each side's sweeps around their side's mean when a side has two or more
 * (d0 = d->df); the degrees of freedom are Welch-Satterthwaite's over the
 * drift's and the runs' parts. paired (both sides the same k >= 3, measured
 * a b a b ...): the paired t of the k differences, k - 1 df (the drift a
 * pair shares cancels). Returns 0, or -1 when there is nothing to test
 * (a side without a sweep with a run, or no degrees of freedom).
 */
int sb_drift_compare(const struct sb_drift_side *a, const struct sb_drift_side *b,
		     const struct sb_drift *d, int paired, double conf, double power,
		     struct sb_drift_test *out);

#endif
