#!/usr/bin/env bash
# The fault matrix: each fault through runtest.sh, the whole outcome: exit code, one line, meta, completed points, no process, no temporary file or directory.
#
# Issue 12's cases and the assertions that close them ("fm" is this file; the
# runner-level twin of a case sits in runner_*.t):
#   1  results disk full mid-sweep ....... runtest_faults.t "results disk full mid-sweep"; fm "read-only mid-sweep"
#   2  a dead partner becomes a number ... runner_partners.t (runner); fm "partner" (runtest.sh, both modes, 4 ways)
#   3  a SIGKILLed runner leaves its tmp . runner_sigkill.t; fm "runner SIGKILL" in every phase (no scalebench.*)
#   4  results disk full at the start .... runtest_faults.t "results disk full at the start"; fm "read-only at the start"
#   5  --param dir=/nonexist ............. runner_check.t (runner); fm "--param dir" (no run, no latest, exit 2)
#   6  HWLOC_XMLFILE garbage/empty/dir ... runner_env.t (runner); fm "HWLOC_XMLFILE", "HWLOC_SYNTHETIC" (runtest.sh)
#   7  TMPDIR missing or a file .......... runtest_faults.t "TMPDIR="; runner_check.t (the runner's private dir)
#   8  a label of 240+ characters ........ runtest_faults.t "a 240-character label" (with and without --dry-run)
#   9  --points '' ....................... runtest_faults.t "--points=" / "--points ''"
#  10  plot.py --results missing ......... plot_args.t; a real directory as latest, a dangling latest, bash's
#      "Killed" line, SIGTERM at the start: runtest_faults.t; a samples.csv without its last newline:
#      plot_errors.t (plot) and fm "no final newline" (compare); make plot RESULTS= with blanks: plot_args.t;
#      the runner's usage errors in one line: runner_parse.t; ENOSPC in TMPDIR kept in meta: runner_enospc.t;
#      --max-procs 4194304 --dry-run bounded: runtest_plan_bounds.t
# What to build:
#   signals of runtest.sh at each phase (setup = the build, the runner's prepare, its tasks' start,
#   warmup, measure, write = publishing a point) and of the runner at each of its phases, SIGINT,
#   SIGTERM and SIGKILL: fm "signal" rows; a task's death by a signal and by exit at point 2 with
#   point 1 kept: fm "task"; RLIMIT_NOFILE and RLIMIT_NPROC too low (as uid 64999): fm "RLIMIT_*";
#   read-only results: fm; the runner killed however it ends leaves no scalebench.*: fm; runtest.sh
#   SIGKILLed leaves no runtest.* working directory and no runner (its janitor): fm "runtest.sh SIGKILL".
# The runner's write phase is its output, written as it goes: fm "write: the runner" fails it
# (stdout on /dev/full) in both modes; runtest.sh's write phase is fm "while writing point 1".
#   5 also: runtest_check_dir.t (the sweep's --check of --param dir).
# sb-san: skip: each fault's outcome through runtest.sh (the runner's twin of each case, and its grace in prepare, run under the sanitizers in runner_*.t and runtest_signals.t)
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
M=$d/mnt
trap 'umount "$M" 2>/dev/null; rm -rf -- "$d"' EXIT
# bash's job notices ("Killed") for the runs this test kills go to a log, not the TAP stream;
# anything else said there is shown at the end
exec 3>&2 2>"$d/stderr.log"
unset HWLOC_SYNTHETIC HWLOC_XMLFILE HWLOC_THISSYSTEM SCALEBENCH_TMPDIR
mkdir "$d/bin" "$d/tmp" "$d/fake" "$d/build" "$d/build/bin" "$M"
private_copy "$d/bin" "$B"/selftest/{phases,partner}_{processes,threads} "$B"/bin/{read1,unix4}_{processes,threads}
export TMPDIR=$d/tmp SB_TESTS_DIR=$d/bin
chmod 755 "$d" "$d/bin"
TINY=(--duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet)
n=0

