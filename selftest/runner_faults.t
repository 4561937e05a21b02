#!/usr/bin/env bash
# Failures are never numbers: crashes, returns, stalls, fatal errors, signals, bind failures.
. "$(dirname "$0")/lib.sh"
F=$B/selftest
plan 47
has_children() { [ -n "$(children "$1")" ]; }
short="-t 2 --period-ms 100 --warmup 0"

for m in processes threads; do
	# A task segfaults 0.3 s in: exit 1, named task and signal, no average, nothing left.
	run "$F/crash_$m" $short -s 20
	is "$rc" 1 "$m: a crashing task fails the run"
	like "$err" "crash_$m: task 1 .*killed by signal 11 \(Segmentation fault\)" "$m: the message names task 1 and the signal"
	unlike "$out" "average:" "$m: no average is reported"
	ok "$(wait_gone "$F/crash_$m" 10; echo $?)" "$m: no task is left"

	# testcase() returns: the runner reports it, this shell goes on.
	run "$F/returns_$m" $short -s 5
	is "$rc" 1 "$m: a returning testcase fails the run"
	like "$err" "task [01] returned from testcase\(\)" "$m: and says so"
	unlike "$out" "average:" "$m: no average after a return"
	ok "$(wait_gone "$F/returns_$m" 10; echo $?)" "$m: no task is left after a return"

	# All tasks stop counting: "no progress" after the stall timeout.
	run "$F/stall_$m" $short -s 100 --stall-timeout 1
	is "$rc" 1 "$m: a stalled run fails"
	like "$err" "no progress" "$m: with 'no progress'"
	unlike "$out" "average:" "$m: and no average"

	# sb_fatal names the task, the call and errno.
	run "$F/fatal_$m" $short -s 5
	is "$rc" 1 "$m: sb_fatal fails the run"
	is "$err" "fatal_$m: task 0: read from fd -1: Bad file descriptor" "$m: one line with task, call and errno"

	# SIGINT mid-run: exit 130, nothing left.
	"$F/wis_compat_$m" $short -s 0 >/dev/null 2>&1 &
	pid=$!
	# Its handlers are in place once it has tasks (a signal before them would be lost:
	# a background job starts with SIGINT ignored).
	wait_until 30 has_children "$pid"
	kill -INT "$pid"
	wait "$pid"
	is "$?" 130 "$m: SIGINT exits 130"
	ok "$(wait_gone "$F/wis_compat_$m" 10; echo $?)" "$m: no task or partner is left after SIGINT"

	# SIGKILL of the runner: its tasks die with it (polled up to 10 s: how fast is not the question).
	"$F/wis_compat_$m" $short -s 0 >/dev/null 2>&1 &
	pid=$!
	wait_until 30 has_children "$pid"
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	[ -n "$kids" ]
	ok $? "$m: the runner has task processes ($kids)"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	ok "$(wait_gone "$F/wis_compat_$m" 10; echo $?)" "$m: tasks are gone after SIGKILL"

	# A will-it-scale testcase, no header of ours, with new_task and prepare.
	run "$F/wis_compat_$m" $short -s 2 --warmup 1
	is "$rc" 0 "$m: a will-it-scale testcase builds and runs"
	like "$out" "^average:[1-9][0-9]*$" "$m: and reports an average"
done

# Binding that the OS refuses is fatal and says where.
run env HWLOC_SYNTHETIC="pack:2 numa:2 core:4 pu:2" HWLOC_THISSYSTEM=1 \
	"$B/bin/null1_processes" -t 4 -s 1 --warmup 0 --period-ms 100
is "$rc" 1 "binding to a PU this machine lacks fails the run"
like "$err" "binding to cpuset [0-9]+ \(PU [0-9]+, core [0-9]+\) failed: Invalid argument" "with the cpuset and errno"

# Running out of processes: exit 3 naming the task and the limit (needs an unprivileged user).
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] && command -v prlimit >/dev/null; then
	tmp=$(mktemp -d)
	cp "$B/bin/null1_processes" "$tmp/"
	chmod 755 "$tmp" "$tmp/null1_processes"
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		prlimit --nproc=3 "$tmp/null1_processes" -t 6 -s 1 --warmup 0 --period-ms 100
	rm -rf "$tmp"
	is "$rc" 3 "fork failing at RLIMIT_NPROC exits 3"
	like "$err" "could not start task [0-9]+: fork: .*RLIMIT_NPROC soft limit 3" "and names the task and the limit"
else
	skip "needs root, setpriv and prlimit"
	skip "needs root, setpriv and prlimit"
fi

# Memory for the counters refused (address-space limit): exit 3, before any task starts.
# (Sanitizers reserve terabytes of address space: not under SAN.)
if command -v prlimit >/dev/null && [ -z "${SB_SAN:-}" ]; then
	run prlimit --as=300000000 "$B/bin/null1_processes" -t 4000000 -s 1 --period-ms 100
	is "$rc" 3 "no memory for the shared counters exits 3"
	like "$err" "cannot map [0-9]+ bytes of shared counters for 4000000 tasks" "and says how much, for how many tasks"
else
	skip "needs prlimit, and no sanitizers"
	skip "needs prlimit, and no sanitizers"
fi

# Nothing counted while measuring (shorter than the stall timeout): a failure, never average:0.
# (2 s of warmup: on a starved machine the task may start counting late, and its 0.2 s
# of counting must still end before the measured samples)
run "$F/stall_processes" -t 1 --period-ms 100 --warmup 20 -s 2
is "$rc" 1 "no operation in the measured samples fails the run"
like "$err" "no progress: no task counted an operation in the 2 measured samples" "and says so"
unlike "$out" "average:" "without an average"
