/* bisect_sim.c: bisect_sim.sh's driver, the bisect decision rule (analysis/bisect/decide.c) on synthetic noise, no runner. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/decide.h"

#define MAXRUNS 64
#define MAXENDS 200
#define BATCH 2		/* runs a sweep, as analysis/bisect/step.c takes them */

struct cell {
	double change, sd, drift;	/* fractions: the step's size, a run's sd, a sweep's offset sd */
	long commits, ends, trials;
	unsigned long long seed;
};

struct tally {
	long right, refused, unresolved, skips, steps, runs, maxrun;
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
	long fb = 1 + (long)(urand() * (double)c->commits), lo = 0, hi = c->commits + 1, i;

	if (fb > c->commits)
		fb = c->commits;
	sweep(1, c, gv, (size_t)c->ends);
	sweep(1 - c->change, c, bv, (size_t)c->ends);
	sb_side_of(gv, (size_t)c->ends, &g);
	sb_side_of(bv, (size_t)c->ends, &b);
	if (sb_gap_check(&g, &b, &gap) < 0 || !gap.differ) {
		t->refused++;
		return;
	}
	memset(skipped, 0, (size_t)c->commits + 2);
	/* commits 1..commits lie between the good end (0) and the bad end (commits + 1) */
	while (hi - lo > 1) {
		if ((i = pick(lo, hi, skipped)) < 0) {
			t->unresolved++;
			return;
		}
		switch (step(c, &g, &b, i, fb, t)) {
		case SB_V_GOOD: lo = i; break;
		case SB_V_BAD: hi = i; break;
		default: skipped[i] = 1; t->skips++; break;
		}
	}
	t->right += hi == fb;
}

int main(int argc, char **argv)
{
	struct cell c = { 0.03, 0.02, 0, 1024, 20, 200, 1 };
	struct tally t = { 0 };
	unsigned char *skipped;

	if (argc != 8) {
		fprintf(stderr, "usage: bisect_sim CHANGE_PCT SD_PCT DRIFT_PCT COMMITS END_RUNS TRIALS SEED\n");
		return 2;
	}
	c.change = atof(argv[1]) / 100;
	c.sd = atof(argv[2]) / 100;
	c.drift = atof(argv[3]) / 100;
	c.commits = atol(argv[4]);
	c.ends = atol(argv[5]);
	c.trials = atol(argv[6]);
	c.seed = strtoull(argv[7], NULL, 10);
	if (c.commits < 1 || c.ends < 2 || c.ends > MAXENDS || c.trials < 1) {
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
	/* change sd trials right refused unresolved skips steps runs maxrun */
	printf("%g %g %ld %ld %ld %ld %ld %ld %ld %ld\n", 100 * c.change, 100 * c.sd, c.trials, t.right,
	       t.refused, t.unresolved, t.skips, t.steps, t.runs, t.maxrun);
	return 0;
}
