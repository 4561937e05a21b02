#!/bin/bash
# compare_stats.t: the analysis/stats.h API (shared by compare and the runtest summary) on known vectors.
# Built here from analysis/stats.c itself, so it does not depend on how the build dir was compiled.
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
	printf("1..%d\n", n);
	return 0;
}
EOF
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror ${SB_SAN:+-fsanitize=$SB_SAN} -Ianalysis -o "$tmp/t" "$tmp/t.c" analysis/stats.c -lm \
	2>"$tmp/cc.err"; then
	echo "1..1"
	echo "not ok 1 - compile the stats test"
	sed 's/^/# /' "$tmp/cc.err"
	exit 1
fi
"$tmp/t"
