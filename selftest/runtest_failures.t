#!/usr/bin/env bash
# runtest.sh: a crash mid-sweep (status=failed, exit 1) and SIGINT (status=interrupted, exit 130), no process left.
# sb-san: skip: runtest.sh's status and exit after a crash or SIGINT: shell; the runner's side is sanitized in runner_faults.t and runner_sigkill.t
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads" \
	"$SB_BUILD/selftest/crash_processes" "$SB_BUILD/selftest/crash_threads"
private_bins "$SB_BUILD/selftest" crash
private_bins "$SB_BUILD/bin" getppid1
export SB_TESTS_DIR=$T/bin

left_behind() {	# processes of this test's binaries still alive
	pgrep -f "$T/bin/" || true
}

# ---- the crash fixture: task 1 segfaults, so 1 task passes and 2 tasks fail ----
rc=0
./runtest.sh crash --points 1,2,4 --duration 0.6 --warmup 0 --period-ms 200 --repeat 1 --results "$T/r" \
	>"$T/out" 2>"$T/err" || rc=$?
is "$rc" 1 "a crash mid-sweep exits 1"
run=$(cat "$T/out")
ok "$([ -d "$run" ]; echo $?)" "the run directory is printed"
is "$(meta "$run/meta" status)" failed "status=failed"
like "$(meta "$run/meta" error)" '^crash_processes: task 1 \(pid [0-9]+\) killed by signal 11' "error is the runner's message"
is "$(meta "$run/meta" failed_mode),$(meta "$run/meta" failed_tasks)" processes,2 "failed_mode, failed_tasks"
is "$(col "$run/summary.csv" tasks | tr '\n' ' ')" "0 1 " "summary keeps the completed point, nothing after"
is "$(awk -F, 'NR == 3 { print ($2 > 0 && $4 > 0) }' "$run/summary.csv")" 1 "both modes completed at 1 task"
is "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$run/samples.csv" | sort -u | tr '\n' ' ')" "processes,1 threads,1 " \
	"samples.csv: no row of the failed point"
like "$(grep 'failed:' "$T/err")" 'crash: processes at 2 tasks failed: crash_processes: task 1' "the failure is on stderr"
is "$(left_behind)" "" "no process left behind"
is "$(ls -A "$run" | tr '\n' ' ')" "meta points.csv samples.csv summary.csv " "no temporary file left"

# ---- SIGINT as a terminal sends it: to runtest.sh and to the runner ----
# start_sweep: runtest.sh in the background with SIGINT at its default (a
# background job of a script starts with it ignored, and bash cannot trap an
# ignored signal), so it behaves as from a terminal.
start_sweep() {
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		./runtest.sh getppid1 --points 1,2 --duration 2 --warmup 0 --period-ms 200 --repeat 1 \
		--results "$T/$1" >"$T/out" 2>"$T/err" &
	pid=$!
}

# wait_for_point DIR: poll up to 30 s for a completed point and a runner at work
wait_for_point() {
	local dir=$1 i
	for ((i = 0; i < 300; i++)); do
		runner=$(pgrep -P "$pid" -f "$T/bin/getppid1_" || true)
		lines=$(cat "$T/$dir/getppid1/latest/samples.csv" 2>/dev/null | wc -l)
		if [ -n "$runner" ] && [ "$lines" -gt 1 ]; then
			return 0
		fi
		nap 0.1
	done
	return 1
}

start_sweep int1
st=0
wait_for_point int1 || st=$?
ok "$st" "the sweep is running its second point"
kill -INT "$pid" "$runner"
rc=0
wait "$pid" || rc=$?
is "$rc" 130 "SIGINT (script and runner): exit 130"
run=$T/int1/getppid1/$(readlink "$T/int1/getppid1/latest")
is "$(meta "$run/meta" status)" interrupted "status=interrupted"
is "$(meta "$run/meta" error)" "" "an interruption is no error"
is "$(col "$run/summary.csv" tasks | tr '\n' ' ')" "0 1 " "the completed point stays"
is "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$run/samples.csv" | sort -u | tr '\n' ' ')" "processes,1 " \
	"samples.csv: the completed point only"
is "$(left_behind)" "" "no process left behind"
is "$(ls -A "$run" | tr '\n' ' ')" "meta points.csv samples.csv summary.csv " "no temporary file left"
ok "$(grep -q 'interrupted' "$T/err"; echo $?)" "says it was interrupted"

# SIGINT to runtest.sh alone (kill from another shell): it stops the runner itself
start_sweep int2
st=0
wait_for_point int2 || st=$?
ok "$st" "second sweep running"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
is "$rc" 130 "SIGINT to the script only: exit 130"
run=$T/int2/getppid1/$(readlink "$T/int2/getppid1/latest")
is "$(meta "$run/meta" status)" interrupted "status=interrupted"
is "$(left_behind)" "" "no process left behind"

# SIGTERM likewise
start_sweep term
st=0
wait_for_point term || st=$?
ok "$st" "third sweep running"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
is "$rc" 130 "SIGTERM: exit 130"
run=$T/term/getppid1/$(readlink "$T/term/getppid1/latest")
is "$(meta "$run/meta" status)" interrupted "status=interrupted"
is "$(left_behind)" "" "no process left behind"

done_testing
