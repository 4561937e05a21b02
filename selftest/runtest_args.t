#!/usr/bin/env bash
# runtest.sh: every bad argument exits 2 and an unwritable results directory 3, before anything runs; --list, --dry-run.
# sb-san: skip: runtest.sh's argument checks before anything runs: shell
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"

R=$T/results
mkdir "$R"
FAST=(--points 1 --duration 0.2 --warmup 0 --period-ms 100 --repeat 1)

# rejected SUBSTRING ARGS...: exit 2, a message containing SUBSTRING, nothing measured
rejected() {
	local want=$1 rc=0
	shift
	./runtest.sh --results "$R" "$@" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "exit 2: $*"
	if ! grep -qF -- "$want" "$T/err"; then
		ok 1 "message names the problem: $*"
		diag_file "$T/err"
	else
		ok 0 "message names the problem: $*"
	fi
}

rejected "no testcase given"
rejected "'../x' is not a testcase name" ../x "${FAST[@]}"
rejected "'a;b' is not a testcase name" 'a;b' "${FAST[@]}"
rejected "'x y' is not a testcase name" 'x y' "${FAST[@]}"
rejected "unknown testcase 'no_such_test'; known: " no_such_test "${FAST[@]}"
rejected "getppid1" no_such_test "${FAST[@]}"
rejected "unknown option '--bogus'" getppid1 --bogus
rejected "--max-procs: '0' must be at least 1" getppid1 --max-procs 0
rejected "--max-procs: '2x' is not a whole number" getppid1 --max-procs 2x
rejected "--max-procs: '-1' is not a whole number" getppid1 --max-procs -1
rejected "--min-procs 3 is larger than --max-procs 2" getppid1 --min-procs 3 --max-procs 2
rejected "--step: '0' must be at least 1" getppid1 --step 0
rejected "--points: '' is not a whole number" getppid1 --points 1,,2
rejected "--points: 'four' is not a whole number" getppid1 --points 1,four
rejected "--points cannot be combined" getppid1 --points 1,2 --max-procs 4
rejected "--repeat: '0' must be at least 1" getppid1 --repeat 0
# a zero budget would mean nothing to run, or (before) no limit and the default: refused
rejected "--point-budget: '0' must be more than 0 seconds" getppid1 --point-budget 0
rejected "--point-budget: '0.0' must be more than 0 seconds" getppid1 --point-budget 0.0
rejected "--budget: '0' must be more than 0 seconds" getppid1 --budget 0
rejected "--period-ms: '1.5' is not a whole number" getppid1 --period-ms 1.5
rejected "--duration: 'abc' is not a number of seconds" getppid1 --duration abc
rejected "--duration: '1.2345' has more than 3 decimals" getppid1 --duration 1.2345
rejected "less than one sample" getppid1 --duration 0.1 --period-ms 1000
rejected "--warmup: '-1' is not a number of seconds" getppid1 --warmup -1
rejected "--mode: unknown mode 'proc'" getppid1 --mode proc
rejected "--placement: unknown placement 'sockets'" getppid1 --placement sockets
rejected "--no-affinity contradicts --placement cores" getppid1 --no-affinity --placement cores
rejected "--label: 'a/b' must be" getppid1 --label a/b
rejected "--label: '..' must be" getppid1 --label ..
rejected "--param: 'size' is not NAME=VALUE" getppid1 --param size
rejected "unknown parameter 'size'" getppid1 --param size=1 "${FAST[@]}"
rejected "--label needs a value" getppid1 --label
rejected "--smt takes no value" getppid1 --smt=1
is "$(ls -A "$R")" "" "nothing was written by any rejected command"

# an unknown parameter of a testcase that has parameters (the selftest fixture)
need_build "$SB_BUILD/selftest/params_processes" "$SB_BUILD/selftest/params_threads"
rc=0
SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh params --param nope=1 "${FAST[@]}" --results "$R" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "a parameter the testcase does not declare: exit 2"
like "$(cat "$T/err")" "unknown parameter 'nope' \(this testcase has: size" "it lists the declared ones"
rc=0
SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh params --param size=0 "${FAST[@]}" --results "$R" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "a parameter out of range: exit 2"
is "$(ls -A "$R")" "" "nothing written"
# blank lines on the runner's stderr are passed over; a note is shown once a sweep
rc=0
SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh params --param blank=1 "${FAST[@]}" --results "$T/blank" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 0 "blank lines from the testcase: the sweep succeeds"
is "$(grep -c 'a note after blank lines' "$T/err")" 1 "the note is shown once for both runs"
is "$(grep -c '^[[:space:]]*$' "$T/err")" 0 "no blank line is passed on"

