#!/usr/bin/env bash
# Signals with no wait without a limit: a testcase_prepare that never returns, runtest.sh's SIGKILL after its grace, and signals a CI or timeout may send (SIGUSR1, SIGALRM, SIGPIPE).
#
# Nothing here rests on timing: each signal is sent once the fixture says it
# holds (a mark file); the graces (the runner's 2 s, runtest.sh's 5 s) are the
# product's; the bounded waits (60 s) are only a safety net against a hang.
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf -- "$d"' EXIT
# bash's job notices for the runs this test kills go to a log, not the TAP stream
exec 3>&2 2>"$d/stderr.log"
unset HWLOC_SYNTHETIC HWLOC_XMLFILE HWLOC_THISSYSTEM SCALEBENCH_TMPDIR
mkdir "$d/bin" "$d/tmp"
private_copy "$d/bin" "$B"/selftest/phases_{processes,threads}
export TMPDIR=$d/tmp SB_TESTS_DIR=$d/bin
TINY=(--duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet)
n=0
plan 52

meta() { sed -n "s/^$2=//p" "$1"; }
clean() { no_process "$d/" && [ -z "$(ls -A "$d/tmp")" ]; }
have_mark() { [ -e "$d/mark" ]; }

# sweep ARG...: runtest.sh in the background with SIGINT at its default (as from
# a terminal) -> pid, R (its results)
sweep() {
	n=$((n + 1)) R=$d/r$n
	rm -f "$d/mark"
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		./runtest.sh "$@" --results "$R" >"$d/out" 2>"$d/err" 3>&- &
	pid=$!
}
# finish: runtest.sh's exit status -> rc (after 60 s: killed with its runners, and the case fails)
finish() { reap "$pid" "$d/bin/"; }
# outcome NAME RC LAST_LINE_REGEX STATUS: exit code, stderr's last line, meta, nothing left
outcome() {
	local name=$1 run gone
	wait_until 15 clean	# the janitors finish after runtest.sh by design
	gone=$?
	is "$rc" "$2" "$name: exit $2"
	like "$(tail -n 1 "$d/err")" "$3" "$name: it says so"
	run=$R/$(ls "$R")/$(readlink "$R"/*/latest)
	is "$(meta "$run/meta" status)" "$4" "$name: meta status=$4"
	ok "$gone" "$name: no process and nothing in TMPDIR left ($(alive "$d/") $(ls -A "$d/tmp" | tr '\n' ' '))"
}

# ---- the runner alone: a prepare that never returns ends within the grace ----
for m in processes threads; do
	rm -f "$d/mark"
	"$d/bin/phases_$m" -t 1 -s 1 --warmup 0 --period-ms 100 --param hold=stuck --param mark="$d/mark" \
		>"$d/out" 2>"$d/err" 3>&- &
	pid=$!
	wait_until 30 have_mark
	kill -TERM "$pid"
	finish
	is "$rc" 130 "runner ($m), prepare stuck, one SIGTERM: exit 130 after its grace"
	is "$(cat "$d/err")" "phases_$m: interrupted: testcase_prepare had not returned 2 s after the signal" \
		"runner ($m): one line naming testcase_prepare and the grace"
	wait_until 15 clean
	ok $? "runner ($m): its private directory removed, no process left"
done
rm -f "$d/mark"
"$d/bin/phases_processes" -t 1 -s 1 --warmup 0 --period-ms 100 --param hold=stuck --param mark="$d/mark" \
	>"$d/out" 2>"$d/err" 3>&- &
pid=$!
wait_until 30 have_mark
kill -TERM "$pid"
# the second signal may land before the first one's handler ran: then it is the first
# one that the grace ends; either way the runner says it gave up on testcase_prepare
kill -INT "$pid"
finish
is "$rc" 130 "runner, prepare stuck, a second signal: exit 130"
like "$(cat "$d/err")" "^phases_processes: interrupted: testcase_prepare had not returned (at the second signal|2 s after the signal)$" \
	"runner, a second signal: it says so"

# ---- the runner alone: a testcase_cleanup that never returns ----
have_cleanup() { [ -e "$d/mark.cleanup" ]; }
# a signal during it: the grace, from the signal on
rm -f "$d/mark" "$d/mark.cleanup"
"$d/bin/phases_processes" -t 1 -s 1 --warmup 0 --period-ms 100 --param cleanup=stuck --param mark="$d/mark" \
	>"$d/out" 2>"$d/err" 3>&- &
pid=$!
wait_until 30 have_cleanup
kill -TERM "$pid"
finish
is "$rc,$(tail -n 1 "$d/err")" "130,phases_processes: interrupted: testcase_cleanup had not returned 2 s after the signal" \
	"runner, cleanup stuck, SIGTERM in it: exit 130 after the grace, one line"
# interrupted before it (in the measurement): the cleanup the way out runs gets the grace too
rm -f "$d/mark" "$d/mark.cleanup"
"$d/bin/phases_threads" -t 1 -s 0 --warmup 0 --period-ms 100 --param cleanup=stuck --param mark="$d/mark" \
	>"$d/out" 2>"$d/err" 3>&- &
pid=$!
wait_until 30 have_mark	# (task 0 counts)
kill -INT "$pid"
finish
is "$rc,$(tail -n 1 "$d/err")" "130,phases_threads: interrupted: testcase_cleanup had not returned 2 s after the signal" \
	"runner, interrupted while measuring, cleanup stuck: exit 130 after the grace"
wait_until 15 clean
ok $? "runner, cleanup stuck: no task, no private directory left"

# ---- runtest.sh: SIGTERM and SIGINT while the runner's prepare never returns ----
for s in TERM INT; do
	sweep phases --mode processes --points 1 --param hold=stuck --param mark="$d/mark" "${TINY[@]}"
	wait_until 30 have_mark
	kill -"$s" "$pid"
	finish
	outcome "runtest.sh SIG$s, prepare stuck" 130 '^runtest\.sh: interrupted$' interrupted
done

# ---- a runner deaf to signals (all blocked in prepare): runtest.sh's SIGKILL after its grace ----
sweep phases --mode processes --points 1 --param hold=deaf --param mark="$d/mark" "${TINY[@]}"
wait_until 30 have_mark
kill -TERM "$pid"
finish
outcome "runtest.sh SIGTERM, runner deaf" 130 '^runtest\.sh: interrupted$' interrupted
like "$(cat "$d/err")" "runtest\.sh: warning: the runner \(pid [0-9]+\) had not stopped 5 s after SIGTERM: killed" \
	"runner deaf: runtest.sh says it killed the runner"

# ---- runtest.sh SIGKILLed, the runner deaf: its janitor's SIGTERM, then SIGKILL after the grace ----
sweep phases --mode processes --points 1 --param hold=deaf --param mark="$d/mark" "${TINY[@]}"
wait_until 30 have_mark
kill -KILL "$pid"
finish
wait_until 30 clean	# (the janitor's grace is 5 s: this wait is only a safety net)
outcome "runtest.sh SIGKILL, runner deaf" 137 '^$' interrupted

# ---- signals a CI or timeout may send: a true meta and a line on stderr ----
for s in USR1 ALRM PIPE; do
	sweep phases --mode processes --points 1,2 --param hold=prepare --param from=2 --param mark="$d/mark" "${TINY[@]}"
	wait_until 30 have_mark
	kill -"$s" "$pid"
	finish
	outcome "runtest.sh SIG$s in the runner's prepare" 130 "^runtest\.sh: interrupted by SIG$s$" interrupted
	run=$R/$(ls "$R")/$(readlink "$R"/*/latest)
	is "$(meta "$run/meta" error)" "" "SIG$s: meta holds no false error"
done
# its output a pipe nobody reads, stderr too: one SIGPIPE, not a trap that raises it again (bash crashed, 139)
rc=0
perl -e 'pipe(R, W) or die; close R; open(STDOUT, ">&W") or die; open(STDERR, ">&W") or die; exec @ARGV or die' \
	./runtest.sh --list 3>&- || rc=$?
is "$rc" 130 "runtest.sh --list into a closed pipe, stderr too: exit 130, no crash"

# during the build (a make that holds until it gets the signal too): exit 130 and the line all the same
mkdir "$d/fake"
printf '#!/bin/sh\ncase "$*" in *sb-sweepargs*) exit 0 ;; esac\n: >"%s"\nwhile kill -0 $PPID 2>/dev/null; do sleep 0.05; done\n' "$d/mark" >"$d/fake/make"
chmod +x "$d/fake/make"
for s in ALRM USR1; do
	MAKE=$d/fake/make sweep phases --mode processes --points 1 "${TINY[@]}"
	wait_until 30 have_mark
	kill -"$s" "$pid"
	pkill -"$s" -f -- "$d/fake/make"
	finish
	is "$rc,$(tail -n 1 "$d/err")" "130,runtest.sh: interrupted by SIG$s" "SIG$s during the build: exit 130 and a line"
	wait_until 15 clean
	ok $? "SIG$s during the build: nothing left"
done

# --calibrate: a SIGTERM to it alone (timeout(1), a service manager) stops the sweep it runs; it
# waited for that whole sweep (bash runs a trap after its foreground child), here for good
sweep --calibrate phases --sweeps 2 --mode processes --points 1 --param hold=prepare --param mark="$d/mark" "${TINY[@]}"
wait_until 30 have_mark
kill -TERM "$pid"
finish
outcome "--calibrate, SIGTERM to it alone" 130 "^runtest\.sh: interrupted$" interrupted

exec 2>&3
if [ -s "$d/stderr.log" ]; then sed 's/^/# stderr: /' "$d/stderr.log" | grep -v -E 'Killed|Terminated' || true; fi
exit "$_failed"
