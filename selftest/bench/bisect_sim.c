/* bisect_sim.c: bisect_sim.sh's driver, the bisect decision rule (analysis/bisect/decide.c) on synthetic noise, no runner. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/decide.h"
#include "bisect/decide_drift.h"

#define MAXRUNS 64
#define MAXENDS 200
#define BATCH 2		/* runs a sweep, as analysis/bisect/step.c takes them */

struct cell {
	double change, sd, drift;	/* fractions: the step's size, a run's sd, a sweep's offset sd */
	long commits, ends, trials;
	unsigned long long seed;
	long end_sweeps;		/* each end's runs in this many sweeps, each its own offset */
	long hist;			/* sweeps of the good level in the history the drift is learned from */
	int model;			/* 0: runs (sb_decide), 1: sweeps with drift (sb_decide_drift) */
};

struct tally {
	long right, wrong, refused, unresolved, skips, steps, runs, maxrun;
};

static unsigned long long rs;

static double urand(void)
{
	rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(rs >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(urand())) * cos(2 * M_PI * urand());
}

/* n runs of one sweep at level mu: a run's noise and the sweep's own offset. */
static void sweep(double mu, const struct cell *c, double *v, size_t n)
{
	double off = c->drift * gauss();

	for (size_t i = 0; i < n; i++)
		v[i] = mu * (1 + off + c->sd * gauss());
}

/* One step at commit i (first bad commit fb): runs until the rule decides. */
static enum sb_verdict step(const struct cell *c, const struct sb_side *g, const struct sb_side *b,
			    long i, long fb, struct tally *t)
{
	const struct sb_rule rule = SB_RULE_DEFAULT;
	double mu = i >= fb ? 1 - c->change : 1, off = 0, x[MAXRUNS];
	struct sb_step s;
	size_t k = 0;

	do {
		if (k % BATCH == 0)	/* each runtest.sh sweep of a step: BATCH runs, its own offset */
			off = c->drift * gauss();
		x[k] = mu * (1 + off + c->sd * gauss());
		k++;
		if (sb_decide(g, b, &rule, x, k, &s) < 0) {
			fprintf(stderr, "bisect_sim: sb_decide refused its input\n");
			exit(3);
		}
	} while (s.v == SB_V_MORE && k < MAXRUNS);
	t->runs += (long)k;
	t->steps++;
	if ((long)k > t->maxrun)
		t->maxrun = (long)k;
	return s.v;
}

#define MAXSW 64

/* k runs in one sweep at level mu (in logs: its mean, variance, runs) */
static struct sb_drift_sweep log_sweep(double mu, const struct cell *c, size_t n)
{
	double off = c->drift * gauss(), v[MAXRUNS], sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		v[i] = log(mu * (1 + off + c->sd * gauss()));
		sum += v[i];
	}
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - sum / (double)n) * (v[i] - sum / (double)n);
	return (struct sb_drift_sweep){ sum / (double)n, n > 1 ? ss / (double)(n - 1) : 0, n, NULL };
}

/* One step in the sweeps model: a sweep of BATCH runs at a time until the rule decides. */
/* The bisect's steps so far, each a commit's sweeps: they moderate the drift as in sb-bisect. */
#define MAXSTEPS 64
struct past {
	struct sb_drift_sweep sw[MAXSTEPS][MAXSW];
	struct sb_drift_side g[MAXSTEPS];
	size_t n;
};

/* d moderated by the bisect's earlier steps (sb_bisect_drift_est), into out. */
static void with_past(const struct sb_drift *d, const struct past *p, struct sb_drift *out)
{
	struct sb_drift_est e;

	*out = *d;
	if (sb_bisect_drift_est(p->g, p->n, &e) == 0)
		sb_drift_moderate(d, &e, "the bisect's steps", out);
}

/* The ends checked as sb-bisect checks them at every step: 1 to go on. */
static int ends_ok(const struct sb_drift_side *g, const struct sb_drift_side *b, const struct sb_drift *d)
{
	struct sb_rule rule = SB_RULE_DEFAULT;
	struct sb_gap gap;

	rule.max_runs = SB_DRIFT_MAX_RUNS;	/* sb-bisect's default with the drift */
	return sb_gap_check_drift(g, b, d, &gap) == 0 && gap.differ && sb_ends_decidable(g, b, d, &rule, BATCH) == 1;
}

/* One step in the sweeps model: a sweep of BATCH runs at a time until the rule decides; its sweeps kept in p. */
static enum sb_verdict step_drift(const struct cell *c, const struct sb_drift_side *g,
				  const struct sb_drift_side *b, const struct sb_drift *d, long i, long fb,
				  struct tally *t, struct past *p)
{
	struct sb_rule rule = SB_RULE_DEFAULT;
	double mu = i >= fb ? 1 - c->change : 1;
	struct sb_drift_sweep *sw = p->sw[p->n < MAXSTEPS ? p->n : MAXSTEPS - 1];
	struct sb_drift_side x = { sw, 0 };
	struct sb_step s;

	rule.max_runs = SB_DRIFT_MAX_RUNS;
	do {
		sw[x.k++] = log_sweep(mu, c, BATCH);
		if (sb_decide_drift(g, b, d, &rule, &x, &s) < 0) {
			fprintf(stderr, "bisect_sim: sb_decide_drift refused its input\n");
			exit(3);
		}
	} while (s.v == SB_V_MORE && x.k < MAXSW);
	if (p->n < MAXSTEPS)
		p->g[p->n++] = x;
	t->runs += (long)s.k;
	t->steps++;
	if ((long)s.k > t->maxrun)
		t->maxrun = (long)s.k;
	return s.v;
}

