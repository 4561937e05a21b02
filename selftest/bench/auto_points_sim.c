/* auto_points_sim.c: auto_points.sh's SIM mode, the planner (analysis/plan/plan.c) on the curve fixture's shapes with synthetic noise, no runner. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/peak.h"
#include "plan/plan.h"
#include "stat/stats.h"

#define MAXN 4096
#define RUNS 3		/* --repeat 3, as the benchmark's default RUN_ARGS */

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

/* selftest/fixtures/curve.c's total rate at n tasks, in units of its rate (cores 48, knee 24) */
static double f(const char *s, double n)
{
	if (strcmp(s, "peak6") == 0)
		return n <= 6 ? n : 6 * sqrt(6 / n);
	if (strcmp(s, "smt") == 0)
		return n <= 48 ? n : 48;
	if (strcmp(s, "numa") == 0)
		return n <= 24 ? n : 24 + (n - 24) / 2;
	if (strcmp(s, "linear") == 0)
		return n;
	return n <= 16 ? n : 16;
}

/* The counts where the function is largest: lo..hi. */
static void argmax(const char *s, unsigned long max, unsigned long *lo, unsigned long *hi)
{
	*lo = *hi = max;
	if (strcmp(s, "peak6") == 0)
		*lo = *hi = 6;
	else if (strcmp(s, "smt") == 0)
		*lo = 48;
	else if (strcmp(s, "plateau") == 0)
		*lo = 16;
}

static double noise_sd, dist_p, dist_size;

/* One run's total at n: the function, NOISE % sd, and with chance DIST_P a disturbed run (+-DIST_SIZE %, either sign). */
static double run(const char *s, unsigned long n)
{
	double v = f(s, (double)n) * (1 + noise_sd * gauss());

	if (urand() < dist_p)
		v *= 1 + (urand() < 0.5 ? -1 : 1) * dist_size * (0.5 + urand());
	return v;
}

static double half(size_t n, double var)
{
	return sb_runs_independent(n) ? sb_student_t(95, n - 1) * sqrt(var / (double)n) : 0;
}

