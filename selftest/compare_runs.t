#!/bin/bash
# compare_runs.t: compare.sh on run directories: table, peak, scalability, formats, gating, refusals.
set -u
cd "$(dirname "$0")/.." || exit 1

# Fixtures (selftest/data/compare/make_fixtures.py): with --repeat 3 every point's per-run means
# are m - 10, m, m + 10, so mean m and standard deviation 10; "new" is "base" with processes at
# 2 tasks 2000 -> 1800 ops/s, a planted 10% regression.
R=selftest/data/compare/results/unix1
BASE=$R/base-20260101T000000
NEW=$R/new-20260102T000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# run ARGS...: stdout in $tmp/out, stderr in $tmp/err, exit code in $rc.
run() {
	./compare.sh --drift 0 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

has() { grep -Eq -- "$1" "$tmp/out"; }

show() { sed 's/^/# /' "$tmp/out" "$tmp/err"; }

# exits CODE DESCRIPTION: the last run exited CODE.
exits() {
	[ "$rc" -eq "$1" ]
	ok $? "$2 (exit $rc)"
	[ "$rc" -eq "$1" ] || show
}

run "$BASE" "$NEW"
exits 1 "planted 10% regression fails the comparison"
# change = 100 * (1800 - 2000) / 2000 = -10 %. df = 4, t = 2.776;
# re = 2.776 * sqrt((2*100 + 2*100 * 1800^2/2000^2) * 6 / (3*3*4)) = 2.776 * 7.76745 = 21.5624,
# 100 * re / 2000 = 1.08 %. Significant: |d| = 200 > e = 2.776 * 10 * sqrt(2/3) = 22.67.
# Runs 3/3; each side's precision: t(2) = 4.303, 4.303 * 10 / sqrt(3) = 24.843,
# 100 * 24.843 / 2000 = 1.24 %, / 1800 = 1.38 %. Detectable: the gate tests each of the 6 points
# at 0.05 / 2 / 6 (half the level to the 2 curves): (t(1 - 0.05 / 24, 4) + t(0.8, 4)) * 100 *
# sqrt(10^2 / (3 * 2000^2) + 10^2 / (3 * 1800^2)) = (5.888 + 0.941) * 0.4315 % = 2.95 %;
# p = 1.6e-5 (t = 200 / 8.165 = 24.5, df 4), so the gate calls it changed.
has '^ +2  processes +2000 +1800 +-10\.00% +1\.08% +3/3 +1\.24%/1\.38% +\+/-2\.95% +changed  slower$'
ok $? "regressed point: change, +/-, runs, precision of each side, detectable, gate, verdict"
# Equal means: 0 %; re = 2.776 * sqrt((200 + 200) / 6) = 22.6659, 100 * re / 1000 = 2.27 %.
has '^ +1  processes +1000 +1000 +\+0\.00% +2\.27% +3/3 +2\.48%/2\.48% +\+/-5\.57% +-  no difference proven$'
ok $? "unchanged point: no difference proven"
[ "$(grep -Ec '^ +[0-9]+  .*no difference proven$' "$tmp/out")" -eq 5 ]
ok $? "the five other points show no difference"
has '^  base  base: kernel Linux 6\.1\.0-base #1 SMP x86_64, host box1$' &&
	has '^  new   new: kernel Linux 6\.1\.0-new #1 SMP x86_64, host box1$'
ok $? "kernels, labels and hosts from meta head the output"
# Peak: processes 1000, 2000, 3000 at 1, 2, 4 tasks: 3000 at 4, scalability 3000 / (4 * 1000).
# threads 1000, 1900, 1800: peak 1900 at 2 then declines, scalability 1800 / (4 * 1000).
# The plateau column: counts within the peak's 95% interval; the peak alone here (sd 10 a point).
has '^  base +processes +3000 +4 +4 +4 +3000 +0\.750$' && has '^  base +threads +1900 +2 +2 +4 +1800 +0\.450$' &&
	has '^  new +processes +3000 +4 +4 +4 +3000 +0\.750$'
ok $? "peak, plateau and scalability per run and mode"
# base with threads at 4 tasks raised by 100 to 1900 +- 10 like 2 tasks: equal means, the
# lower count is the peak, and 4 is on its plateau (as summary.csv's threads_peak says).
mkdir "$tmp/flat"
cp "$BASE/meta" "$tmp/flat/meta"
awk -F, -v OFS=, '$1 == "threads" && $2 == 4 && $4 == "measure" { $7 += 100; $8 = sprintf("%.6f", $8 + 100) } { print }' \
	"$BASE/samples.csv" >"$tmp/flat/samples.csv"
run --fail-on never "$tmp/flat" "$NEW"
has '^  base +threads +1900 +2 +2-4 +4 +1900 +0\.475$'
ok $? "a plateau of counts indistinguishable from the peak is shown as a range"
"${SB_BUILD:-build}/bin/sb-summary" "$tmp/flat/samples.csv" | awk -F, 'NR > 2 { printf "%s:%s ", $1, $22 }' >"$tmp/peakcol"
[ "$(cat "$tmp/peakcol")" = "1: 2:2 4:1 " ]
ok $? "the same plateau as sb-summary's threads_peak ($(cat "$tmp/peakcol"))"
run "$BASE" "$NEW"	# the report the next checks read
has '^Verdict: REGRESSION: 1 of 6 points .*new processes at 2 tasks -10\.00% \+/- 1\.08%\.$'
ok $? "verdict names the regressed point"
! grep -q correlated "$tmp/out"
ok $? "runs made with --repeat 3: no correlation note"

run --threshold 15 "$BASE" "$NEW"
exits 0 "--threshold 15: a 10% slowdown is not a regression"
has 'slower, under threshold$'
ok $? "and it is shown as under the threshold"
run --threshold 9.99 "$BASE" "$NEW"
exits 1 "--threshold 9.99: it is"
run --threshold 10 "$BASE" "$NEW"
exits 1 "--threshold 10: exactly at the threshold counts"

run "$NEW" "$BASE"
exits 0 "faster is not a regression"
has '^ +2  processes +1800 +2000 +\+11\.11%'
ok $? "change relative to the base: 200 / 1800 = +11.11%"
run --fail-on change "$NEW" "$BASE"
exits 1 "--fail-on change fails on a speed-up"
run --fail-on never "$BASE" "$NEW"
exits 0 "--fail-on never"

run "$BASE" "$R"
exits 1 "a test directory means its latest run"
has "^        $NEW \\(complete"
ok $? "latest is shown as the run it points to"

run --format markdown "$BASE" "$NEW"
exits 1 "markdown fails the same way"
[ "$(head -n 1 "$tmp/out")" = "### REGRESSION: compare unix1" ] &&
	sed -n 3p "$tmp/out" | grep -q '^\*\*Regression\*\*: 1 of 6 points'
ok $? "markdown: the verdict comes first"
has '^\| 2 \| processes \| 2000 \| 1800 \| -10\.00% \| 1\.08% \| 3/3 \| 1\.24%/1\.38% \| ±2\.95% \| changed \| \*\*slower\*\* \|$' &&
	has '^\| base \| base \| Linux 6\.1\.0-base #1 SMP x86_64 \| box1 \|'
ok $? "markdown: run table and point table"
has '^\| base \| threads \| 1900 \| 2 \| 2 \| 4 \| 1800 \| 0\.450 \|$'
ok $? "markdown: peak and scalability"
# base again: a copy under another run id (one sweep as both BASE and NEW is refused, below)
AGAIN=$tmp/again
mkdir -p "$AGAIN"
cp "$BASE/samples.csv" "$AGAIN/"
sed 's/^run_id=.*/run_id=base-20260109T000000/' "$BASE/meta" >"$AGAIN/meta"
run --format markdown "$BASE" "$AGAIN"
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "### PASS: compare unix1" ]
ok $? "markdown: a pass says so first"

