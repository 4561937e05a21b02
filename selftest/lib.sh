# TAP helpers for the bash selftests: source it, call plan N, then ok/is/like.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${SB_BUILD:-build}
# A machine lock of this test file's own (make check runs two files at a time:
# runners warn when a sweep holds the machine's), and no busy warning (make
# check keeps the machine busy; tests count stderr lines), so a 10 ms probe
# (300 ms of each of some 500 sweeps went to it); no reference loop at a sweep's
# ends (twice 0.33 s a testcase; steadiness.t turns it on) and a 200 ms one for
# --check-system, not 5 s.
case $B in /*) _sb_locks=$B/selftest-locks ;; *) _sb_locks=$PWD/$B/selftest-locks ;; esac
mkdir -p "$_sb_locks" 2>/dev/null || true
export SB_MACHINE_LOCK=$_sb_locks/${0##*/}.lock SB_MACHINE_BUSY_PCT=101 SB_MACHINE_PROBE_MS=10 SB_MACHINE_REFERENCE_MS=0 SB_MACHINE_STEADY_MS=200
# A lock file an older build left 0666 is refused now (issue 31): this file's own lock starts anew.
rm -f "$SB_MACHINE_LOCK" "$SB_MACHINE_LOCK.tuned"
unset SB_MACHINE_ROOT SB_MACHINE_LOCK_HOLDER
_n=0
_failed=0
plan() { echo "1..$1"; }
ok() {	# ok COND-EXIT-STATUS NAME
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; _failed=1; fi
}
is() {	# is GOT WANT NAME
	_n=$((_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; _failed=1; fi
}
# _matches GOT REGEX: grep -E's verdict on GOT's lines; one line is matched by bash
# itself (the same POSIX ERE, through the C library: no pipe, fork and exec)
_matches() {
	case $1$2 in
	*$'\n'*) printf '%s\n' "$1" | grep -Eq -- "$2" ;;
	*) [[ $1 =~ $2 ]] ;;
	esac
}
like() {	# like GOT REGEX NAME
	_n=$((_n + 1))
	if _matches "$1" "$2"; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want match: '$2'"; _failed=1; fi
}
unlike() {	# unlike GOT REGEX NAME
	_n=$((_n + 1))
	if _matches "$1" "$2"; then
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   must not match: '$2'"; _failed=1
	else echo "ok $_n - $3"; fi
}
skip() { _n=$((_n + 1)); echo "ok $_n # skip $1"; }
# run CMD...: sets $out (stdout), $err (stderr), $rc
# (its two files are this test file's own in the build, beside its machine lock,
# kept between calls: no mktemp and rm each time, and a selftest makes hundreds)
_sb_run_o=$_sb_locks/${0##*/}.out _sb_run_e=$_sb_locks/${0##*/}.err
run() {
	"$@" >"$_sb_run_o" 2>"$_sb_run_e"
	rc=$?
	out=$(<"$_sb_run_o") err=$(<"$_sb_run_e")	# not cat: two forks fewer a run
}
# nap SECONDS: a sleep without a fork and an exec (the polls below make thousands):
# a read that times out on this file's own FIFO, which nobody writes
_sb_nap=$_sb_locks/${0##*/}.nap
if [ ! -p "$_sb_nap" ]; then rm -f "$_sb_nap"; mkfifo "$_sb_nap" 2>/dev/null || _sb_nap=''; fi
nap() {
	if [ -n "$_sb_nap" ]; then read -r -t "$1" <>"$_sb_nap" || true; else sleep "$1"; fi
}
# alive PATTERN: processes whose command line matches (excluding pgrep itself)
alive() { pgrep -f -- "$1" | tr '\n' ' '; }
# wait_gone PATTERN SECONDS: 0 when no process matches within the time
wait_gone() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		no_process "$1" && return 0
		nap 0.1
	done
	return 1
}
# linux_only: 0 when this build has the Linux OS layer and the Linux-only testcases (make OS=generic has neither)
linux_only() { [ "${SB_OS:-linux}" = linux ]; }
# ---- leftovers: reusable by any fault test ----
# private_copy DIR BIN...: copies of binaries in DIR, so that "alive DIR/" finds
# this test's runners, tasks, partners and janitors (forks keep the command line).
private_copy() {
	local d=$1
	shift
	cp -- "$@" "$d/" && chmod 755 "$d"
}
# need_fixtures: bail out at once, saying how to build them, when the selftest programs
# (make fixtures: build/selftest/) are missing: a file run alone with prove otherwise waited
# for sweeps of programs that were not there and failed half its tests a minute later.
need_fixtures() {
	local f
	for f in phases_processes history_gen unit_verdict; do
		if [ ! -x "$B/selftest/$f" ]; then
			echo "Bail out! $B/selftest/$f is missing: run make fixtures first (make check T=$0 does)"
			exit 3
		fi
	done
}
# a file that runs a selftest program checks for them at once (one grep of the file)
if grep -Eq 'selftest/[a-z_0-9]+_(processes|threads)|selftest/(history_gen|history_sim|unit_)|SB_TESTS_DIR=' "$0" 2>/dev/null; then
	need_fixtures
fi
# wait_until SECONDS CMD...: poll CMD every 0.1 s; 0 once it succeeds within the time
wait_until() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		"${@:2}" && return 0
		nap 0.1
	done
	return 1
}
# no_tmpdir DIR: 0 when DIR holds no runner directory (scalebench.*)
no_tmpdir() { [ -z "$(find "$1" -mindepth 1 -maxdepth 1 -name 'scalebench.*' -print -quit)" ]; }
# no_process PATTERN: 0 when no process's command line matches
no_process() { ! pgrep -f -- "$1" >/dev/null; }
# nothing_left PATTERN TMPDIR SECONDS: polls until neither a process nor a tmp dir is left
nothing_left() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		no_process "$1" && no_tmpdir "$2" && return 0
		nap 0.1
	done
	return 1
}
# children PID: its child pids, space separated
children() { pgrep -P "$1" | tr '\n' ' '; }
# gone PID: 0 once PID no longer runs
gone() { ! kill -0 "$1" 2>/dev/null; }
# reap PID PATTERN: the exit status of background job PID -> rc. One that outlives 60 s
# fails its case, never hangs the selftest: it is killed, with every process matching PATTERN.
reap() {
	rc=0
	wait_until 60 gone "$1" ||
		{ echo "# pid $1 still running after 60 s: killed"; kill -KILL "$1" 2>/dev/null; pkill -KILL -f -- "$2" 2>/dev/null; }
	wait "$1" 2>/dev/null || rc=$?
}
