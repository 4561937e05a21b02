#!/usr/bin/env bash
# Partners (new_task) are tasks: a partner that dies, exits, returns or gives up ends the run, in both modes.
. "$(dirname "$0")/lib.sh"
plan 36
short="-t 2 --period-ms 100 --warmup 0 -s 50"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
private_copy "$d" "$B"/selftest/partner_processes "$B"/selftest/partner_threads \
	"$B"/bin/context_switch1_processes

for m in processes threads; do
	bin=$d/partner_$m
	if [ $m = processes ]; then who="task 0's partner \(pid [0-9]+\)"; else
		who="task 0's partner \(a thread of pid [0-9]+\)"; fi
	# os_generic.c has no subreaper: a partner process is init's child, whose end
	# the runner sees by its pid, without the status (docs/PORTING.md)
	signalled="$who killed by signal 11 \(Segmentation fault\)" exited="$who exited with status 7"
	if [ $m = processes ] && ! linux_only; then signalled="$who is gone \(died or exited; .*\)" exited=$signalled; fi
	run "$bin" $short --param how=fault
	is "$rc" 1 "$m: a partner killed by a signal fails the run"
	like "$err" "^partner_$m: $signalled$" "$m: one line naming the task, the partner and the signal"
	unlike "$out" "average:" "$m: no average"
	run "$bin" $short --param how=exit
	is "$rc" 1 "$m: a partner that exits fails the run"
	like "$err" "^partner_$m: $exited$" "$m: one line naming the task, the partner and the status"
	run "$bin" $short --param how=return
	is "$rc" 1 "$m: a partner that returns fails the run"
	like "$err" "^partner_$m: task 0's partner returned from its function \(new_task\); a partner must loop forever$" "$m: and says so in one line"
	run "$bin" $short --param how=fatal
	is "$rc" 1 "$m: sb_fatal in a partner fails the run"
	like "$err" "^partner_$m: task 0's partner: the partner gives up$" "$m: naming the partner"
	run "$bin" -t 2 --period-ms 100 --warmup 0 -s 3 --param how=none
	is "$rc" 0 "$m: partners that keep going do not disturb a run${err:+ ($err)}"
	like "$out" "^average:[1-9][0-9]*$" "$m: which reports its average"
	ok "$(nothing_left "$bin" "$d" 15; echo $?)" "$m: no task or partner is left"
done

# The case that used to give zeros and exit 0: SIGKILL the partner of a real testcase.
bin=$d/context_switch1_processes
"$bin" -t 1 --period-ms 100 --warmup 0 -s 0 >"$d/out" 2>"$d/err" &
pid=$!
# The task is the runner's child that leads its own process group; its partner
# is the other process of that group (the runner's child on Linux, the task's
# own child with os_generic.c, which has no subreaper).
task_and_partner() {
	local c
	task='' partner=''
	for c in $(children "$pid"); do
		if [ "$(ps -o pgid= -p "$c" | tr -d ' ')" = "$c" ]; then task=$c; fi
	done
	[ -n "$task" ] || return 1
	partner=$(pgrep -g "$task" | grep -vx "$task" | head -n 1)
	[ -n "$partner" ]
}
wait_until 10 task_and_partner
ok $? "context_switch1_processes: the runner has a task and a partner (task ${task:-none}, partner ${partner:-none})"
[ -n "$partner" ]
ok $? "context_switch1_processes: its partner is found ($partner)"
# without a partner to kill, end the run (the test fails above) rather than wait forever
kill -KILL "${partner:-$pid}"
wait "$pid"
rc=$?
is "$rc" 1 "context_switch1_processes: a SIGKILLed partner ends the run with exit 1"
killed="killed by signal 9 \(Killed\)"
if ! linux_only; then killed="is gone \(died or exited; .*\)"; fi
like "$(cat "$d/err")" "^context_switch1_processes: task 0's partner \(pid $partner\) $killed$" "and names the task and the partner"
unlike "$(cat "$d/out")" "average:" "without an average"
ok "$(nothing_left "$bin" "$d" 15; echo $?)" "nothing of that run is left"

# The partner lives as long as the runner: SIGKILL of the runner takes it along.
bin=$d/partner_processes
"$bin" -t 1 --period-ms 100 --warmup 0 -s 0 >/dev/null 2>&1 &
pid=$!
wait_until 10 task_and_partner
ok $? "processes: the runner has a task and a partner"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
ok "$(nothing_left "$bin" "$d" 15; echo $?)" "processes: no task or partner outlives a SIGKILLed runner"

# An adopter that never reaps (some containers' and VM agents' init; here a
# Linux subreaper that waits only for the runner): an exited partner stays a
# zombie, which kill(pid, 0) still finds, and os_generic.c must still see it
# gone (its record lock, docs/PORTING.md).
if linux_only || [ "$(uname -s)" != Linux ] || ! command -v python3 >/dev/null 2>&1; then
	for i in 1 2; do skip "a zombie partner: for make OS=generic on Linux with python3 (a subreaper by prctl)"; done
else
	rc=0
	python3 - "$d/partner_processes" $short --param how=exit >"$d/out" 2>"$d/err" <<'PY' || rc=$?
import ctypes, subprocess, sys
PR_SET_CHILD_SUBREAPER = 36
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit("prctl: cannot become a subreaper")
sys.exit(subprocess.run(sys.argv[1:]).returncode)
PY
	is "$rc" 1 "processes: a partner left a zombie by its adopter still fails the run"
	like "$(cat "$d/err")" "^partner_processes: task 0's partner \(pid [0-9]+\) is gone" "and says it is gone"
fi

# os_generic.c without a lock file (an unwritable TMPDIR): the run goes on,
# partners watched by pid, and says so once with what to do.
if linux_only; then
	for i in 1 2; do skip "no partner lock file: os_generic.c only (make OS=generic)"; done
else
	rc=0
	TMPDIR=$d/missing "$d/partner_processes" -t 1 --period-ms 100 --warmup 0 -s 2 >"$d/out" 2>"$d/err" || rc=$?
	is "$rc" 0 "processes: no partner lock file is not a failure"
	like "$(grep -c 'no partner lock file in .*/missing (No such file or directory): .* set TMPDIR to a writable directory$' "$d/err")" "^1$" \
		"and is said once, with what to do"
fi