run --format csv "$BASE" "$NEW"
exits 1 "csv fails the same way"
[ "$(head -n 1 "$tmp/out")" = "test,base,new,mode,tasks,base_n,base_mean,base_stddev,new_n,new_mean,new_stddev,values,diff,diff_pm,change_pct,change_pm_pct,verdict,beyond_threshold,regression,base_runs,new_runs,base_precision_pct,new_precision_pct,machine,p_value,gate,detectable_pct,curve_change_pct,curve_gate" ] &&
	has '^unix1,base,new,processes,2,3,2000\.000000,10\.000000,3,1800\.000000,10\.000000,runs,-200\.000000,22\.665945,-10\.000000,1\.078123,slower,1,1,3,3,1\.242169,1\.380188,same,1\.64831e-05,1,2\.945707,-3\.451124,1$' &&
	[ "$(wc -l <"$tmp/out")" -eq 7 ]
ok $? "csv: header and one row a point"

# The plot, width 74: min 1790, max 2010, dx = 220 / 73, x0 = 1790 - dx / 2, so
# 1790 1800 1810 -> columns 0 3 7 and 1990 2000 2010 -> 66 70 73.
run --point processes:2 "$BASE" "$NEW"
exits 1 "--point: exit code of that point"
want="x $BASE processes:2 (per-run means)
+ $NEW processes:2 (per-run means)
+--------------------------------------------------------------------------+
|+  +   +                                                          x   x  x|
||__A___|                                                          |___A__||
+--------------------------------------------------------------------------+
    N           Min           Max        Median           Avg        Stddev
