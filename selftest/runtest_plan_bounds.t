#!/usr/bin/env bash
# --dry-run stays small for absurd task counts: a range of more points than any machine has CPUs
# is refused (exit 2, naming the limit), and the placement shows one row per place, not per task.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"
private_bins "$SB_BUILD/bin" getppid1
export SB_TESTS_DIR=$T/bin
export HWLOC_SYNTHETIC="pack:1 core:2 pu:2"

rc=0
./runtest.sh getppid1 --points all --max-procs 4194304 --dry-run >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 2 "--points all --max-procs 4194304 (step 1): exit 2"
is "$(cat "$T/err")" "runtest.sh: --min-procs 1 to --max-procs 4194304 in steps of 1 is 4194304 points, more than 8192: use a larger --step or --points (see ./runtest.sh --help)" \
	"one line naming the count and the limit"
is "$(wc -c <"$T/out" | tr -d ' ')" 0 "and no plan"
rc=0
./runtest.sh getppid1 --points all --max-procs 8192 --dry-run >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "8192 points (the limit) are a plan"
# --points auto (the default) seeds a range of any size with a few counts: a plan
rc=0
./runtest.sh getppid1 --max-procs 4194304 --dry-run >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--max-procs 4194304 (auto): exit 0"
is "$(sed -n 's/^  points: *//p' "$T/out" | sed 's/.*(//')" "23)" "auto: the powers of two to 2^22 (the largest): 23 seeds"

rc=0
./runtest.sh getppid1 --points 4194304 --dry-run >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--points 4194304 --dry-run: exit 0"
ok "$([ "$(wc -c <"$T/out")" -lt 4096 ]; echo $?)" "a bounded plan ($(wc -c <"$T/out") bytes)"
is "$(sed -n '/task pu core/,/^topology/p' "$T/out" | sed '1d;$d' | tr -s ' ' | tr '\n' '|')" \
	" 0 0 0 0 0| 1 2 1 0 0| tasks 2-4194303: wrap around, task i placed as task i % 2|" \
	"one row per core, then one line for the tasks that wrap around"
rc=0
./runtest.sh getppid1 --points 5 --placement none --dry-run >"$T/out" 2>"$T/err" || rc=$?
is "$(sed -n '/task pu core/,/^topology/p' "$T/out" | sed '1d;$d' | tr -s ' ' | tr '\n' '|')" \
	" 0 - - - -| tasks 1-4: as task 0|" "placement none: one row, every task alike"
rc=0
./runtest.sh getppid1 --points 2 --dry-run >"$T/out" 2>"$T/err" || rc=$?
is "$(sed -n '/task pu core/,/^topology/p' "$T/out" | sed '1d;$d' | tr -s ' ' | tr '\n' '|')" \
	" 0 0 0 0 0| 1 2 1 0 0|" "no more tasks than cores: every task, no wrap line"
done_testing
