#!/bin/bash
# drift_model.t: analysis/stat/drift.h (the machine's drift between sweeps: its estimate, pool, prior and test) on fixed inputs.
# Built here from analysis/stat/drift.c and stats.c themselves, as compare_stats.t does.
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/t.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "drift.h"
#include "stats.h"
#include "rank.h"
#include "bimodal.h"

static int n;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
}

static int near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b) + 1e-15;
}

#define SW(m, v, n, b) { (m), (v), (n), (b) }

int main(void)
{
	struct sb_drift_est e[2], acc = { 0 };
	struct sb_drift d, p, out;
	struct sb_drift_test t;

	ok(sb_drift_est_bias(1) == 1.0 && sb_drift_est_df(1) == 0.999 && sb_drift_trim(2) == 0,
	   "one difference: unbiased, 1 df, nothing trimmed");
	ok(near(sb_drift_est_bias(61), 1 - (4 * log(61) - 6.5) / 61, 1e-12) && near(sb_drift_est_df(80), 51.2, 1e-12),
	   "past the table: 1 - (4 ln k - 6.5)/k and 0.64 k");
	ok(sb_drift_trim(3) == 1 && sb_drift_trim(4) == 1 && sb_drift_trim(5) == 2 && sb_drift_trim(100) == 2,
	   "the largest one of 3-4 differences, two of 5 or more, are left out");

	/* one boot, single runs: |differences| .02 .02 .02 .02 -> the mean square of three of them */
	struct sb_drift_sweep a[] = { SW(0, 0, 1, "b1"), SW(.02, 0, 1, "b1"), SW(0, 0, 1, "b1"),
				      SW(.02, 0, 1, "b1"), SW(0, 0, 1, "b1") };
	double want = .02 * .02 / 2 / 0.5645;
	ok(sb_drift_series(a, 5, e) == 0 && near(e[SB_DRIFT_WITHIN].tau2, want, 1e-9) &&
	   e[SB_DRIFT_WITHIN].df == 2.040 && e[SB_DRIFT_WITHIN].pairs == 4 && e[SB_DRIFT_ACROSS].df == 0,
	   "four pairs in one boot: tau^2 from their trimmed mean square, bias-corrected, 2.04 df");

	/* a step of 50% among small wobbles: trimmed out */
	struct sb_drift_sweep st[] = { SW(0, 0, 1, 0), SW(.01, 0, 1, 0), SW(0, 0, 1, 0), SW(.51, 0, 1, 0),
				       SW(.5, 0, 1, 0), SW(.51, 0, 1, 0) };
	sb_drift_series(st, 6, e);
	ok(e[SB_DRIFT_ACROSS].pairs == 5 && sqrt(e[SB_DRIFT_ACROSS].tau2) < 0.02,
	   "a step between two sweeps leaves the estimate at the wobble (unknown boots: across)");
	/* one bad sweep (two large differences) among 8: trimmed out too */
	struct sb_drift_sweep bad[] = { SW(0, 0, 1, 0), SW(.01, 0, 1, 0), SW(0, 0, 1, 0), SW(.3, 0, 1, 0),
					SW(0, 0, 1, 0), SW(.01, 0, 1, 0), SW(0, 0, 1, 0), SW(.01, 0, 1, 0) };
	sb_drift_series(bad, 8, e);
	ok(sqrt(e[SB_DRIFT_ACROSS].tau2) < 0.02, "one bad sweep leaves the estimate at the wobble");
	/* bad sweeps that recur (3 of 16, 10% off): part of this machine's drift, and in the figure */
	struct sb_drift_sweep rec[16];
	for (int i = 0; i < 16; i++)
		rec[i] = (struct sb_drift_sweep)SW(i == 3 || i == 8 || i == 13 ? .1 : (i % 2) * .01, 0, 1, 0);
	sb_drift_series(rec, 16, e);
	ok(sqrt(e[SB_DRIFT_ACROSS].tau2) > 0.03, "bad sweeps that recur raise the figure (a median would not see them)");

	/* the runs' share: var .0009 in sweeps of 3 runs -> sigma^2 (1/3 + 1/3) / 2 = .0003 less */
	struct sb_drift_sweep r[] = { SW(0, .0009, 3, "x"), SW(.03, .0009, 3, "y"), SW(0, .0009, 3, "z") };
	want = .03 * .03 / 2 - .0003;
	sb_drift_series(r, 3, e);
	ok(near(e[SB_DRIFT_ACROSS].tau2, want, 1e-9), "the runs' own share is taken out of the sweeps' spread");
	struct sb_drift_sweep q[] = { SW(0, .09, 3, "x"), SW(.001, .09, 3, "y") };
	sb_drift_series(q, 2, e);
	ok(e[SB_DRIFT_ACROSS].tau2 == 0 && e[SB_DRIFT_ACROSS].df == 0.999, "never below 0");

	/* boots: a a b b -> one pair within (a a), one across (a b), one within (b b) */
	struct sb_drift_sweep bt[] = { SW(0, 0, 1, "a"), SW(.02, 0, 1, "a"), SW(.1, 0, 1, "b"), SW(.14, 0, 1, "b") };
	sb_drift_series(bt, 4, e);
	ok(e[SB_DRIFT_WITHIN].pairs == 2 && e[SB_DRIFT_ACROSS].pairs == 1 &&
	   near(e[SB_DRIFT_ACROSS].tau2, .08 * .08 / 2, 1e-9),
	   "pairs in one boot and across two are kept apart");

	/*
	 * A series estimated again without some sweeps, from the order of its
	 * pairs made once (sb_drift_series_order): the same figures as
	 * sb_drift_series's, bit for bit; series of 2 to 60 sweeps, three boots,
	 * one run or four, ties (rounded means), every third sweep or a random
	 * few left out.
	 */
	{
		struct sb_drift_sweep all[60], less[60];
		struct sb_drift_est ea[2], eb[2];
		size_t order[60], m, bad = 0, tried = 0;
		const char *boots[] = { "a", "b", "" };
		unsigned long r = 12345;

		for (size_t len = 2; len <= 60; len++)
			for (int rep = 0; rep < 20; rep++, tried++) {
				for (size_t i = 0; i < len; i++) {
					r = r * 6364136223846793005UL + 1442695040888963407UL;
					all[i] = (struct sb_drift_sweep){ round((double)(r >> 40) / 1e4) / 100, (double)(r >> 58) / 1e4,
									  rep % 2 ? 4 : 1, boots[(r >> 33) % 3] };
					if ((r >> 30) % 17 == 0)
						all[i].n = 0;	/* judged: no runs in either */
				}
				m = sb_drift_series_order(all, len, order);
				memcpy(less, all, sizeof(all));
				for (size_t i = 0; i < len; i++)
					if (rep % 3 ? (i % 3 == 1) : ((i * 7 + (size_t)rep) % 11 == 0))
						less[i].n = 0;
				sb_drift_series(less, len, ea);
				sb_drift_series_sorted(less, len, order, m, eb);
				bad += memcmp(ea, eb, sizeof(ea)) != 0;
				sb_drift_series(all, len, ea);
				sb_drift_series_sorted(all, len, order, m, eb);
				bad += memcmp(ea, eb, sizeof(ea)) != 0;
			}
		ok(bad == 0 && tried == 1180, "without some sweeps, from the order made once: sb_drift_series's figures to the bit");
	}

	/* pool and moderate */
	struct sb_drift_est x = { .0004, 2, 3, 4, 0, 0 }, y = { .0016, 6, 7, 8, 0, 0 };
	sb_drift_pool(&acc, &x);
	sb_drift_pool(&acc, &y);
	ok(near(acc.tau2, (2 * .0004 + 6 * .0016) / 8, 1e-12) && acc.df == 8 && acc.pairs == 10,
	   "pooled by degrees of freedom");
	sb_drift_default(&p);
	ok(near(sb_drift_pct(&p), 2.0, 1e-12) && p.df == 2 && p.src == SB_DRIFT_DEFAULT &&
	   strstr(p.what, "default") != NULL, "the default: 2%, 2 df, and it says so");
	sb_drift_moderate(&p, &y, "8 sweeps of this series", &out);
	double post = (2 * .0004 + 6 * .0016) / 8;
	ok(near(out.tau2, post, 1e-12) && near(out.df, 64 * post * post / (6 * .0016 * .0016), 1e-9) &&
	   out.src == SB_DRIFT_LEARNED && strstr(out.what, "8 sweeps of this series") != NULL,
	   "moderated: (d0 tau0^2 + d tau^2) / (d0 + d); the default taken as known, only the learned part's df");
	struct sb_drift lp = { .0004, 4, SB_DRIFT_LEARNED, "", 0, 0, 0 };
	sb_drift_moderate(&lp, &y, "x", &out);
	ok(near(out.tau2, (4 * .0004 + 6 * .0016) / 10, 1e-12) && out.df == 10, "a learned prior: d0 + d df");
	struct sb_drift_est z = { 0, 3, 4, 5, 0, 0 };
	sb_drift_default(&p);
	sb_drift_moderate(&p, &z, "x", &out);
	ok(isinf(out.df) && near(out.tau2, 2 * .0004 / 5, 1e-12), "data of no drift: the default's share, known");
	sb_drift_given(3, &d);
	sb_drift_moderate(&d, &y, "x", &out);
	ok(near(out.tau2, .0009, 1e-12) && isinf(out.df) && out.src == SB_DRIFT_GIVEN, "--drift is kept as given");

	/* one sweep a side, 3 runs each, var .0001; drift 2% given (exact): se^2 = 2 .0004 + .0001 (2/3) */
	struct sb_drift_sweep sa[] = { SW(log(100), .0001, 3, "a") }, sb[] = { SW(log(90), .0001, 3, "b") };
	struct sb_drift_side A = { sa, 1 }, B = { sb, 1 };
	sb_drift_given(2, &d);
	double ct = .0008, cw = .0001 * 2.0 / 3;
	ok(sb_drift_compare(&A, &B, &d, 0, 95, .8, &t) == 0 && near(t.se, sqrt(ct + cw), 1e-12) &&
	   near(t.df, (ct + cw) * (ct + cw) / (cw * cw / 4), 1e-9) && near(t.est_pct, -10, 1e-9),
	   "one sweep a side: drift in the variance, Welch-Satterthwaite's df (the given drift exact)");
	ok(t.p < .05 && t.lo_pct < -10 && t.hi_pct > -10 && t.hi_pct < 0, "-10% against 2% drift: found, its interval around it");
	sb_drift_given(0, &d);
	sb_drift_compare(&A, &B, &d, 0, 95, .8, &t);
	ok(near(t.se, sqrt(cw), 1e-12) && near(t.df, 4, 1e-9) && t.p < .001, "--drift 0: the runs alone, 4 df");
	sb_drift_default(&d);
	sb_drift_compare(&A, &B, &d, 0, 95, .8, &t);
	ok(near(t.df, (ct + cw) * (ct + cw) / (cw * cw / 4), 1e-9) && near(t.se, sqrt(ct + cw), 1e-12),
	   "the default alone is taken at its value (its 2 df only weigh it against what is learned)");

	/* three sweeps a side: their own spread moderates the prior */
	struct sb_drift_sweep pa[] = { SW(0, 0, 1, 0), SW(.02, 0, 1, 0), SW(.04, 0, 1, 0) };
	struct sb_drift_sweep pb[] = { SW(.01, 0, 1, 0), SW(.03, 0, 1, 0), SW(.05, 0, 1, 0) };
	struct sb_drift_side PA = { pa, 3 }, PB = { pb, 3 };
	sb_drift_compare(&PA, &PB, &d, 0, 95, .8, &t);
	double own = (.0008 + .0008) / 4, tau2 = (2 * .0004 + 4 * own) / 6, tdf = 36 * tau2 * tau2 / (4 * own * own);
	ok(near(t.tau2, tau2, 1e-12) && near(t.tau_df, tdf, 1e-9) && near(t.se, sqrt(tau2 * 2.0 / 3), 1e-12) &&
	   near(t.df, tdf, 1e-9) && t.paired == 0, "pools: the sweep means' spread joins the prior (k - 1 df a side)");
	sb_drift_compare(&PA, &PB, &d, 1, 95, .8, &t);
	ok(t.paired == 1 && near(t.diff, .01, 1e-12) && t.se < 1e-12 && t.df == 2 && t.p < 1e-6,
	   "alternated: the paired differences (all .01): no spread, k - 1 df");
	struct sb_drift_sweep nb[] = { SW(0, 0, 0, 0) };
	struct sb_drift_side NB = { nb, 1 };
	ok(sb_drift_compare(&A, &NB, &d, 0, 95, .8, &t) == -1, "a side without runs: nothing to test");
	/* the runs' variance learned with the drift: the prior of the sides' own (Smyth again) */
	struct sb_drift_sweep rs[] = { SW(0, .0004, 3, "b"), SW(.01, .0004, 3, "b"), SW(0, .0004, 3, "b"),
				       SW(.01, .0001, 2, "b") };
	sb_drift_series(rs, 4, e);
	ok(near(e[0].sigma2, (3 * 2 * .0004 + .0001) / 7, 1e-12) && e[0].sigma_df == 7 && e[1].sigma_df == 7 &&
	   e[1].sigma2 == e[0].sigma2, "a series' estimates carry its runs' pooled variance, both classes, 7 df");
	double sdf;
	struct sb_drift lr = { .0001, 8, SB_DRIFT_LEARNED, "", 0, .0009, 10 };
	ok(near(sb_drift_runs_var(&lr, 4 * .0001, 4, &sdf), (10 * .0009 + 4 * .0001) / 14, 1e-12) && sdf == 14,
	   "the sides' own runs (4 df) moderated by the learned figure (10 df)");
	sb_drift_default(&p);
	sb_drift_moderate(&p, &e[0], "x", &out);
	ok(near(out.sigma2, e[0].sigma2, 1e-15) && out.sigma_df == 7, "moderation carries the data's runs' figure");
	e[0].sigma_df = 40;
	sb_drift_moderate(&p, &e[0], "x", &out);
	ok(out.sigma_df == SB_DRIFT_PRIOR_MAXDF, "... as at most SB_DRIFT_PRIOR_MAXDF df");
	sb_drift_given(3, &d);
	sb_drift_moderate(&d, &e[0], "x", &out);
	ok(out.sigma_df == 0, "... but not into --drift's figure");
	ok(near(sb_drift_runs_var(&lr, 4 * .0025, 4, &sdf), .0025, 1e-12) && sdf == 4,
	   "noisier runs than the learned figure: their own (never narrower than they say)");
	ok(near(sb_drift_runs_var(&lr, 0, 0, &sdf), .0009, 1e-12) && sdf == 10,
	   "single runs a sweep: the learned figure alone");
	sb_drift_given(0, &d);
	d.sigma2 = .0009;
	d.sigma_df = 10;
	ok(near(sb_drift_runs_var(&d, 4 * .0001, 4, &sdf), .0001, 1e-12) && sdf == 4,
	   "--drift 0 keeps the runs alone");
	/* three tight runs a side on a machine whose runs are noisy: the history's figure widens the test */
	struct sb_drift lt = { 0, 8, SB_DRIFT_LEARNED, "", 0, 0, 0 };
	struct sb_drift_test t0;
	sb_drift_compare(&A, &B, &lt, 0, 95, .8, &t0);
	lt.sigma2 = .01;
	lt.sigma_df = 10;
	sb_drift_compare(&A, &B, &lt, 0, 95, .8, &t);
	ok(t0.p < .01 && near(t.sigma2, (10 * .01 + 4 * .0001) / 14, 1e-12) && t.sigma_df == 14 && t.p > .05 &&
	   t.detectable_pct > 2 * t0.detectable_pct,
	   "-10% on tight runs: decided by them alone, not once the history's noisier runs moderate them");
	/* ranks */
	double ra[] = { 1, 2, 3, 4, 5 }, rb[] = { 6, 7, 8, 9, 10 }, u, p2, t1[] = { 1, 1 };
	ok(sb_mann_whitney(ra, 5, rb, 5, &u, &p2) == 0 && u == 25 && near(p2, 2.0 / 252, 1e-12),
	   "Mann-Whitney, 5 against 5 apart: U 25, exact p 2/252");
	ok(sb_mann_whitney(t1, 2, t1, 2, &u, &p2) == 0 && u == 2 && p2 == 1, "ties: U 2, p 1");
	double big_a[12], big_b[12];
	for (int i = 0; i < 12; i++) { big_a[i] = i; big_b[i] = i + 0.5; }
	ok(sb_mann_whitney(big_a, 12, big_b, 12, &u, &p2) == 0 && u == 78 && p2 > 0.5 && p2 < 1,
	   "24 values: the normal approximation, U 78 of 144");
	ok(sb_hodges_lehmann(ra, 5, rb, 5) == 5 && isnan(sb_hodges_lehmann(ra, 0, rb, 5)),
	   "Hodges-Lehmann: the median of the differences");
	/* two groups: the gap test */
	struct sb_bimodal bm;
	double two[] = { .30, 0, .001, .302, -.001 }, one[] = { 0, .01, .02, .03, .04 };
	double tight[] = { 0, 0.0001, .005, .0051 }, nan2[] = { 0, 0, NAN, 1 };
	ok(sb_bimodal(two, 5, &bm) == 1 && bm.nlo == 3 && bm.nhi == 2 && near(bm.lo, 0, 1e-12) &&
	   near(bm.hi, .301, 1e-12) && bm.limit == 23.96 && bm.score > 200,
	   "3 runs near 0 and 2 near .30: two groups, 3 below the gap and 2 above");
	ok(sb_bimodal(one, 5, &bm) == 0 && near(bm.score, .01 / sqrt(.0001 * 2.5 / 3), 1e-9),
	   "evenly spread: no groups (score: the gap over the groups' pooled sd)");
	ok(sb_bimodal(tight, 4, &bm) == 0 && bm.score > bm.limit, "groups .5% apart: a score past the limit, no note");
	ok(sb_bimodal(two, 3, &bm) == 0 && isnan(bm.score), "3 values: never");
	ok(sb_bimodal(nan2, 4, NULL) == 0, "a value not finite: never");
	ok(isinf(sb_bimodal_limit(3)) && sb_bimodal_limit(17) == 3.51 && sb_bimodal_limit(1000) == 1.64,
	   "the limit: the table's entry at or below n");
	printf("1..%d\n", n);
	return 0;
}
EOF

if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror ${SB_SAN:+-fsanitize=$SB_SAN} -Ianalysis/stat -o "$tmp/t" "$tmp/t.c" \
	analysis/stat/drift.c analysis/stat/stats.c analysis/stat/tquantile.c analysis/stat/rank.c analysis/stat/bimodal.c -lm 2>"$tmp/cc.err"; then
	echo "1..1"
	echo "not ok 1 - the drift model's test program builds"
	sed 's/^/# /' "$tmp/cc.err"
	exit 1
fi
"$tmp/t"
