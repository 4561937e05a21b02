#!/usr/bin/env bash
# The verdict module (analysis/stat/verdict.c) and sb_curve_value on fixed values (selftest/unit/verdict.c): every figure, exactly.
# Each expected figure is worked by hand below from the formulas (t quantiles: t(0.975, 4) = 2.7764,
# t(0.8, 4) = 0.9410); the digits are the module's, the same as compare, history show and bisect printed.
. "$(dirname "$0")/lib.sh"
U=$B/selftest/unit_verdict
plan 22

# v ARGS...: the module's figures as one line ("word faster|estimate 10|..."), with its exit code
v() {
	local out rc=0
	out=$("$U" "$@") || rc=$?
	printf '%s\n' "$out" | paste -sd'|'
	return "$rc"
}
NONE='drift none: the runs are the independent values'

# A ratio of means (compare's points, show's pairs): 3 runs a side, var 4 each, +10%. The ratio's
# error sqrt((2x4 + 2x4x1.1^2) x 6 / 36) = 1.71659; interval 10 -/+ 2.7764 x 1.71659; p of t =
# 10 / (2 sqrt(2/3)) = 6.12 at 4 df; detectable (2.7764 + 0.9410) x 100 sqrt(4/3e4 + 4/(3 x 12100)).
is "$(v ratio 95 0 100,102,98 110,112,108)" \
	"word faster|estimate 10|interval 5.23476 14.7652|se 1.71659|df 4|p 0.00360223|detectable 5.80114|n 3 3|mean 100 110|var 4 4|$NONE|detectable at 0.01 8.65325" \
	"ratio: +10%, its interval, se, df, p and detectable at 5% and at 1%"
is "$(v ratio 95 0 s:3:100:4 s:3:110:4)" "$(v ratio 95 0 100,102,98 110,112,108)" \
	"ratio: sides given as summaries (n, mean, var) give the same figures"
is "$(v ratio 95 0 100,102,98 101,99,103)" \
	"word same|estimate 1|interval -3.55591 5.55591|se 1.64118|df 4|p 0.573392|detectable 6.04053|n 3 3|mean 100 101|var 4 4|$NONE|detectable at 0.01 9.01033" \
	"ratio: +1% inside its interval is the same"
# -10% with var 1 on the new side: error sqrt((2 + 8 x 0.81) / 6) = 1.18884.
is "$(v ratio 95 0 100,102,98 90,91,89)" \
	"word slower|estimate -10|interval -13.3002 -6.69979|se 1.18884|df 4|p 0.00149648|detectable 4.91044|n 3 3|mean 100 90|var 4 1|$NONE|detectable at 0.01 7.32464" \
	"ratio: -10% is slower"
is "$(v ratio 95 0 100,102/98 90,91,89)" "$(v ratio 95 0 100,102,98 90,91,89)" \
	"ratio: a side of two sweeps pools their runs (today's rule: the runs are the units)"
# Sweeps given as summaries (n, mean, var) pool by sums of squares: 3 at 100 (var 4) and 2 at 95
# (var 2): mean 98, var (2 x 4 + 3 x 2^2 + 1 x 2 + 2 x 3^2) / 4 = 10; a sweep of values among them
# is summarised first.
is "$(v ratio 95 0 s:3:100:4/s:2:95:2 90,91,89 | cut -d'|' -f8-10)" "n 5 3|mean 98 90|var 10 1" \
	"ratio: sweeps given as summaries pool within and between"
is "$(v ratio 95 0 100,102,98/s:2:95:2 90,91,89)" "$(v ratio 95 0 s:3:100:4/s:2:95:2 90,91,89)" \
	"ratio: a sweep of values among summaries counts as its summary"
# Log values (compare's curves): a difference of 0.1, se sqrt(1e-4 x 2/3) = 0.0081650; 100 expm1(0.1) =
# 10.5171, interval 100 expm1(0.1 -/+ 2.7764 x 0.008165), detectable 3.7174 x 0.8165.
is "$(v log 95 0 13.8155,13.8255,13.8055 13.9155,13.9055,13.9255)" \
	"word faster|estimate 10.5171|interval 8.0399 13.0511|se 0.816497|df 4|p 0.000255217|detectable 3.03525|n 3 3|mean 13.8155 13.9155|var 0.0001 0.0001|$NONE|detectable at 0.01 4.52752" \
	"log: the curve's change, interval and detectable from the mean log values"
