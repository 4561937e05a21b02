#!/usr/bin/env bash
# Nothing outlives a SIGKILLed runner: no task, partner or janitor, no scalebench.* directory, in both modes.
. "$(dirname "$0")/lib.sh"
plan 18
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir "$d/bin" "$d/tmp"
# unix4: a private directory (its socket) and a partner per task
private_copy "$d/bin" "$B"/bin/unix4_processes "$B"/bin/unix4_threads
has_tmpdir() { ! no_tmpdir "$d/tmp"; }

for m in processes threads; do
	bin=$d/bin/unix4_$m
	# Its stdout is a pipe: whoever holds it keeps cat from finishing.
	{ TMPDIR=$d/tmp "$bin" -t 2 --period-ms 100 --warmup 0 -s 0 2>"$d/err" &
		echo $! >"$d/pid"; wait; } 2>/dev/null | cat >"$d/out" &
	pipeline=$!
	wait_until 10 has_tmpdir
	ok $? "$m: the run has its directory under TMPDIR"
	wait_until 10 grep -q '^min:' "$d/out"
	ok $? "$m: and is measuring"
	pid=$(cat "$d/pid")
	! no_process "$d/bin/"
	ok $? "$m: its processes are found by their command line ($(alive "$d/bin/"))"
	kill -KILL "$pid"
	ok "$(nothing_left "$d/bin/" "$d/tmp" 15; echo $?)" "$m: after SIGKILL no process of the run and no scalebench.* directory are left"
	wait_until 15 eval '! kill -0 "$pipeline" 2>/dev/null'
	ok $? "$m: nothing holds the runner's output open"
	wait "$pipeline" 2>/dev/null

	# A normal end: the runner removes the directory, the janitor leaves at once.
	run env TMPDIR="$d/tmp" "$bin" -t 2 --period-ms 100 --warmup 0 -s 2
	is "$rc" 0 "$m: a normal run succeeds${err:+ ($err)}"
	like "$out" "^average:[1-9][0-9]*$" "$m: the janitor takes nothing from its average"
	ok "$(nothing_left "$d/bin/" "$d/tmp" 15; echo $?)" "$m: and leaves nothing"

	# SIGKILL while preparing: a testcase with a directory and no task yet.
	TMPDIR=$d/tmp "$bin" -t 2 --period-ms 100 --warmup 0 -s 0 >/dev/null 2>&1 &
	pid=$!
	wait_until 10 has_tmpdir
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	ok "$(nothing_left "$d/bin/" "$d/tmp" 15; echo $?)" "$m: SIGKILL as soon as the directory exists leaves nothing either"
done
