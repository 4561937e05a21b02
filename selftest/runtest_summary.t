#!/usr/bin/env bash
# sb-summary: samples.csv -> summary.csv against hand-computed figures; bad input; atomic -o.
. "$(dirname "$0")/runtest_lib.sh"
need_build
S=$SB_BUILD/bin/sb-summary
D=selftest/data/runtest

# samples.csv has a warmup row, missing idle values, 3 runs at 2 tasks, a
# threads-only point with one sample; summary.csv was computed by hand:
# t(2) = 4.303 at 95% across the 3 runs at 2 tasks (21.602941% of the mean);
# a single run's points have no interval (_ci and _precision empty), 1 run.
rc=0
"$S" "$D/samples.csv" >"$T/summary.csv" 2>"$T/err" || rc=$?
is "$rc" 0 "exits 0"
is "$(diff "$D/summary.csv" "$T/summary.csv" && echo same)" same "the expected summary.csv"

cp "$D/samples.csv" "$T/s.csv"
echo old >"$T/out.csv"
rc=0
"$S" -o "$T/out.csv" "$T/s.csv" || rc=$?
is "$rc" 0 "-o exits 0"
is "$(cat "$T/out.csv")" "$(cat "$D/summary.csv")" "-o replaces the file"
is "$(find "$T" -mindepth 1 -name '*.tmp.*' | wc -l | tr -d ' ')" 0 "-o leaves no temporary file"

# no 1-task point: linear unknown: empty, and 0 for lkp-tests
grep -v ',1,1,' "$D/samples.csv" >"$T/no1.csv"
"$S" "$T/no1.csv" >"$T/no1.out"
is "$(awk -F, '$1 == 2 { print "[" $6 "][" $23 "]" }' "$T/no1.out")" "[][0]" "without a 1-task point linear is empty, lkp_linear 0"

head -n 1 "$D/samples.csv" >"$T/empty.csv"
is "$("$S" "$T/empty.csv" | wc -l | tr -d ' ')" 2 "no samples: header and will-it-scale's first row"

bad() {	# bad DESCRIPTION WANT-EXIT WANT-MESSAGE-REGEX: $T/bad.csv
	local rc=0 msg
	msg=$("$S" "$T/bad.csv" 2>&1 >/dev/null) || rc=$?
	is "$rc" "$2" "$1: exit $2"
	like "$msg" "$3" "$1: says where"
}
{ head -n 3 "$D/samples.csv"; echo "processes,1,1,measure,9,1.0,1,1.0,1.0"; } >"$T/bad.csv"
bad "truncated line" 2 "^sb-summary: $T/bad.csv:4: 9 fields, the header has 12"
{ head -n 3 "$D/samples.csv"; echo "proc,1,1,measure,9,1.0,1,1.0,1.0,1.0,,"; } >"$T/bad.csv"
bad "unknown mode" 2 "bad.csv:4: mode 'proc'"
{ head -n 2 "$D/samples.csv"; echo "threads,1,1,measure,9,1.0,1,x1,1.0,1.0,,"; } >"$T/bad.csv"
bad "not a number" 2 "bad.csv:3: ops_per_s 'x1'"
{ head -n 2 "$D/samples.csv"; echo "threads,0,1,measure,9,1.0,1,1,1.0,1.0,,"; } >"$T/bad.csv"
bad "0 tasks" 2 "bad.csv:3: tasks '0'"
echo "mode,tasks" >"$T/bad.csv"
bad "header without run" 2 "bad.csv:1: no column 'run'"
rc=0
"$S" "$T/nonexistent.csv" 2>/dev/null || rc=$?
is "$rc" 2 "a missing file exits 2"
rc=0
"$S" -o "$T/nonexistent/summary.csv" "$D/samples.csv" 2>/dev/null || rc=$?
is "$rc" 3 "an unwritable output exits 3"
rc=0
"$S" 2>/dev/null || rc=$?
is "$rc" 2 "no argument exits 2"