int main(int argc, char **argv)
{
	unsigned long max = argc > 2 ? strtoul(argv[2], NULL, 10) : 96;
	int trials = argc > 3 ? atoi(argv[3]) : 50;
	const char *s = argc > 1 ? argv[1] : "peak6";
	size_t most = 0, total = 0, exact = 0;
	double worst_fn = 0, sum_fn = 0, worst_lines = 0, own_out = 0, sound_out = 0, compared = 0;
	unsigned long lo, hi;

	noise_sd = (argc > 4 ? atof(argv[4]) : 2) / 100;
	dist_p = (argc > 5 ? atof(argv[5]) : 3) / 100;
	dist_size = (argc > 6 ? atof(argv[6]) : 25) / 100;
	if (strcmp(s, "peak6") && strcmp(s, "smt") && strcmp(s, "numa") && strcmp(s, "linear") &&
	    strcmp(s, "plateau")) {
		fprintf(stderr, "auto_points_sim: shape '%s' is not one of peak6, smt, numa, linear, plateau\n", s);
		return 2;
	}
	if (max < 1 || max > MAXN || trials < 1) {
		fprintf(stderr, "auto_points_sim: usage: auto_points_sim SHAPE MAX(1..%d) TRIALS NOISE%% DIST%% DIST_SIZE%%\n", MAXN);
		return 2;
	}
	argmax(s, max, &lo, &hi);
	for (int tr = 0; tr < trials; tr++) {
		static double means[MAXN + 1][RUNS], fm[MAXN + 1], fh[MAXN + 1];
		static struct sb_peak_point pp[MAXN];
		struct sb_plan pl;
		struct sb_peak pk;
		char err[256];
		size_t i, j;
		double w = 0;

		memset(&pl, 0, sizeof(pl));
		rs = 7919ULL * (unsigned long long)(tr + 1) + (unsigned long long)s[0] * 104729ULL + s[1];
		pl.c = (struct sb_plan_conf){ .modes = { SB_PROCESSES }, .nmodes = 1, .modes_total = 1,
			.points_mode = SB_POINTS_AUTO, .min = 1, .max = max, .step = 1, .units = max,
			.min_runs = RUNS, .max_runs = RUNS, .adaptive = 0, .precision = 2000, .seed = -1,
			.run_ms = 1000, .max_points = SB_PLAN_MAX_POINTS };
		if (sb_plan_start(&pl, err, sizeof(err)) != 0) {
			fprintf(stderr, "auto_points_sim: %s\n", err);
			return 2;
		}
		pl.allow_ms = -1;
		while (sb_plan_next(&pl, &i) == 0) {
			struct sb_plan_point *p = &pl.p[i];

			means[p->tasks][p->runs] = run(s, p->tasks);
			sb_plan_set_values(p, means[p->tasks], p->runs + 1);
			sb_plan_record(&pl, i, 1000);
		}
		if (pl.np > most)
			most = pl.np;
		total += pl.np;
		for (i = 0; i < pl.np; i++)
			pp[i] = (struct sb_peak_point){ pl.p[i].tasks, pl.p[i].n, pl.p[i].mean, pl.p[i].var };
		if (sb_peak_find(pp, pl.np, 95, &pk) == 0 && pl.p[pk.best].tasks >= lo && pl.p[pk.best].tasks <= hi)
			exact++;
		/* an independent full sweep: every count, RUNS runs */
		for (unsigned long n = 1; n <= max; n++) {
			double r[RUNS], var;
			struct sb_stats st;

			for (j = 0; j < RUNS; j++)
				r[j] = run(s, n);
			sb_stats_compute_var(r, RUNS, &st, &var, NULL);
			fm[n] = st.mean;
			fh[n] = half(RUNS, var);
		}
		/* the auto curve and its half-width (both interpolated) at every count, against both */
		for (unsigned long n = 1, k = 0; n <= max; n++) {
			const struct sb_plan_point *a, *b;
			double t, v, ha, e, d, fl;

			while (k + 1 < pl.np && pl.p[k + 1].tasks <= n)
				k++;
			a = &pl.p[k];
			b = k + 1 < pl.np ? &pl.p[k + 1] : a;
			t = b->tasks > a->tasks ? ((double)n - (double)a->tasks) / (double)(b->tasks - a->tasks) : 0;
			v = a->mean + t * (b->mean - a->mean);
			ha = half(a->n, a->var) + t * (half(b->n, b->var) - half(a->n, a->var));
			e = fabs(v - f(s, (double)n)) / f(s, (double)n);
			if (e > w)
				w = e;
			/* the counts' own cost: straight lines through the function's values at them */
			fl = f(s, (double)a->tasks) + t * (f(s, (double)b->tasks) - f(s, (double)a->tasks));
			e = fabs(fl - f(s, (double)n)) / f(s, (double)n);
			if (e > worst_lines)
				worst_lines = e;
			d = fabs(v - fm[n]);
			compared++;
			own_out += d > fh[n];
			sound_out += d > sqrt(fh[n] * fh[n] + ha * ha);
		}
		sum_fn += w;
		if (w > worst_fn)
			worst_fn = w;
		sb_plan_free(&pl);
	}
	/*
	 * shape, counts most / mean, exact peak share, error vs function worst / mean, the lines through
	 * the function at the counts: worst, own-interval share, sound share
	 */
	printf("%s %zu %.1f %zu/%d %.1f %.1f %.2f %.1f %.1f\n", s, most, (double)total / trials, exact, trials,
	       100 * worst_fn, 100 * sum_fn / trials, 100 * worst_lines, 100 * own_out / compared,
	       100 * sound_out / compared);
	return 0;
}
