#!/bin/bash
# analysis_peak.t: sb_peak_find (analysis/curve/peak.h) on fixed curves: the best count and its plateau at 95%.
# Built here from analysis/curve/peak.c and stats.c, so it does not depend on how the build dir was compiled.
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/t.c" <<'EOF_C'
#include <stdio.h>
#include "peak.h"

static int n;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
}

#define NP(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	/* A peak at 6: 4 and 8 are close to it but 5 runs each separate them (sd 1). */
	struct sb_peak_point sharp[] = {
		{ 1, 5, 100, 1 }, { 2, 5, 180, 1 }, { 4, 5, 300, 1 }, { 6, 5, 320, 1 },
		{ 8, 5, 310, 1 }, { 16, 5, 200, 1 },
	};
	/* A plateau: 8, 16 and 32 within a noise of sd 10, 64 below it. */
	struct sb_peak_point flat[] = {
		{ 1, 5, 100, 100 }, { 8, 5, 500, 100 }, { 16, 5, 505, 100 }, { 32, 5, 498, 100 },
		{ 64, 5, 400, 100 },
	};
	/* The same plateau with 16 measured once: no interval, it ends the plateau. */
	struct sb_peak_point gap[] = {
		{ 1, 5, 100, 100 }, { 8, 5, 500, 100 }, { 16, 1, 499, 0 }, { 32, 5, 498, 100 },
	};
	/* The best measured once: its plateau is itself. */
	struct sb_peak_point lone[] = { { 1, 5, 100, 1 }, { 2, 1, 101, 0 }, { 4, 5, 100.5, 1 } };
	/* A tie: the lowest count is best; an unmeasured point (n 0) is never best. */
	struct sb_peak_point tie[] = { { 1, 0, 900, 0 }, { 2, 3, 50, 0 }, { 3, 3, 50, 0 } };
	struct sb_peak_point unsorted[] = { { 2, 3, 1, 0 }, { 1, 3, 2, 0 } };
	struct sb_peak pk;

	ok(sb_peak_find(sharp, NP(sharp), 95, &pk) == 0 && pk.best == 3 && pk.lo == 3 && pk.hi == 3,
	   "sharp peak at 6: best 6, plateau 6..6");
	ok(sb_peak_find(flat, NP(flat), 95, &pk) == 0 && pk.best == 2 && pk.lo == 1 && pk.hi == 3,
	   "plateau: best 16, plateau 8..32");
	ok(sb_peak_find(gap, NP(gap), 95, &pk) == 0 && pk.best == 1 && pk.lo == 1 && pk.hi == 1,
	   "a one-run neighbour is never indistinguishable: plateau 8..8");
	ok(sb_peak_find(lone, NP(lone), 95, &pk) == 0 && pk.best == 1 && pk.lo == 1 && pk.hi == 1,
	   "a one-run best: plateau is the best alone");
	ok(sb_peak_find(tie, NP(tie), 95, &pk) == 0 && pk.best == 1 && pk.lo == 1 && pk.hi == 2,
	   "tie: the lowest count is best; n 0 is skipped; equal zero-variance means are one plateau");
	ok(sb_peak_find(sharp, 0, 95, &pk) == -1, "no point is an error");
	ok(sb_peak_find(unsorted, NP(unsorted), 95, &pk) == -1, "counts not rising are an error");
	ok(sb_peak_find(sharp, NP(sharp), 97, &pk) == -1, "an unknown level is an error");
	ok(sb_peak_same(&flat[1], &flat[2], 95) == 1 && sb_peak_same(&flat[1], &flat[4], 95) == 0,
	   "sb_peak_same: 500 vs 505 alike, 500 vs 400 not");
	printf("1..%d\n", n);
	return 0;
}
EOF_C
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I. -Ianalysis -Ianalysis/stat -Ianalysis/curve -Ianalysis/plan -Ianalysis/msg -Ianalysis/io -o "$tmp/t" "$tmp/t.c" analysis/curve/peak.c \
	analysis/stat/stats.c analysis/stat/tquantile.c -lm 2>"$tmp/cc.err"; then
	echo "1..1"
	echo "not ok 1 - compile the peak test"
	sed 's/^/# /' "$tmp/cc.err"
	exit 1
fi
"$tmp/t"
