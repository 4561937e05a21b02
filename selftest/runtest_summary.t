#!/usr/bin/env bash
# sb-summary: samples.csv -> summary.csv against hand-computed figures; bad input; atomic -o.
. "$(dirname "$0")/runtest_lib.sh"
need_build
S=$SB_BUILD/bin/sb-summary
D=selftest/data/runtest

# samples.csv has a warmup row, missing idle values, 3 runs at 2 tasks, a
# threads-only point with one sample; summary.csv was computed by hand:
# t(4) = 2.776, t(2) = 4.303 at 95%.
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
is "$(awk -F, '$1 == 2 { print "[" $6 "][" $17 "]" }' "$T/no1.out")" "[][0]" "without a 1-task point linear is empty, lkp_linear 0"

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

done_testing
