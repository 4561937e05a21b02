#!/usr/bin/env bash
# sb-bisect's guards: each signal runtest.sh handles stops the build's whole process group (exit 130), a build deaf to SIGTERM is killed with its group after the grace, one that reads the terminal is killed, measure's stdout, ends that are not complete sweeps of one testcase refused, options refused before anything runs, a sweep that does not load never logged, a report over no steps.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-bisect" "$SB_BUILD/bin/getppid1_processes"
SB=$PWD
case $SB_BUILD in /*) BB=$SB_BUILD ;; *) BB=$PWD/$SB_BUILD ;; esac
bisect=$BB/bin/sb-bisect
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
unset SB_BISECT_GRACE_S SB_RUNTEST

# A build's sleeps (pid.* files) that a failed check left behind: ended by their ids.
leftovers() {
	local f p
	for f in "$T"/pid.*; do
		[ -f "$f" ] || continue
		p=$(cat "$f")
		if grep -qa '^sleep' "/proc/$p/cmdline" 2>/dev/null; then kill -KILL "$p" 2>/dev/null; fi
	done
}
trap 'leftovers; rm -rf -- "$T"' EXIT

# alive PIDFILE: the sleep it names still runs (not a zombie)
alive() {
	local p
	p=$(cat "$1" 2>/dev/null) || return 1
	[ -n "$p" ] && grep -qa '^sleep' "/proc/$p/cmdline" 2>/dev/null &&
		! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null
}

git init -q "$T/repo" && echo one >"$T/repo/f" && git -C "$T/repo" add f && git -C "$T/repo" commit -q -m one
cd "$T/repo" || exit 1
common=(--host --results "$T/res" --runtest "$SB/runtest.sh")
shape=(getppid1 --mode processes --points 1 --duration 0.2 --period-ms 100 --repeat 2)

# ---- each signal runtest.sh handles, during the build: the build's group ended, exit 130 ----
for s in INT TERM HUP QUIT USR1 USR2 ALRM PIPE VTALRM PROF XCPU XFSZ; do
	"$bisect" measure "${common[@]}" --build "sleep 39 & echo \$! >$T/pid.$s; wait" -- "${shape[@]}" \
		>/dev/null 2>"$T/err.$s" &
	bpid=$!
	for _ in $(seq 1 200); do [ -s "$T/pid.$s" ] && break; nap 0.05; done
	kill -"$s" "$bpid"
	rc=0; wait "$bpid" || rc=$?
	is "$rc" 130 "SIG$s during the build: exit 130"
	ok "$(alive "$T/pid.$s"; [ $? != 0 ]; echo $?)" "SIG$s: no process of the build left"
	like "$(cat "$T/err.$s")" "interrupted during the build" "SIG$s: it says so"
done

# ---- a build deaf to SIGTERM: SIGKILL to its whole group after the grace ----
SB_BISECT_GRACE_S=1 "$bisect" measure "${common[@]}" --build "trap '' TERM; sleep 98 & echo \$! >$T/pid.deaf; wait" \
	-- "${shape[@]}" >/dev/null 2>"$T/err.deaf" &
bpid=$!
for _ in $(seq 1 200); do [ -s "$T/pid.deaf" ] && break; nap 0.05; done
kill -TERM "$bpid"
rc=0; wait "$bpid" || rc=$?
is "$rc" 130 "a build that ignores SIGTERM: exit 130 after the grace"
ok "$(alive "$T/pid.deaf"; [ $? != 0 ]; echo $?)" "its children are gone too (SIGKILL to the group)"
like "$(cat "$T/err.deaf")" "did not end 1 s after SIGTERM: SIGKILL to its process group" "it says so"

# ---- a build that reads the terminal is stopped by it (SIGTTIN, its own group): killed, not waited for ----
if command -v script >/dev/null 2>&1; then
	rc=0; script -qec "$bisect measure --host --results $T/res --build 'read x </dev/tty' -- getppid1" /dev/null \
		</dev/null >"$T/tty" 2>&1 || rc=$?
	is "$rc" 1 "a build that reads the terminal: the build failed, exit 1 (not a hang)"
	like "$(cat "$T/tty")" "the build stopped \(SIGTTIN" "it says why"
else
	tap_n=$((tap_n + 2)); echo "ok $((tap_n - 1)) # skip no script(1)"; echo "ok $tap_n # skip no script(1)"
fi

# ---- an end, and ends that are not complete sweeps of one testcase ----
# (a build that prints, and a relative --results: stdout is the sweep's absolute path alone)
rc=0; "$bisect" measure --host --results res --runtest "$SB/runtest.sh" --build 'echo build-noise' -- "${shape[@]}" \
	>"$T/end" 2>"$T/err" || rc=$?
is "$rc" 0 "measure an end: exit 0"
[ "$rc" = 0 ] || diag_file "$T/err"
end=$(cat "$T/end")
is "$end" "$T/repo/res/getppid1/${end##*/}" "measure's stdout: the run directory alone, absolute"
like "$(cat "$T/err")" "build-noise" "the build's output on stderr"
variant() {	# variant NAME SED: a copy of the end, its meta edited
	cp -r "$end" "$T/$1"
	sed -i "$2" "$T/$1/meta"
}
variant failed 's/^status=.*/status=failed/'
variant running "s/^status=.*/status=running/; s/^sweep_pid=.*/sweep_pid=$$/"
variant other 's/^test=.*/test=dup1/'
step=("$bisect" "${common[@]}" --point processes:1)
for v in failed running; do
	rc=0; "${step[@]}" --good "$T/$v" --bad "$end" >/dev/null 2>"$T/err" || rc=$?
	is "$rc" 128 "a $v good end: exit 128"
	like "$(cat "$T/err")" "$T/$v: an? [a-z]+ sweep \\(meta's status\\), not a complete one" "a $v end is named"