# The views runtest.sh shows, from a run directory. --values: the run means of
# processes at 2 tasks (3 runs) are 210, 230, 250: mean 230, s 20,
# t(2) 4.303: half-width 49.69, 21.60% of the mean.
mkdir "$T/run"
cp "$D/samples.csv" "$T/run/samples.csv"
is "$("$S" --point processes:2 --values "$T/run")" "3 230.000000 21.60" "--values: runs, mean of the run means, half-width %"
is "$("$S" --point threads:4 --values "$T/run")" "1 500.000000 -" "--values: one run: no interval"
is "$("$S" --point processes:4 --values "$T/run")" "0 - -" "--values: an absent point"
is "$("$S" --point threads:4 "$T/run")" "500 ops/s" "--point: one sample: no interval"
like "$("$S" --point processes:2 "$T/run")" '^230 ops/s ±[0-9.]+%$' "--point: the figure with its interval"
is "$("$S" --point processes:3 "$T/run" | wc -c | tr -d ' ')" 0 "--point: nothing for an absent point"
is "$("$S" --table "$T/run" | head -n 1)" "   tasks  processes      +-    threads      +-  vs linear" "--table: the header"
is "$("$S" --table "$T/run" | grep -c '^ *[0-9]')" 3 "--table: a row per point"
is "$("$S" --table "$T/run" | sed -n '5,$p')" "  processes: peak 2 tasks (no other count within the 95% interval)
  threads: peak 4 tasks (one run: no interval)" "--table: each mode's peak under the rows"
# The peak: processes' run means (one sample a run) 100 at 1 task, 200 +- 10 at 2,
# 210 +- 10 at 3 (the best), 150 at 4, 205 +- 1 at 5. 2 is within 3's interval
# (t = 1.22 < 2.78 on 4 degrees of freedom), 4 is not, and 5 is outside the
# plateau, however close, because 4 separates it: the plateau is 2-3. Threads
# have one run a point: a best without an interval.
mkdir "$T/peak"
{
	head -n 1 "$D/samples.csv"
	for tv in 1:100:102:98 2:190:200:210 3:200:210:220 4:150:152:148 5:204:205:206; do
		IFS=: read -r t a b c <<<"$tv"
		r=0
		for v in $a $b $c; do
			r=$((r + 1))
			echo "processes,$t,$r,measure,1,1.000000,$v,$v.0,$v.0,$v.0,0.00,0.00"
		done
	done
	echo "threads,1,1,measure,1,1.000000,90,90.0,90.0,90.0,0.00,0.00"
	echo "threads,2,1,measure,1,1.000000,95,95.0,95.0,95.0,0.00,0.00"
} >"$T/peak/samples.csv"
"$S" -o "$T/peak/summary.csv" "$T/peak/samples.csv"
is "$(head -n 1 "$T/peak/summary.csv" | tr , '\n' | tail -n 3 | tr '\n' ' ')" "processes_peak threads_peak lkp_linear " \
	"summary.csv: the peak columns after threads_precision, lkp_linear last"
is "$(awk -F, 'NR > 2 { print $1 ":" $21 ":" $22 }' "$T/peak/summary.csv" | tr '\n' ' ')" "1:: 2:1:2 3:2: 4:: 5:: " \
	"processes_peak: 2 (best) at 3, 1 (plateau) at 2; threads_peak 2 at its best of one run"
is "$("$S" --table "$T/peak" | grep ': peak')" "  processes: peak 3 tasks (2-3 within the 95% interval)
  threads: peak 2 tasks (one run: no interval)" "--table: the peak with its plateau"
like "$(grep -Ev '^[a-z_,]+$|^[0-9.,]+$' "$T/peak/summary.csv")" '^$' "every row is one lkp-tests' parser reads (digits, dots, commas)"

mkdir "$T/none"
head -n 1 "$D/samples.csv" >"$T/none/samples.csv"
is "$("$S" --table "$T/none")" "  (no completed point)" "--table: no point"
for a in "--point x:1" "--point processes:0" "--point processes" "--values" "--table -o $T/x"; do
	rc=0
	# shellcheck disable=SC2086
	"$S" $a "$T/run" >/dev/null 2>&1 || rc=$?
	is "$rc" 2 "$a: exit 2"
done

done_testing