/* The drift as sb-bisect learns it: the default, moderated by a history of c->hist sweeps. */
static void learn_drift(const struct cell *c, struct sb_drift *d)
{
	struct sb_drift_sweep h[256];
	struct sb_drift_est e[2];

	sb_drift_default(d);
	if (c->hist < 2)
		return;
	for (long i = 0; i < c->hist && i < 256; i++)
		h[i] = log_sweep(1, c, 3);
	sb_drift_series(h, (size_t)(c->hist < 256 ? c->hist : 256), e);
	sb_drift_moderate(d, &e[SB_DRIFT_ACROSS], "the history", d);
}

/* The commit git would test in (lo, hi): the middle, or the nearest not skipped; -1 when none. */
static long pick(long lo, long hi, const unsigned char *skipped)
{
	long mid = lo + (hi - lo) / 2;

	for (long d = 0; d < hi - lo; d++) {
		if (mid + d < hi && !skipped[mid + d])
			return mid + d;
		if (mid - d > lo && !skipped[mid - d])
			return mid - d;
	}
	return -1;
}

static void bisect_once(const struct cell *c, unsigned char *skipped, struct tally *t)
{
	double gv[MAXENDS], bv[MAXENDS];
	struct sb_side g, b;
	struct sb_gap gap;
	struct sb_drift_sweep gs[MAXSW], bs[MAXSW];
	struct sb_drift_side gd = { gs, 0 }, bd = { bs, 0 };
	struct sb_drift d, dp;
	static struct past past;
	long fb = 1 + (long)(urand() * (double)c->commits), lo = 0, hi = c->commits + 1, i;

	if (fb > c->commits)
		fb = c->commits;
	if (c->model) {
		size_t per = (size_t)(c->ends / c->end_sweeps);

		for (long k = 0; k < c->end_sweeps; k++) {
			gs[gd.k++] = log_sweep(1, c, per);
			bs[bd.k++] = log_sweep(1 - c->change, c, per);
		}
		learn_drift(c, &d);
		past.n = 0;
		if (!ends_ok(&gd, &bd, &d)) {
			t->refused++;
			return;
		}
	} else {
		for (long k = 0; k < c->end_sweeps; k++) {
			size_t per = (size_t)(c->ends / c->end_sweeps);

			sweep(1, c, gv + k * (long)per, per);
			sweep(1 - c->change, c, bv + k * (long)per, per);
		}
		sb_side_of(gv, (size_t)c->ends, &g);
		sb_side_of(bv, (size_t)c->ends, &b);
		if (sb_gap_check(&g, &b, &gap) < 0 || !gap.differ) {
			t->refused++;
			return;
		}
	}
	memset(skipped, 0, (size_t)c->commits + 2);
	/* commits 1..commits lie between the good end (0) and the bad end (commits + 1) */
	while (hi - lo > 1) {
		if ((i = pick(lo, hi, skipped)) < 0) {
			t->unresolved++;
			return;
		}
		if (c->model) {	/* each step checks the ends again, the drift moderated by the steps before */
			with_past(&d, &past, &dp);
			if (past.n && !ends_ok(&gd, &bd, &dp)) {
				t->refused++;
				return;
			}
		}
		switch (c->model ? step_drift(c, &gd, &bd, &dp, i, fb, t, &past) : step(c, &g, &b, i, fb, t)) {
		case SB_V_GOOD: lo = i; break;
		case SB_V_BAD: hi = i; break;
		default: skipped[i] = 1; t->skips++; break;
		}
	}
	t->right += hi == fb;
	t->wrong += hi != fb;
}

int main(int argc, char **argv)
{
	struct cell c = { 0.03, 0.02, 0, 1024, 20, 200, 1, 1, 0, 0 };
	struct tally t = { 0 };
	unsigned char *skipped;

	if (argc != 8 && argc != 11) {
		fprintf(stderr, "usage: bisect_sim CHANGE_PCT SD_PCT DRIFT_PCT COMMITS END_RUNS TRIALS SEED "
			"[END_SWEEPS HIST MODEL]\n");
		return 2;
	}
	if (argc == 11) {
		c.end_sweeps = atol(argv[8]);
		c.hist = atol(argv[9]);
		c.model = strcmp(argv[10], "drift") == 0;
	}
	c.change = atof(argv[1]) / 100;
	c.sd = atof(argv[2]) / 100;
	c.drift = atof(argv[3]) / 100;
	c.commits = atol(argv[4]);
	c.ends = atol(argv[5]);
	c.trials = atol(argv[6]);
	c.seed = strtoull(argv[7], NULL, 10);
	if (c.commits < 1 || c.ends < 2 || c.ends > MAXENDS || c.trials < 1 || c.end_sweeps < 1 ||
	    c.end_sweeps > MAXSW || c.ends / c.end_sweeps < 1 || c.hist < 0) {
		fprintf(stderr, "bisect_sim: COMMITS >= 1, END_RUNS 2..%d, TRIALS >= 1\n", MAXENDS);
		return 2;
	}
	rs = c.seed * 0x9e3779b97f4a7c15ULL + 1;
	skipped = malloc((size_t)c.commits + 2);
	if (!skipped)
		return 3;
	for (long i = 0; i < c.trials; i++)
		bisect_once(&c, skipped, &t);
	free(skipped);
	/* change sd trials right refused unresolved skips steps runs maxrun wrong */
	printf("%g %g %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", 100 * c.change, 100 * c.sd, c.trials, t.right,
	       t.refused, t.unresolved, t.skips, t.steps, t.runs, t.maxrun, t.wrong);
	return 0;
}