done
rc=0; "${step[@]}" --good "$end" --bad "$T/other" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a bad end of another testcase: exit 128"
like "$(cat "$T/err")" "a sweep of dup1, not of getppid1" "it names both testcases"
# ends of several sweeps (--good and --bad given more than once): each loaded and checked
variant copy 's/^x=//'	# (copies of the end: sweeps at its level)
variant copy2 's/^x=//'
rc=0; "${step[@]}" --good "$end" --good "$T/failed" --bad "$T/copy" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a good end's second sweep failed: exit 128"
like "$(cat "$T/err")" "$T/failed: a failed sweep" "the second sweep is named"
rc=0; "${step[@]}" --good "$end" --good "$end" --bad "$T/other" >/dev/null 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")" "128/sb-bisect: $end: given twice as a sweep of the ends" "a sweep given twice: refused"
rc=0; "${step[@]}" --good "$end" --good "$T/copy" --bad "$T/copy2" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "ends of 2 and 1 sweeps at one level: exit 128"
like "$(cat "$T/err")" "no difference: .* 2 and 1 sweeps detect" "both good sweeps are in the ends' test"

# ---- options refused before anything runs ----
cat >"$T/fake-runtest" <<EOF
#!/bin/sh
# a runtest.sh that ran (the mark) and printed a directory that is no sweep
touch "$T/ran"
echo "$T/nowhere"
EOF
chmod +x "$T/fake-runtest"
rc=0; "$bisect" measure --host --results "$T/r	x" --runtest "$T/fake-runtest" -- getppid1 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "measure --results with a tab: exit 2"
ok "$([ ! -e "$T/ran" ]; echo $?)" "before any sweep"
rc=0; "${step[@]}" --results "$T/r
x" --good "$end" --bad "$end" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a step's --results with a newline: exit 128"
like "$(cat "$T/err")" "--results: a directory name with a control character" "it says why"
rc=0; "${step[@]}" --max-runs 2.5 --good "$end" --bad "$end" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "--max-runs 2.5: exit 128"
like "$(cat "$T/err")" "--max-runs '2.5': a whole number" "a whole number"
rc=0; "$bisect" --kernel "$T/repo/f" --results "$T/res" --point processes:1 --good "$end" --bad "$end" \
	>/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a step with --kernel and no --build: exit 128"
like "$(cat "$T/err")" "--kernel .* needs --build CMD" "every step would boot the same image"

# ---- what runtest.sh printed is checked before it goes into the step log ----
rc=0; "$bisect" measure --host --results "$T/res" --runtest "$T/fake-runtest" -- getppid1 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 3 "a printed directory that is no sweep: exit 3"
like "$(cat "$T/err")" "not a complete sweep \\($T/nowhere\\)" "it names it"
is "$(cat "$T/res/bisect-steps.tsv" 2>/dev/null | grep -c nowhere)" 0 "and it is not in the step log"

# ---- a report over no steps ----
printf 'git bisect start\n# bad: [%s] one\n' "$(git rev-parse HEAD)" >"$T/log"
rc=0; "$bisect" report --results "$T/res" --log "$T/log" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc" 0 "a report over no steps: exit 0"
like "$(cat "$T/rep")" "Monotonic: - \\(no step" "it does not say 'Monotonic: yes'"
done_testing
