#!/bin/bash
# compare_stats.t: the analysis/stat/stats.h API (shared by compare and the runtest summary) on known vectors.
# Built here from analysis/stat/stats.c and tquantile.c themselves, so it does not depend on how the build dir was compiled.
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/t.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include "stats.h"

static int n;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

int main(void)
{
	double v4[] = { 4, 1, 3, 2 }, v3[] = { 1, 2, 3 }, one[] = { 7 };
	struct sb_stats s;
	struct sb_tdiff d;
	double var;

	ok(sb_student_t(95, 4) == 2.776, "t(95%, df 4) = 2.776");
	ok(sb_student_t(80, 1) == 3.078, "t(80%, df 1) = 3.078");
	ok(sb_student_t(95, 100) == 1.984, "t(95%, df 100) = 1.984");
	ok(sb_student_t(95, 101) == 1.960, "df above 100: the infinity row, 1.960");
	ok(sb_student_t(99.5, 1000) == 2.807, "t(99.5%, infinity) = 2.807, the true quantile");
	ok(sb_student_t(99.5, 10) == 3.581, "t(99.5%, df 10) = 3.581");
	ok(sb_student_t(95, 0) < 0, "df 0 is an error");
	ok(sb_student_t(97, 4) < 0, "level 97 is an error");

	ok(sb_stats_compute(v4, 0, &s) == -1, "n = 0 is an error");
	ok(sb_stats_compute(one, 1, &s) == 0 && s.mean == 7 && s.stddev == 0 && s.median == 7,
	   "n = 1: stddev 0");
	/* {1,2,3,4}: mean 2.5, s^2 = 5/3, median (2 + 3) / 2. */
	ok(sb_stats_compute_var(v4, 4, &s, &var, NULL) == 0 && s.n == 4 && s.min == 1 &&
	   s.max == 4 && s.median == 2.5 && s.mean == 2.5 && near(var, 5.0 / 3) &&
	   near(s.stddev, sqrt(5.0 / 3)), "even n: median, mean, variance");
	ok(v4[0] == 4 && v4[1] == 1 && v4[2] == 3 && v4[3] == 2, "the input is not modified");

	/* t(95%, df 2) = 4.303: 4.303 * 1 / sqrt(3) = 2.484338... */
	sb_stats_compute(v3, 3, &s);
	ok(near(sb_ci_halfwidth(&s, 95), 4.303 / sqrt(3)), "ci95 half-width of {1,2,3}");
	ok(sb_ci_halfwidth(&s, 97) < 0, "ci at an unknown level is an error");
	sb_stats_compute(one, 1, &s);
	ok(sb_ci_halfwidth(&s, 95) == 0, "ci of one value is 0");

	/* {1,2,3} against {2,4,6} at 80%: pooled s = sqrt(2.5), e = 1.533 * sqrt(5/3),
	 * relative +/- = 100 * 1.533 * sqrt(8/3) / 2. */
	ok(sb_tdiff(3, 2, 1, 3, 4, 4, 80, &d) == 0 && d.df == 4 && d.t == 1.533 &&
	   near(d.pooled_s, sqrt(2.5)) && near(d.diff, 2) && near(d.halfwidth, 1.533 * sqrt(5.0 / 3)) &&
	   near(d.rel_pct, 100) && near(d.rel_halfwidth_pct, 50 * 1.533 * sqrt(8.0 / 3)) &&
	   d.significant, "Student's t comparison at 80%");
	ok(sb_tdiff(3, 2, 1, 3, 4, 4, 95, &d) == 0 && !d.significant, "not significant at 95%");
	ok(sb_tdiff(1, 2, 0, 1, 4, 0, 95, &d) == -1, "df 0 is an error");
	/* p of the difference: t = 2 / (sqrt(2.5) sqrt(2/3)) = 1.549 at df 4, p = 0.196, below 0.2 as
	 * ministat's test is significant at 80% while +100% +/- 125.2% includes 0. */
	sb_tdiff(3, 2, 1, 3, 4, 4, 80, &d);
	ok(near(d.rel_se_pct, d.rel_halfwidth_pct / 1.533) && near(d.p, sb_student_p2(2 / sqrt(2.5 * 2.0 / 3), 4)) &&
	   d.p > 0.19 && d.p < 0.2 && !d.rel_significant &&
	   near(d.null_se_pct, 100 * sqrt(1.0 / (3 * 4) + 4.0 / (3 * 16))), "tdiff: p-value and standard errors");

	/* The incomplete beta function on closed forms: I_x(2, 3) = sum_{j=2..4} C(4,j) x^j (1-x)^(4-j),
	 * 0.5248 at 0.4; I_x(a, 1) = x^a; I_x(1, 1) = x; I_0.5(a, a) = 1/2. */
	ok(fabs(sb_betai(2, 3, 0.4) - 0.5248) < 1e-13, "I_0.4(2, 3) = 0.5248");
	ok(fabs(sb_betai(2.5, 1, 0.3) - pow(0.3, 2.5)) < 1e-13, "I_x(a, 1) = x^a");
	ok(fabs(sb_betai(1, 1, 0.7) - 0.7) < 1e-13, "I_x(1, 1) = x");
	ok(fabs(sb_betai(0.5, 0.5, 0.5) - 0.5) < 1e-12 && fabs(sb_betai(50, 50, 0.5) - 0.5) < 1e-12,
	   "I_0.5(a, a) = 1/2, small and large a");
	ok(sb_betai(2, 3, 0) == 0 && sb_betai(2, 3, 1) == 1 && isnan(sb_betai(0, 1, 0.5)) &&
	   isnan(sb_betai(1, 1, 1.5)), "ends and the domain");
	/* Student's t: df 1 is Cauchy (cdf 1/2 + atan(t)/pi), df 2 has cdf 1/2 + t / (2 sqrt(2 + t^2)). */
	ok(fabs(sb_student_cdf(1, 1) - 0.75) < 1e-13 && fabs(sb_student_cdf(-3, 1) - (0.5 + atan(-3) / M_PI)) < 1e-13,
	   "t cdf, df 1");
	ok(fabs(sb_student_cdf(1, 2) - (0.5 + 1 / (2 * sqrt(3)))) < 1e-13, "t cdf, df 2");
	ok(fabs(sb_student_cdf(1.96, 1e7) - 0.9750021048517795) < 1e-6, "t cdf, huge df: the normal");
	ok(fabs(sb_student_p2(2.776, 4) - 0.05) < 1e-4 && fabs(sb_student_p2(-2.776, 4) - 0.05) < 1e-4,
	   "two-sided p at the table's t(95%, 4) is 0.05");
	ok(fabs(sb_student_quantile(0.975, 1) - tan(M_PI * 0.475)) < 1e-8 &&
	   fabs(sb_student_quantile(0.975, 4) - 2.7764451052) < 1e-8 &&
	   fabs(sb_student_quantile(0.025, 4) + 2.7764451052) < 1e-8, "t quantiles");
	for (int df = 1; df <= 100; df++)
		if (fabs(sb_student_quantile(0.975, df) - sb_student_t(95, df)) > 0.0005)
			ok(0, "the 95% column of the table agrees with the quantile");
	ok(isnan(sb_student_quantile(1, 4)) && isnan(sb_student_p2(1, 0)), "quantile and p domain");
	{
		/*
		 * The quantile found by Newton's method and a band (stats.c) is the
		 * bisection's to the bit: q of two-sided and one-sided levels down to
		 * 1e-9 (Holm's), the power, df from 0.05 to 3e7, non-integer ones too
		 * (moderated df); twice, the second time from the cache.
		 */
		static const double qs[] = { 0.5000001, 0.51, 0.6, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995,
					     0.9995, 1 - 1e-5, 1 - 2.5e-7, 1 - 1e-9, 1 - 1e-13 };
		int diff = 0, tried = 0;

		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
				for (double df = 0.05; df < 3e7; df *= 1.37, tried++) {
					double a = sb_student_quantile(qs[i], df), b = sb_student_quantile_bisect(qs[i], df);

					if (!(a == b) && !(isnan(a) && isnan(b))) {
						if (diff++ < 3)
							printf("# q %.17g df %.17g: %.17g, bisection %.17g\n", qs[i], df, a, b);
					}
					if (sb_student_quantile(1 - qs[i], df) != -b && !isnan(b))
						diff++;
				}
		ok(diff == 0 && tried > 1000, "the quantile is the bisection's, bit for bit, on a grid of 896 (q, df), twice");
	}
	/* detectable: (t(0.975) + t(0.8)) * se; t(0.8, 4) = 0.9409645 */
	ok(fabs(sb_detectable(2, 4, 0.05, 0.8) - 2 * (2.7764451052 + 0.9409645)) < 1e-6,
	   "detectable change at 5%, 80% power, df 4");
	{
		struct sb_ttest tt;

		ok(sb_ttest2(3, 2, 1, 3, 4, 4, &tt) == 0 && near(tt.diff, 2) &&
		   near(tt.se, sqrt(2.5 * 2.0 / 3)) && tt.df == 4 && near(tt.t, 2 / sqrt(2.5 * 2.0 / 3)) &&
		   near(tt.p, sb_student_p2(tt.t, 4)), "two-sample t");
		ok(sb_ttest2(2, 1, 0, 2, 1, 0, &tt) == 0 && tt.p == 1 && sb_ttest2(2, 1, 0, 2, 2, 0, &tt) == 0 &&
		   tt.p == 0 && sb_ttest2(1, 1, 0, 1, 1, 0, &tt) == -1, "two-sample t without spread, and df 0");
	}
	{
		/* Holm: sorted 0.005 (x4 = 0.02), 0.01 (x3 = 0.03) rejected, 0.03 (x2 = 0.06) stops. */
		double hp[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
		int rej[4];

		ok(sb_holm(hp, NULL, 4, 0.05, rej, adj) == 2 && rej[0] && !rej[1] && !rej[2] && rej[3] &&
		   near(adj[3], 0.02) && near(adj[0], 0.03) && near(adj[2], 0.06) && near(adj[1], 0.06),
		   "Holm: rejections and adjusted p-values (monotone)");
		/* BH on the same: k = 4, 0.04 <= 4 * 0.05 / 4: all four. */
		ok(sb_bh(hp, 4, 0.05, rej, adj) == 4 && rej[0] && rej[1] && rej[2] && rej[3] &&
		   near(adj[3], 0.02) && near(adj[0], 0.02) && near(adj[2], 0.04) && near(adj[1], 0.04),
		   "BH: rejections and adjusted p-values");
	}
	{
		/* Binary-exact steps at alpha 0.375: 0.125 x 3 = 0.375 is at its level (rejected);
		 * 0.19 x 2 = 0.38 is not, and the step-down stops: 0.3 <= 0.375 stays. */
		double a[] = { 0.125, 0.1875, 0.375 }, b[] = { 0.3, 0.19, 0.125 }, c[] = { 0.25, 0.3125, 0.375 },
		       d2[] = { 0.25, 0.3125, 0.5 }, e[] = { NAN, 0.375 };
		int rej[3];

		ok(sb_holm(a, NULL, 3, 0.375, rej, NULL) == 3, "Holm: p exactly at each step's level is rejected");
		ok(sb_holm(b, NULL, 3, 0.375, rej, NULL) == 1 && rej[2] && !rej[1] && !rej[0],
		   "Holm: the first step that fails stops it (0.3 <= alpha stays)");
		ok(sb_holm(c, NULL, 3, 0.375, rej, NULL) == 0 && sb_bh(c, 3, 0.375, rej, NULL) == 3,
		   "BH step-up: p(3) = alpha rejects all three where Holm rejects none");
		ok(sb_bh(d2, 3, 0.375, rej, NULL) == 0, "BH: no k with p(k) <= k alpha / m: none");
		ok(sb_holm(e, NULL, 2, 0.375, rej, NULL) == 1 && !rej[0] && rej[1] &&
		   sb_bh(e, 2, 0.375, rej, NULL) == 1 && rej[1], "a NAN p-value is not in the family");
		ok(sb_holm(e, NULL, 0, 0.05, rej, NULL) == 0, "an empty family");
	}
	{
		/* Weighted Holm: p / w 0.002 then 0.08; 0.001 <= 0.05 * 0.5 / 1, then 0.04 <= 0.05 * 0.5 / 0.5. */
		double p2[] = { 0.04, 0.001 }, p3[] = { 0.04, 0.2 }, p4[] = { 0.006, 0.2 };
		double w1[] = { 0.5, 0.5 }, w2[] = { 0.9, 0.1 }, w3[] = { 0.1, 0.9 }, adj[2];
		int rej[2];

		ok(sb_holm(p2, w1, 2, 0.05, rej, adj) == 2 && near(adj[1], 0.002) && near(adj[0], 0.04),
		   "weighted Holm, equal weights: Holm's");
		ok(sb_holm(p2, w3, 2, 0.05, rej, adj) == 2 && near(adj[1], 0.001 / 0.9) && near(adj[0], 0.04),
		   "weighted Holm: a rejected hypothesis passes its weight on (0.04 then at 0.05 * 0.1 / 0.1)");
		/* 0.04 / 0.9 = 0.044 <= 0.05: rejected where equal weights need 0.04 x 2 = 0.08. */
		ok(sb_holm(p3, w2, 2, 0.05, rej, adj) == 1 && rej[0] && !rej[1] && near(adj[0], 0.04 / 0.9) &&
		   sb_holm(p3, NULL, 2, 0.05, rej, NULL) == 0, "weighted Holm: a heavy weight lowers the level needed");
		/* 0.006 / 0.1 = 0.06 > 0.05: nothing, where equal weights reject 0.006 x 2 = 0.012. */
		ok(sb_holm(p4, w3, 2, 0.05, rej, adj) == 0 && near(adj[0], 0.06) &&
		   sb_holm(p4, NULL, 2, 0.05, rej, NULL) == 1, "weighted Holm: a light weight raises it");
	}
	printf("1..%d\n", n);
	return 0;
}
EOF
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror ${SB_SAN:+-fsanitize=$SB_SAN} -I. -Ianalysis -Ianalysis/stat -Ianalysis/curve -Ianalysis/plan -Ianalysis/msg -Ianalysis/io -o "$tmp/t" "$tmp/t.c" analysis/stat/stats.c analysis/stat/tquantile.c -lm \
	2>"$tmp/cc.err"; then
	echo "1..1"
	echo "not ok 1 - compile the stats test"
	sed 's/^/# /' "$tmp/cc.err"
	exit 1
fi
"$tmp/t"