meta() { sed -n "s/^$2=//p" "$1"; }
clean() { no_process "$d/" && [ -z "$(ls -A "$d/tmp")" ]; }

# sweep ARG...: runtest.sh in the background (SIGINT at its default, as from a
# terminal: a script's background job starts with it ignored) -> pid, R (its results)
sweep() {
	n=$((n + 1)) R=$d/r$n
	rm -f "$d/mark" "$d/go"
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		./runtest.sh "$@" --results "$R" >"$d/out" 2>"$d/err" &
	pid=$!
}
# finish: runtest.sh's exit status -> rc (after 60 s: killed with its runners, and the case fails)
finish() { reap "$pid" "$d/bin/"; }
# The runner: runtest.sh's child (its janitor has the same command line, and
# may have started in the same clock tick, so "the oldest" could be either).
runner_of() { pgrep -P "$pid" -f -- "$d/bin/.* --run [0-9]" | head -n 1 || true; }
have_mark() { [ -e "$d/mark" ]; }

# outcome NAME RC MESSAGE_REGEX STATUS POINTS: the whole outcome of the last sweep.
# MESSAGE_REGEX '' means stderr is empty; STATUS - means no run was made; POINTS
# the completed points ("mode,tasks" list) samples.csv and summary.csv must hold.
outcome() {
	local name=$1 run pts gone
	# first what outlives runtest.sh by design (the janitors) is done
	wait_until 15 clean
	gone=$?
	is "$rc" "$2" "$name: exit $2"
	if [ -n "$3" ]; then
		is "$(wc -l <"$d/err" | tr -d ' ')" 1 "$name: one line on stderr"
		if [ "$(wc -l <"$d/err")" != 1 ]; then sed 's/^/#   stderr: /' "$d/err"; fi
		like "$(cat "$d/err")" "$3" "$name: it says what happened"
	else
		is "$(cat "$d/err")" "" "$name: nothing on stderr"
	fi
	if [ "$4" = - ]; then
		is "$(find "$R" -mindepth 2 -maxdepth 2 2>/dev/null | wc -l | tr -d ' ')" 0 "$name: no run directory, no latest"
	else
		run=$R/$(ls "$R")/$(readlink "$R"/*/latest)
		is "$(meta "$run/meta" status)" "$4" "$name: meta status=$4"
		pts=$(awk -F, 'NR > 1 { print $1 "," $2 }' "$run/samples.csv" | sort -u | tr '\n' ' ')
		is "$pts" "$5" "$name: samples.csv holds the completed points (${5:-none})"
		"$B/bin/sb-summary" "$run/samples.csv" 2>&1 | cmp -s - "$run/summary.csv"
		ok $? "$name: summary.csv is what sb-summary makes of samples.csv"
		# (a run left running, on a disk turned read-only, keeps the room sb-rundir kept for its final status)
		is "$(ls -A "$run" | tr '\n' ' ')" "$(if [ "$4" = running ]; then printf '.meta.reserve '; fi)meta points.csv samples.csv summary.csv " \
			"$name: only the run's files in it"
	fi
	is "$(find "$R" -name '.*' ! -name .meta.reserve 2>/dev/null | wc -l | tr -d ' ')" 0 "$name: no temporary file in the results"
	ok "$gone" "$name: no process and nothing in TMPDIR left ($(alive "$d/") $(ls -A "$d/tmp" | tr '\n' ' '))"
}

INTR='^runtest\.sh: interrupted$'
sig_rc() { case $1 in KILL) echo 137 ;; *) echo 130 ;; esac; }

# ---- signals of runtest.sh in its setup (a make that waits while its parent lives) ----
# (the sb-sweepargs build that read_args asks for is let through: it is up to date)
printf '#!/bin/sh\ncase "$*" in *sb-sweepargs*) exit 0 ;; esac\necho $$ >"%s"\ntrap "exit 130" INT TERM\nwhile kill -0 $PPID 2>/dev/null; do sleep 0.05; done\n' "$d/mark" >"$d/fake/make"
chmod +x "$d/fake/make"
for s in INT TERM KILL; do
	MAKE=$d/fake/make sweep phases --points 1 "${TINY[@]}"
	wait_until 30 have_mark
	kill -"$s" "$pid"
	# a terminal's ^C reaches make too (runtest.sh's trap runs once make is back)
	if [ "$s" != KILL ]; then kill -"$s" "$(cat "$d/mark")"; fi
	finish
	outcome "signal: runtest.sh SIG$s during the build" "$(sig_rc "$s")" '' - ''
done

# ---- signals at the runner's phases: runtest.sh or the runner, SIGINT/SIGTERM/SIGKILL ----
# phase ARGS...: the sweep options that hold the runner in one phase (at 1 task), long
# enough that the signal always lands there (it ends the point at once)
phase_args() {
	case $1 in
	prepare) echo "--points 1,2 --param hold=prepare --param from=2 ${TINY[*]}" ;;	# point 1 done
	start) echo "--points 1 --param hold=start --duration 20 --warmup 0 --period-ms 100 --repeat 1 --quiet" ;;
	warmup) echo "--points 1 --duration 0.2 --warmup 20 --period-ms 100 --repeat 1 --quiet" ;;
	measure) echo "--points 1 --duration 20 --warmup 0 --period-ms 100 --repeat 1 --quiet" ;;
	esac
}
for ph in prepare start warmup measure; do
	if [ "$ph" = prepare ]; then kept="processes,1 "; else kept=''; fi
	read -ra args <<<"$(phase_args "$ph")"
	for who in runtest.sh runner; do
		for s in INT TERM KILL; do
			sweep phases --mode processes "${args[@]}" --param mark="$d/mark"
			wait_until 60 have_mark || echo "# the runner did not reach its $ph within 60 s: the signal lands elsewhere"
			r=$(runner_of)
			if [ "$who" = runner ]; then kill -"$s" "$r"; else kill -"$s" "$pid"; fi
			finish
			name="signal: $who SIG$s in the runner's $ph"
			if [ "$who" = runtest.sh ] && [ "$s" = KILL ]; then
				# runtest.sh's janitor stops the runner and marks the run interrupted
				outcome "$name" 137 '' interrupted "$kept"
			elif [ "$s" = KILL ]; then
				outcome "$name" 1 "^runtest\.sh: phases: processes at [12] tasks failed: the runner was killed by signal 9$" failed "$kept"
			else
				outcome "$name" 130 "$INTR" interrupted "$kept"
			fi
		done
	done
done

# ---- signals while runtest.sh writes a point (an sb-summary that waits for "go") ----
printf '#!/bin/sh\nexit 0\n' >"$d/fake/true-make"
printf '#!/bin/sh\nif [ "$1" = -o ] && [ -f "$3" ] && [ "$(wc -l <"$3")" -gt 1 ]; then : >"%s"; while [ ! -e "%s" ]; do sleep 0.05; done; fi\nexec "%s" "$@"\n' \
	"$d/mark" "$d/go" "$PWD/$B/bin/sb-summary" >"$d/build/bin/sb-summary"
chmod +x "$d/fake/true-make" "$d/build/bin/sb-summary"
cp "$B/bin/sb-topology" "$B/bin/sb-sweepargs" "$B/bin/sb-workdir" "$B/bin/sb-machine" "$B/bin/sb-plan" "$B/bin/sb-rundir" "$d/build/bin/"
for s in INT TERM KILL; do
	SB_BUILD=$d/build MAKE=$d/fake/true-make sweep phases --points 1,2 --mode processes "${TINY[@]}"
	wait_until 30 have_mark
	kill -"$s" "$pid"
	nap 0.1	# (no timing rests on it: the write waits for "go" however long this takes)
	: >"$d/go"
	finish
	if [ "$s" = KILL ]; then msg=''; else msg=$INTR; fi
	outcome "signal: runtest.sh SIG$s while writing point 1" "$(sig_rc "$s")" "$msg" interrupted "processes,1 "
done

# ---- the runner's own write fails (its output on a full device): exit 3 with the reason ----
if [ -w /dev/full ]; then
	for m in processes threads; do
		run "$d/bin/phases_$m" -t 1 -s 2 --warmup 0 --period-ms 100 --format samples
		good=$rc
		"$d/bin/phases_$m" -t 1 -s 2 --warmup 0 --period-ms 100 --format samples >/dev/full 2>"$d/err"
		is "$good,$?" 0,3 "write: the runner ($m) into a full device: exit 3 (0 otherwise)"
		is "$(cat "$d/err")" "phases_$m: writing the output failed: No space left on device" "write: one line with the reason"
		wait_until 15 clean
		ok $? "write: no process, task or private directory left"
	done
else
	skip "no /dev/full"
fi

# ---- a task dies at point 2, by a signal or by exit: point 1 stays ----
for m in processes threads; do
	for how in signal exit; do
		sweep phases --points 1,2 --mode "$m" --param die="$how" --param from=2 "${TINY[@]}"
		finish
		case $how in signal) why='killed by signal 11 \(Segmentation fault\)' ;; exit) why='exited with status 7' ;; esac
		outcome "task: $m, task 0 $how at 2 tasks" 1 \
			"^runtest\.sh: phases: $m at 2 tasks failed: phases_$m: (task 0|the task process) .*$why$" failed "$m,1 "
	done
done

# ---- a partner dies, exits, returns or gives up: the point fails, never a number ----
for m in processes threads; do
	for how in fault exit return fatal; do
		sweep partner --points 1 --mode "$m" --param how="$how" --duration 2 --warmup 0 --period-ms 100 --repeat 1 --quiet
		finish
		outcome "partner: $m, $how" 1 "^runtest\.sh: partner: $m at 1 tasks failed: partner_$m: task 0's partner" failed ''
	done
done

# ---- bad input and environment, refused before a run directory exists ----
echo 'not a topology' >"$d/garbage"
: >"$d/empty"
for v in "HWLOC_XMLFILE=$d/garbage" "HWLOC_XMLFILE=$d/empty" "HWLOC_XMLFILE=$d/bin" "HWLOC_SYNTHETIC=pack:x"; do
	n=$((n + 1)) R=$d/r$n
	env "$v" ./runtest.sh phases --points 1 "${TINY[@]}" --results "$R" >"$d/out" 2>"$d/err" &
	pid=$!
	finish
	outcome "${v%%=*}=${v#*=}" 2 "^sb-topology: ${v%%=*}='${v#*=}' is (not a valid|an empty file|a directory)" - ''
done
sweep read1 --points 1 --param dir="$d/nonexist" "${TINY[@]}"
finish
outcome "--param dir=/nonexist" 2 "^runtest\.sh: read1_processes: the directory for the test's files \(--param dir\) $d/nonexist: No such file or directory$" - ''

# ---- resource limits: open files (root too), processes (as another user: root ignores RLIMIT_NPROC) ----
if command -v prlimit >/dev/null; then
	# prlimit --nofile=15: enough for runtest.sh (with the machine lock's descriptor; 13 is not),
	# not for 8 unix4 tasks and their partners' sockets
	n=$((n + 1)) R=$d/r$n
	rm -rf "$d/tmp"/*
	prlimit --nofile=15:15 ./runtest.sh unix4 --points 8 --mode threads "${TINY[@]}" --results "$R" >"$d/out" 2>"$d/err" &
	pid=$!
	finish
	grep -v 'oversubscribed' "$d/err" >"$d/err1" || true
	mv "$d/err1" "$d/err"
	outcome "RLIMIT_NOFILE too low" 3 "^runtest\.sh: unix4: threads at 8 tasks failed: .*Too many open files$" failed ''
else
	skip "RLIMIT_NOFILE: needs prlimit"
fi
# A user id of this case's own, not nobody's: RLIMIT_NPROC counts every process of
# the user, and other selftests run as nobody beside this one (make check runs
# files side by side); no passwd entry is needed.
NPROC_UID=64999
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null &&
	! getent passwd "$NPROC_UID" >/dev/null 2>&1 && [ -z "$(pgrep -U "$NPROC_UID" 2>/dev/null)" ] &&
	setpriv --reuid="$NPROC_UID" --regid="$NPROC_UID" --clear-groups test -r "$PWD/runtest.sh" -a -x "$PWD/runtest.sh" -a -x "$d"; then
	# (absolute paths: runtest.sh resolves its own directory, and every directory
	# above a checkout in a private temporary directory shuts nobody out)
	n=$((n + 1)) R=$d/r$n
	chmod 777 "$d/tmp" && mkdir -m 777 "$R"
	# a machine lock of that user's own: root's is no other user's to use (docs/RUNTEST.md, "Security")
	mkdir -p "$d/user-lock" && chown "$NPROC_UID:$NPROC_UID" "$d/user-lock"
	SB_MACHINE_LOCK=$d/user-lock/lock setpriv --reuid="$NPROC_UID" --regid="$NPROC_UID" --clear-groups prlimit --nproc=12 \
		./runtest.sh phases --points 24 --mode processes "${TINY[@]}" --results "$R" >"$d/out" 2>"$d/err" &
	pid=$!
	finish
	grep -v 'oversubscribed' "$d/err" >"$d/err1" || true
	mv "$d/err1" "$d/err"
	outcome "RLIMIT_NPROC too low (as an unprivileged user)" 3 "^runtest\.sh: phases: processes at 24 tasks failed: .*could not start task [0-9]+: fork: .*RLIMIT_NPROC" failed ''
	chmod 755 "$d/tmp"
else
	skip "RLIMIT_NPROC: needs root, setpriv, prlimit, an unused user id $NPROC_UID, and a checkout and TMPDIR it can reach"
fi

# ---- read-only results: at the start, and mid-sweep (a tmpfs remounted; root only) ----
if mount -t tmpfs -o size=4m,ro tmpfs "$M" 2>"$d/mount.err"; then
	n=$((n + 1)) R=$M/r
	./runtest.sh phases --points 1 "${TINY[@]}" --results "$R" >"$d/out" 2>"$d/err" &
	pid=$!
	finish
	outcome "read-only at the start" 3 "^runtest\.sh: cannot (write in|create) the results directory $M/r.*: Read-only file system$" - ''
	mount -o remount,rw "$M"
	n=$((n + 1)) R=$M/r2
	# point 2 waits in its prepare until mark goes: the disk turns read-only meanwhile
	./runtest.sh phases --points 1,2 --mode processes --param hold=prepare --param from=2 --param mark="$d/mark" \
		"${TINY[@]}" --results "$R" >"$d/out" 2>"$d/err" &
	pid=$!
	wait_until 30 have_mark
	mount -o remount,ro "$M"
	rm -f "$d/mark"
	finish
	outcome "read-only mid-sweep" 3 "^runtest\.sh: cannot write $R/phases/[^/]+/samples\.csv: Read-only file system$" running "processes,1 "
	umount "$M"
else
	skip "read-only results: cannot mount a tmpfs ($(tail -n 1 "$d/mount.err"))"
fi

# ---- compare and plot agree on a samples.csv without its last newline: truncated ----
mkdir -p "$d/cmp"
sweep phases --points 1 --mode processes --duration 0.5 --warmup 0 --period-ms 100 --repeat 1 --quiet
finish
run=$R/phases/$(readlink "$R/phases/latest")
cp -r "$run" "$d/cmp/a"
head -c -1 "$run/samples.csv" >"$d/cmp/a/samples.csv"
run ./compare.sh "$d/cmp/a" "$run"
is "$rc" 2 "no final newline: compare refuses the run (exit 2)"
like "$err" "samples\.csv.*(truncated|no newline)" "no final newline: compare calls it truncated"

grep -v -E '^selftest/fault_matrix\.t: line [0-9]+: +[0-9]+ Killed ' "$d/stderr.log" >&3 || true
echo "1..$_n"
exit "$_failed"