# an unwritable results directory: exit 3 before anything runs (a path under a
# regular file cannot be created, even by root)
touch "$T/file"
rc=0
./runtest.sh getppid1 "${FAST[@]}" --results "$T/file/results" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "results directory under a regular file: exit 3"
like "$(cat "$T/err")" "cannot create the results directory" "it says so"
is "$(cat "$T/out")" "" "no run directory printed"
# a read-only results/<test> (for root: chattr +i when the filesystem allows it)
mkdir -p "$T/ro/getppid1"
if chattr +i "$T/ro/getppid1" 2>/dev/null; then
	rc=0
	./runtest.sh getppid1 "${FAST[@]}" --results "$T/ro" >/dev/null 2>"$T/err" || rc=$?
	chattr -i "$T/ro/getppid1"
	is "$rc" 3 "immutable results directory: exit 3"
	like "$(cat "$T/err")" "is not writable" "it says so"
else
	ok 0 "# SKIP chattr +i not supported here"
	ok 0 "# SKIP chattr +i not supported here"
fi

# a bad synthetic topology is an input error
rc=0
HWLOC_SYNTHETIC="pack:x" ./runtest.sh getppid1 "${FAST[@]}" --results "$R" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "invalid HWLOC_SYNTHETIC: exit 2"

# --help, --list, --dry-run
rc=0
./runtest.sh --help >"$T/out" 2>&1 || rc=$?
is "$rc" 0 "--help exits 0"
ok "$(grep -q '^usage: ./runtest.sh TEST' "$T/out"; echo $?)" "--help prints the usage"
# (--list builds every testcase; a private directory keeps this test to getppid1)
private_bins "$SB_BUILD/bin" getppid1
rc=0
SB_TESTS_DIR=$T/bin ./runtest.sh --list >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--list exits 0"
like "$(grep '^getppid1 ' "$T/out")" '^getppid1 +processes,threads +getppid' "--list: name, modes, description"
rc=0
SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh --list >"$T/out" 2>"$T/err" || rc=$?
like "$(grep -- '--param size=' "$T/out")" '--param size=2048 +\(int 1\.\.[0-9]+\) ' "--list: parameters with defaults"
like "$(grep -- '--param dir=' "$T/out")" '--param dir= +\(string\) ' "--list: an empty default stays in its column"

rc=0
./runtest.sh getppid1 --max-procs 2 --step 1 --dry-run --results "$R" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--dry-run exits 0"
like "$(grep 'points:' "$T/out")" 'points: +1,2 \(2\)' "--dry-run prints the points"
like "$(grep 'modes:' "$T/out")" 'modes: +processes,threads' "--dry-run prints the modes"
ok "$(grep -q '^    task pu core numa package' "$T/out"; echo $?)" "--dry-run prints the placement"
like "$(grep 'estimated:' "$T/out")" 'estimated: 12 to 40 runner runs, [0-9hms]+ to [0-9hms]+ \(budget 18s\)' \
	"--dry-run estimates the time: 3 to 10 runs a point, within the budget"
is "$(ls -A "$R")" "" "--dry-run writes nothing"

# --step: min, the multiples of step, max
./runtest.sh getppid1 --min-procs 1 --max-procs 10 --step 4 --dry-run >"$T/out" 2>&1
like "$(grep 'points:' "$T/out")" 'points: +1,4,8,10 \(4\)' "--step 4 to 10: 1,4,8,10"
./runtest.sh getppid1 --points 8,2,2,1 --dry-run >"$T/out" 2>&1
like "$(grep 'points:' "$T/out")" 'points: +1,2,8 \(3\)' "--points sorted, duplicates dropped"

# Runner options the sweep passes through come from the runner's own table
# (sb-options, the sweep=yes rows): every one is accepted and its value is
# judged by the runner's --check, not by a copy in runtest.sh.
need_build "$SB_BUILD/bin/sb-options"
swept=$("$SB_BUILD/bin/sb-options" --list-options | sed -n 's/^option=\([^ ]*\) arg=\([^ ]*\) sweep=yes.*/\1/p' | tr '\n' ' ')
is "$swept" "--warmup-min --warmup-max --warmup-period-ms --period-ms --placement --stall-timeout --param " "sb-options lists the runner's sweep options"
rejected "--stall-timeout: '0' is out of range" getppid1 "${FAST[@]}" --stall-timeout 0
rc=0
./runtest.sh getppid1 --stall-timeout 7 --dry-run --results "$R" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--stall-timeout, a sweep=yes runner option, is passed through"
is "$(ls -A "$R")" "" "(a dry run: nothing written)"
rc=0
"$SB_BUILD/bin/sb-options" -t 2 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "sb-options does nothing but list: other options exit 2"

