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
is "$(awk -F, '$1 == 2 { print "[" $6 "][" $21 "]" }' "$T/no1.out")" "[][0]" "without a 1-task point linear is empty, lkp_linear 0"

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
is "$("$S" --table "$T/run" | wc -l | tr -d ' ')" 4 "--table: a row per point"
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
