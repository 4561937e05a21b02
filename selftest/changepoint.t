#!/bin/bash
# changepoint.t: analysis/history/changepoint.c (sb_cp_detect) on fixed inputs: a step, noise alone, a spike, two steps, bad input.
# Built here from the sources themselves (with SB_SAN's sanitizers under make check SAN=...).
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/t.c" <<'C'
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "history/changepoint.h"

static int n;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
}

/* a fixed stream of normal numbers: an LCG and Box-Muller */
static unsigned long long lcg = 12345;
static double unif(void)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((lcg >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

#define K 24
#define R 3
#define NS 50

/* NS series of K sweeps of R runs; level(series, sweep) in %, 1% run and 0.5% sweep noise */
static double v[NS][K][R];
static struct sb_cp_obs obs[NS][K];
static struct sb_cp_series ser[NS];

static void fill(double (*level)(int s, int k))
{
	for (int k = 0; k < K; k++) {
		double off = 0.5 * gauss();	/* the sweep's offset, shared by all its series */

		for (int s = 0; s < NS; s++) {
			for (int r = 0; r < R; r++)
				v[s][k][r] = 1e6 * (1 + (level(s, k) + off + gauss()) / 100);
			obs[s][k] = (struct sb_cp_obs){ v[s][k], R };
		}
	}
	for (int s = 0; s < NS; s++)
		ser[s] = (struct sb_cp_series){ obs[s], K };
}

static double flat(int s, int k) { (void)s; (void)k; return 0; }
static double step(int s, int k) { return s == 7 && k >= 12 ? -10 : 0; }
static double spike(int s, int k) { (void)s; return k == 11 ? -10 : 0; }
static double newest(int s, int k) { return s == 0 && k == K - 1 ? -20 : 0; }
static double late(int s, int k) { return s == 0 && k >= K - 2 ? -15 : 0; }
static double two(int s, int k) { return s == 3 && k >= 6 && k < 16 ? -8 : 0; }

int main(void)
{
	struct sb_cp_opts o = { 0.05, 2 };
	struct sb_cp_change *c, *c2;
	size_t nc, nc2;
	int rc, quiet = 1;

	fill(step);
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 1, "step: one change in 50 series");
	ok(nc >= 1 && c[0].series == 7 && c[0].at == 12, "step: in series 7, first sweep after it 12");
	ok(nc >= 1 && c[0].pct < 0 && c[0].lo <= -10 && c[0].hi >= -10 && c[0].hi < 0,
	   "step: negative, its 95% interval covers -10% and not 0");
	ok(nc >= 1 && c[0].p <= 0.05 && c[0].holds == 1, "step: p at most alpha, still holds");
	ok(nc >= 1 && fabs(c[0].before / 1e6 - 1) < 0.01 && fabs(c[0].after / 0.9e6 - 1) < 0.01,
	   "step: before and after near 1e6 and 0.9e6");
	rc = sb_cp_detect(ser, NS, &o, &c2, &nc2);
	ok(rc == 0 && nc2 == nc && memcmp(c, c2, nc * sizeof(*c)) == 0, "the same input, the same answer");
	free(c);
	free(c2);

	for (int seed = 1; seed <= 5; seed++) {
		lcg = (unsigned long long)seed * 7919;
		fill(flat);
		rc = sb_cp_detect(ser, NS, &o, &c, &nc);
		quiet &= rc == 0 && nc == 0;
		free(c);
	}
	ok(quiet, "noise alone (5 fixed seeds x 50 series): no change");

	quiet = 1;
	for (int seed = 1; seed <= 10; seed++) {
		lcg = (unsigned long long)seed * 104729;
		fill(spike);
		rc = sb_cp_detect(ser, NS, &o, &c, &nc);
		quiet &= rc == 0 && nc == 0;
		free(c);
	}
	ok(quiet, "a -10% spike of one sweep in every series (10 fixed seeds): no change");

	lcg = 4242;
	fill(two);
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 2 && c[0].series == 3 && c[1].series == 3 && c[0].at == 6 && c[1].at == 16,
	   "a stretch that falls and comes back: two changes, at 6 and 16");
	ok(nc == 2 && c[0].pct < 0 && c[1].pct > 0 && c[0].holds == 0 && c[1].holds == 1,
	   "  the fall no longer holds at the newest sweep, the rise does");
	free(c);

	/* uneven runs: sweeps of 1 to 5 runs (the within variance from those with more than one) */
	lcg = 777;
	fill(step);
	for (int k = 0; k < K; k++)
		for (int s = 0; s < NS; s++)
			obs[s][k].nruns = 1 + (size_t)(k * 7 + s) % R;
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 1 && c[0].series == 7 && c[0].at == 12 && c[0].lo <= -10 && c[0].hi >= -10,
	   "sweeps of 1 to 3 runs: the step found at 12, its interval covering -10%");
	free(c);
	for (int k = 0; k < K; k++)
		for (int s = 0; s < NS; s++)
			obs[s][k].nruns = 1;
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 1 && c[0].series == 7 && c[0].at == 12,
	   "one run a sweep (no within variance): the step found at 12");
	free(c);
	for (int k = 0; k < K; k++)
		for (int s = 0; s < NS; s++)
			obs[s][k].nruns = R;

	/* the minimum segment: a step two sweeps before the end is a change at 2, none at 3 */
	lcg = 31337;
	fill(late);
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 1 && c[0].at == K - 2 && c[0].holds == 1,
	   "a step two sweeps before the newest, min_seg 2: found at K - 2, holds");
	free(c);
	o.min_seg = 3;
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc <= 1 && (nc == 0 || (c[0].at >= 3 && c[0].at <= K - 3)),
	   "  min_seg 3: no segment shorter than 3 sweeps (the change, if any, at K - 3)");
	free(c);
	o.min_seg = 2;

	/* min_seg 1: the newest sweep alone may be a segment */
	lcg = 5150;
	fill(newest);
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 0, "the newest sweep alone 20% down, min_seg 2: no change yet");
	free(c);
	o.min_seg = 1;
	rc = sb_cp_detect(ser, NS, &o, &c, &nc);
	ok(rc == 0 && nc == 1 && c[0].series == 0 && c[0].at == K - 1 && c[0].pct < 0,
	   "  min_seg 1: a change at the newest sweep");
	free(c);
	o.min_seg = 2;

	rc = sb_cp_detect(ser, 0, &o, &c, &nc);
	ok(rc == 0 && nc == 0 && c == NULL, "no series: no change");
	rc = sb_cp_detect(ser, NS, NULL, &c, &nc);
	ok(rc == 0, "no options: the defaults");
	free(c);

	obs[5][4].nruns = 0;
	ok(sb_cp_detect(ser, NS, &o, &c, &nc) == 2 && c == NULL && nc == 0, "a sweep with no runs: 2");
	{
		char e[160];

		ok(sb_cp_check(ser, NS, e, sizeof(e)) == 2 && !strcmp(e, "series 5, sweep 4: no runs"),
		   "sb_cp_check names it: series 5, sweep 4: no runs");
		obs[5][4].nruns = R;
		v[9][3][1] = NAN;
		ok(sb_cp_check(ser, NS, e, sizeof(e)) == 2 &&
		   !strcmp(e, "series 9, sweep 3, run 1: nan is not a positive finite number"),
		   "sb_cp_check names a NaN run");
		v[9][3][1] = 1e6;
		ok(sb_cp_check(ser, NS, e, sizeof(e)) == 0, "sb_cp_check: good input, 0");
	}
	v[9][3][1] = NAN;
	ok(sb_cp_detect(ser, NS, &o, &c, &nc) == 2, "a NaN run: 2");
	v[9][3][1] = INFINITY;
	ok(sb_cp_detect(ser, NS, &o, &c, &nc) == 2, "an infinite run: 2");
	v[9][3][1] = -5;
	ok(sb_cp_detect(ser, NS, &o, &c, &nc) == 2, "a negative run: 2");
	v[9][3][1] = 1e6;
	o.alpha = 1.5;
	ok(sb_cp_detect(ser, NS, &o, &c, &nc) == 2, "alpha 1.5: 2");
	o.alpha = 0.05;
	ser[2].obs = NULL;
	ok(sb_cp_detect(ser, NS, &o, &c, &nc) == 2, "a series without its sweeps: 2");

	/* no noise at all: constant, then an exact step */
	{
		double flatv[8][2], stepv[8][2];
		struct sb_cp_obs fo[8], so[8];
		struct sb_cp_series two_s[2] = { { fo, 8 }, { so, 8 } };

		for (int k = 0; k < 8; k++) {
			flatv[k][0] = flatv[k][1] = 500;
			stepv[k][0] = stepv[k][1] = k < 4 ? 500 : 400;
			fo[k] = (struct sb_cp_obs){ flatv[k], 2 };
			so[k] = (struct sb_cp_obs){ stepv[k], 2 };
		}
		rc = sb_cp_detect(two_s, 2, &o, &c, &nc);
		ok(rc == 0 && nc == 1 && c[0].series == 1 && c[0].at == 4 && fabs(c[0].pct + 20) < 1e-9 &&
		   fabs(c[0].before - 500) < 1e-9 && fabs(c[0].after - 400) < 1e-9,
		   "no noise: the constant series has no change, the exact step is -20% at 4");
		free(c);
	}

	printf("1..%d\n", n);
	return 0;
}
C

if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror ${SB_SAN:+-fsanitize=$SB_SAN} -I. -Ianalysis $(printf -- "-I%s " analysis/*/) -o "$tmp/t" \
	"$tmp/t.c" analysis/history/changepoint.c analysis/stat/stats.c analysis/stat/tquantile.c -lm 2>"$tmp/cc.err"; then
	echo "not ok 1 - the test program builds"
	sed 's/^/# /' "$tmp/cc.err"
	echo "1..1"
	exit 0
fi
"$tmp/t"