# A difference in % of base (bisect's ends): se 100 sqrt(4 x 2/3) / 100 = 1.63299, detectable 3.7174 x it.
is "$(v diff 95 0.05 100,102,98 90,92,88)" \
	"word slower|estimate -10|interval -14.5339 -5.46608|se 1.63299|df 4|p 0.00360223|detectable 6.0705|n 3 3|mean 100 90|var 4 4|$NONE|detectable at 0.01 9.05504" \
	"diff: the change in % of base, se, p and detectable at the given 5%"
is "$(v diff 95 0.05 100 90,92 | cut -d'|' -f1-6)" "word same|estimate -9|interval -31.0078 13.0078|se 1.73205|df 1|p 0.121038" \
	"diff: one value against two is a test of 1 df (bisect's step at its end's level)"

# Refusals: exit 1, the word "not comparable", no number.
rc=0; out=$(v ratio 95 0 100 110,111) || rc=$?
is "$rc:$out" "1:word not comparable|estimate nan|interval nan nan|se nan|df nan|p nan|detectable nan|n 1 2|mean 100 110.5|var 0 0.5|$NONE" \
	"one value a side: not comparable"
rc=0; out=$(v ratio 97 0 100,102,98 110,112,108) || rc=$?
like "$rc:$out" '^1:word not comparable\|estimate nan' "a level the t table does not hold: not comparable"
# A drift of 2% given: the sweep is the unit. In logs, each side's var of log runs ~ 4e-4 / 100^2 x
# 100^2; se^2 = 2 x 0.02^2 + sigma^2 (1/3 + 1/3) = 0.0323047^2, Welch-Satterthwaite's df 73.4 (the
# given drift exact: only the runs' 4 df count), the estimate the ratio of the geometric means.
is "$(v ratio 95 0 100,102,98 110,112,108 2 | cut -d'|' -f1-6,11)" \
	"word faster|estimate 10.0025|interval 3.14404 17.3171|se 3.23047|df 73.4161|p 0.00424843|drift given (--drift)" \
	"a drift given: the sweeps model, its figures and its source"
# The median of runs as a sweep's value (5 runs a sweep or more): 110.5 against 100 is +10.5%, the wild
# run at 200 outvoted; the runs' part pi/2 x the pooled var of the logs x (1/5 + 1/5), on its 8 df:
# se sqrt(2 x 0.02^2 + that) = 15.2338%, df (ct + cw)^2 / (cw^2 / 8) = 8.58.
is "$(v ratio 95 0 100,101,99,100.5,99.5 110,111,109,110.5,200 2 median | cut -d'|' -f2,4,5,13)" \
	"estimate 10.5|se 15.2338|df 8.58145|median 1" "median: the runs' medians, the median's variance"
is "$(v ratio 95 0 100,101,99,100.5 110,111,109,110.5,200 2 median | cut -d'|' -f2,13)" \
	"estimate 23.9299|median 0" "median: a sweep of 4 runs: the means of logs for both sides"

# Wald's spread: sqrt((2 x 1 + 1 x 2) / (2 + 1)); a side of one value adds nothing.
is "$(v spread 1,2,3 4,6 5)" "spread 1.1547" "spread: pooled over the sides with 2 values or more"
rc=0; out=$(v spread 5 6) || rc=$?
is "$rc:$out" "1:spread nan" "spread: no side with 2 values, no spread"

# The curve as one number a run: the mean log over the points. One rule for compare, history and
# bisect: a run with a mean at some point of 0, below 0 or not finite has no value ("none"), the
# others keep theirs, and the first point holding such a run is named.
is "$(v curve 2 1,4 4,16,-1)" "runs 2|0.693147|2.07944" "curve: (log 1 + log 4) / 2, (log 4 + log 16) / 2; a third run not used is not looked at"
is "$(v curve 3 1,4,2 4,16,-1)" "runs 2|0.693147|2.07944|none|bad point 2" \
	"curve: a negative run mean: that run has no value, the others keep theirs, the point is named"
is "$(v curve 2 1,0 4,16)" "runs 1|0.693147|none|bad point 1" "curve: a run mean of 0: that run has no value"
is "$(v curve 2 1,4 4,inf 2,nan)" "runs 1|0.693147|none|bad point 2" "curve: a run mean not finite: no value"
rc=0; out=$(v curve 2 0,-1 4,16) || rc=$?
is "$rc:$out" "1:runs 0|none|none|bad point 1" "curve: no run with a value: none, and exit 1"