# --points auto (the default), all, and what goes with which
rejected "--step measures every count: it goes with --points all" getppid1 --points auto --step 2
rejected "--max-points goes with --points auto" getppid1 --points 1,2 --max-points 3
rejected "--max-points: '0' must be at least 1" getppid1 --max-points 0
./runtest.sh getppid1 --points all --max-procs 3 --dry-run >"$T/out" 2>&1
like "$(grep 'points:' "$T/out")" 'points: +1,2,3 \(3\)' "--points all --max-procs 3: every count"
./runtest.sh getppid1 --max-procs 3 --dry-run >"$T/out" 2>&1
like "$(grep 'points:' "$T/out")" 'points: +1,2,3 \(3\)' "auto on a range of 8 counts or fewer: every count"

# --quick --max-runs 5: adaptive again, with the default precision target (it was
# emptied: the plan said "within +-%" and every point ran to the maximum)
./runtest.sh getppid1 --quick --max-runs 5 --dry-run >"$T/out" 2>&1
like "$(grep 'runs:' "$T/out")" 'runs: +2 to 5 a point, until the 95% interval is within \+-2% ' \
	"--quick --max-runs 5: 2 to 5 runs, until +-2%"
./runtest.sh getppid1 --quick --dry-run >"$T/out" 2>&1
like "$(grep 'runs:' "$T/out")" 'runs: +exactly 2 a point$' "--quick alone: exactly 2 runs"
# the steady-state warmup's bounds, sb-sweepargs' (a floor above the cap is refused, not capped in silence)
./runtest.sh getppid1 --warmup-min 0.4 --warmup-max 1.5 --dry-run >"$T/out" 2>&1
like "$(grep 'each run:' "$T/out")" 'steady-state \(at least 0.4 s, at most 1.5 s\) warmup' "--warmup-min/--warmup-max in the plan"
./runtest.sh getppid1 --warmup-min 3 --dry-run >"$T/out" 2>&1
like "$(grep 'each run:' "$T/out")" 'steady-state \(at least 3 s, at most 3 s\) warmup' "--warmup-min 3 alone raises the cap"
rejected "--warmup-min 3 s is more than --warmup-max 1 s" getppid1 --warmup-min 3 --warmup-max 1
./runtest.sh getppid1 --warmup auto --dry-run >"$T/out" 2>&1
like "$(grep 'each run:' "$T/out")" 'steady-state \(at most 1 s\) warmup' "--warmup auto: the default, said"

# --version is the only argument, as --check-system is (it printed the version and ignored the rest)
rc=0
./runtest.sh --version getppid1 >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(cat "$T/err")" "2:runtest.sh: --version takes no other argument (see ./runtest.sh --help)" \
	"--version with another argument: exit 2, one line"
is "$(cat "$T/out")" "" "and no version printed"
# --calibrate makes its sweeps: one that would only print (it printed K times, then the history's
# drift as it was, as if it had calibrated) is refused before the first
for a in --dry-run --list --help; do
	rc=0
	./runtest.sh --calibrate getppid1 "${FAST[@]}" --results "$R" "$a" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc:$(cat "$T/err")" \
		"2:runtest.sh: --calibrate: $a cannot be given (it runs its sweeps and adds them to the history) (see ./runtest.sh --help)" \
		"--calibrate with $a: exit 2, one line"
done

# a results directory's path travels in lines (stdout, the janitor's file): a newline in it left a
# SIGKILLed sweep's meta at running (the janitor marked the path's first line)
nl_dir="$T/a
b"
rc=0
./runtest.sh getppid1 --results "$nl_dir" "${FAST[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(cat "$T/err")" \
	"2:runtest.sh: --results: the directory name holds a control character (a newline?): choose one without (see ./runtest.sh --help)" \
	"--results with a newline: exit 2, one line"
[ ! -e "$nl_dir" ] && ok 0 "nothing made for it" || ok 1 "nothing made for it"

done_testing