x   3          1990          2010          2000          2000            10
+   3          1790          1810          1800          1800            10
Difference at 95.0% confidence
	-200 +/- 22.6659
	-10% +/- 1.07812%
	(Student's t, pooled s = 10)"
[ "$(sed -n '/^x /,/pooled s/p' "$tmp/out")" = "$want" ]
ok $? "--point prints ministat's block for the point"
run --point processes:3 "$BASE" "$NEW"
exits 2 "--point at a missing point"
grep -q "has no point processes:3" "$tmp/err"
ok $? "and says which"
run --point processes "$BASE" "$NEW"
exits 2 "--point without a task count"

# Single runs (repeat 1, five samples m-20 .. m+20 a point): refused as a gate;
# --force compares the samples, with the note printed once.
for f in text csv markdown; do
	run --format "$f" "$BASE" "$R/single-20260103T000000"
	exits 2 "$f: a single run against base is refused"
done
grep -q 'processes at 1 tasks has a single run (base 3, new 1).*--force compares the samples anyway' "$tmp/err"
ok $? "the refusal names the point, the runs of each side and --force"
run --point processes:2 "$BASE" "$R/single-20260103T000000"
exits 2 "--point of a single run is refused too"
run --force "$BASE" "$R/single-20260103T000000"
exits 1 "--force: a single run against base is compared"
[ "$(grep -c 'correlated' "$tmp/out")" -eq 1 ] && has "not 95% confidence intervals" && has "runtest\.sh's default runs"
ok $? "--force: one note saying the samples' +/- is not a 95% interval"
has '^ +2  processes +2000 +1800 +-10\.00% +[0-9.]+% +3/1 +-/- +\S+ +\S+  slower$'
ok $? "--force: runs 3/1, no precision on either side (samples are compared)"
run --force --format csv "$BASE" "$R/single-20260103T000000"
[ "$(grep -c correlated "$tmp/out")" -eq 0 ] && [ "$(grep -c correlated "$tmp/err")" -eq 1 ]
ok $? "csv: the note goes to stderr, not into the csv"
# Against a single run the base's 9 samples (3 runs x 3) are compared, not its 3 run means.
has '^unix1,base,single,processes,2,9,2000\.000000,[0-9.]+,5,1800\.000000,[0-9.]+,samples,.*,3,1,,,same,[^,]+,[01],[0-9.]+,,$'
ok $? "means of runs are not compared with samples: both sides use samples, no precision"

run "$BASE" selftest/data/compare/results/pipe1
exits 2 "different testcases are refused"
grep -q "different testcases" "$tmp/err"
ok $? "and the message says so"
run --force "$BASE" selftest/data/compare/results/pipe1
exits 0 "--force compares different testcases"
has 'TESTCASE pipe1'
ok $? "and marks the other testcase"
run "$BASE" "$R/failed-20260104T000000"
exits 2 "a failed run is refused"
grep -q "status is failed" "$tmp/err"
ok $? "and the message names the status"
run --force "$BASE" "$R/failed-20260104T000000"
exits 0 "--force compares a failed run"
has 'STATUS failed, compared with --force'
ok $? "and marks it"
run "$BASE" "$R/wide-20260105T000000"
exits 2 "runs without a common point are refused"
grep -q "no point (mode, tasks) in common" "$tmp/err"
ok $? "and the message says so"

run "$BASE" "$AGAIN"
exits 0 "a run against a copy of its data: no difference"
has '^base-20260109T000000 against base-20260101T000000 '
ok $? "runs sharing a label are named by their run ids"
# one sweep as BASE and NEW (by its path, or a copy with its run id): refused as --vs refuses it
for same in "$BASE" "$BASE/" "$R/latest/../base-20260101T000000"; do
	run "$BASE" "$same"
	exits 2 "one sweep as both BASE and NEW ($same) is refused"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'the same sweep (unix1 base-20260101T000000) as both BASE and NEW' "$tmp/err" &&
		[ ! -s "$tmp/out" ]
	ok $? "in one line naming it, no report"
done
mkdir -p "$tmp/copy"
cp "$BASE/samples.csv" "$BASE/meta" "$tmp/copy/"
run --force "$BASE" "$NEW" "$tmp/copy"
exits 2 "a copy of BASE (same run id) among the NEWs is refused, --force or not"
run "$BASE" "$R/typo"
exits 2 "a missing run directory"
grep -q "cannot open $R/typo" "$tmp/err"
ok $? "is named"

mkdir -p "$tmp/empty" "$tmp/bad" "$tmp/nometa"
run "$BASE" "$tmp/empty"
exits 2 "a directory that is no run"
cp "$BASE/meta" "$BASE/samples.csv" "$tmp/bad/"
echo "processes,2,1,measure,4,1.000000,5,abc,,,," >>"$tmp/bad/samples.csv"
lines=$(wc -l <"$tmp/bad/samples.csv")
run "$BASE" "$tmp/bad"
exits 2 "malformed samples.csv"
grep -q "^compare: $tmp/bad/samples.csv:$lines: ops_per_s 'abc'" "$tmp/err"
ok $? "names file and line"
cp "$BASE/meta" "$tmp/bad/"
head -n 5 "$BASE/samples.csv" >"$tmp/bad/samples.csv"
echo "processes,2,1,measure" >>"$tmp/bad/samples.csv"
run "$BASE" "$tmp/bad"
grep -q "samples.csv:6: 4 fields, the header has 12" "$tmp/err" && [ "$rc" -eq 2 ]
ok $? "short row: file and line"
cp "$BASE/samples.csv" "$tmp/nometa/"
run "$BASE" "$tmp/nometa"
exits 2 "a run without meta"

run --format yaml "$BASE" "$NEW"
exits 2 "unknown format"
run -C 2 "$BASE" "$NEW"
exits 2 "-C applies to files only"
run "$BASE" selftest/data/compare/ministat/a.txt
exits 2 "files and directories mixed"
run "$BASE"
exits 2 "one run is not a comparison"

# The wrapper builds the tool when it is missing (into SB_BUILD), then runs it.
SB_BUILD=$tmp/build ./compare.sh -n selftest/data/compare/ministat/a.txt >"$tmp/out" 2>"$tmp/err"
rc=$?
exits 0 "compare.sh builds a missing tool"
[ -x "$tmp/build/bin/sb-compare" ] && grep -q '^x   7 ' "$tmp/out"
ok $? "into SB_BUILD, and runs it"

# Without make and without a built tool it stops with exit 3.
mkdir -p "$tmp/path"
for tool in dirname find head; do
	ln -s "$(command -v "$tool")" "$tmp/path/$tool"
done
PATH=$tmp/path SB_BUILD=$tmp/nobuild ./compare.sh --help >"$tmp/out" 2>"$tmp/err"
rc=$?
exits 3 "compare.sh cannot build: environment error"
grep -q "make is not installed" "$tmp/err"
ok $? "and says why"

# One independence rule (SB_INDEPENDENT_RUNS, 2): with 2 runs a point, the run
# means are compared, as sb-summary and the plots use them.
for d in base-20260101T000000 new-20260102T000000; do
	mkdir -p "$tmp/two/unix1/$d"
	cp "$R/$d/meta" "$tmp/two/unix1/$d/"
	awk -F, '$3 != 3' "$R/$d/samples.csv" >"$tmp/two/unix1/$d/samples.csv"
done
run "$tmp/two/unix1/base-20260101T000000" "$tmp/two/unix1/new-20260102T000000"
exits 1 "2 runs a point: the planted regression is found"
has "compared: the means of independent runs"
ok $? "2 runs a point: the run means are compared"
! grep -q "per-second samples are compared" "$tmp/err"
ok $? "2 runs a point: no note about correlated samples"

# A run measured in a VM under TCG (runtest.sh --kernel without KVM) is no gate:
# exit 2 naming vm_accel, unless --force; a KVM run compares as usual.
for acc in tcg kvm; do
	mkdir -p "$tmp/$acc/unix1"
	cp -R "$NEW" "$tmp/$acc/unix1/"
	echo "vm_accel=$acc" >>"$tmp/$acc/unix1/${NEW##*/}/meta"
done
run "$BASE" "$tmp/tcg/unix1/${NEW##*/}"
exits 2 "a TCG run is refused as a gate"
grep -q "vm_accel=tcg" "$tmp/err"
ok $? "the refusal names vm_accel=tcg"
run --force "$BASE" "$tmp/tcg/unix1/${NEW##*/}"
exits 1 "--force compares the TCG run (the planted regression)"
run "$BASE" "$tmp/kvm/unix1/${NEW##*/}"
exits 1 "a KVM run compares as usual"

# The verdict is the printed interval's. New's run means 1012.8, 1022.8, 1032.8 against
# base's 990, 1000, 1010 at processes:1: d = 22.8 > e = 2.776 * 10 * sqrt(2/3) = 22.67
# (ministat's absolute test would say "Difference"), but the ratio's error
# re = 2.776 * sqrt((200 + 200 * 1022.8^2/1000^2) / 6) = 22.93 > 22.8: +2.28% +/- 2.29%
# contains 0, so the verdict must be "no difference proven", not "faster".
mkdir -p "$tmp/edge/unix1"
cp -R "$BASE" "$tmp/edge/unix1/"
e=$tmp/edge/unix1/${BASE##*/}
sed -i 's/^label=base/label=edge/; s/^run_id=.*/run_id=edge/' "$e/meta"
awk -F, -v OFS=, '$1 == "processes" && $2 == 1 && $4 == "measure" { $8 = sprintf("%.6f", $8 + 22.8) } { print }' \
	"$BASE/samples.csv" >"$e/samples.csv.new" && mv "$e/samples.csv.new" "$e/samples.csv"
run --fail-on change "$BASE" "$e"
exits 0 "a change whose relative interval holds 0 is no change (--fail-on change)"
has '^ +1  processes +1000 +1023 +\+2\.28% +2\.29% +3/3 .* no difference proven$'
ok $? "+2.28% +/- 2.29%: no difference proven, as the interval says"

# --vs: each side pooled from several sweeps. The 3-run fixtures split into 3 single-run
# directories a side must compare exactly as the 3-run runs do (the same run means).
for d in base-20260101T000000 new-20260102T000000; do
	for k in 1 2 3; do
		mkdir -p "$tmp/vs/unix1/$d-$k"
		sed "s/^run_id=.*/run_id=$d-$k/; s/^repeat=.*/repeat=1/" "$R/$d/meta" >"$tmp/vs/unix1/$d-$k/meta"
		awk -F, -v OFS=, -v k="$k" 'NR == 1 || $3 == k { if (NR > 1) $3 = 1; print }' "$R/$d/samples.csv" \
			>"$tmp/vs/unix1/$d-$k/samples.csv"
	done
done
V=$tmp/vs/unix1
run "$V"/base-20260101T000000-1 "$V"/new-20260102T000000-1
exits 2 "one single-run sweep a side is no gate (no --vs)"
run "$V"/base-20260101T000000-? --vs "$V"/new-20260102T000000-?
exits 1 "--vs: 3 single-run sweeps a side find the planted regression"
has '^ +2  processes +2000 +1800 +-10\.00% +1\.08% +3/3 +1\.24%/1\.38% +\+/-2\.95% +changed  slower$'
ok $? "--vs: the same change, interval, runs and precision as one sweep of 3 runs"
has '^new against base \(compared: the means of independent runs\)'
ok $? "--vs: each side is named by its sweeps' shared label"
has 'base-20260101T000000-1 and 2 more'
ok $? "--vs: the heading names a side's first sweep and how many more"
! has 'each side is one sweep'
ok $? "--vs: no note about drift between single sweeps"
run "$BASE" "$NEW"
has '^Note: each side is one sweep: .* pool them with --vs'
ok $? "without --vs the report says that drift between sweeps is not in the intervals"
run --format csv "$V"/base-20260101T000000-1 "$V"/base-20260101T000000-2 --vs "$V"/new-20260102T000000-3 "$V"/new-20260102T000000-1
exits 1 "--vs: 2 sweeps a side (options first, operands after)"
[ "$(awk -F, 'NR > 1 && $4 == "processes" && $5 == 2 { print $20 "/" $21 }' "$tmp/out")" = 2/2 ]
ok $? "--vs: csv counts the pooled runs of each side (2/2)"
run "$V"/base-20260101T000000-1 --vs
exits 2 "--vs without a new side is a usage error"
like_err() { grep -q -- "$1" "$tmp/err"; }
like_err "both sides"
ok $? "the message says both sides need run directories"
run "$V"/base-20260101T000000-1 --vs "$V"/new-20260102T000000-1 --vs "$V"/new-20260102T000000-2
exits 2 "--vs twice is a usage error"
sed -i 's/^host=.*/host=box2/' "$V/new-20260102T000000-2/meta"
run "$V"/base-20260101T000000-? --vs "$V"/new-20260102T000000-?
exits 2 "--vs: a side whose sweeps ran on different machines is refused"
like_err "one side, were measured on different machines: host differ"
ok $? "the refusal names the key that differs (host)"
run --force "$V"/base-20260101T000000-? --vs "$V"/new-20260102T000000-?
exits 1 "--force pools them anyway"

echo "1..$n"
