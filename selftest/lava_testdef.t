#!/usr/bin/env bash
# sb-san: skip: the LAVA test definition and lava/run.sh (shell, and LAVA's own Python), over tools tested under the sanitizers elsewhere
# lava/scalebench.yaml through LAVA's own code, Debian's lava-common and lava-dispatcher (apt-get
# download, dpkg -x; the .debs kept in the build directory): its test definition schema accepts
# the file (and its job schema the example jobs in lava/jobs/), LAVA's TestRunnerAction writes the
# run.sh of a job in a clone, and that runs under LAVA's lava-test-shell with LAVA's helpers
# (their interpreter line, mode 755) on PATH: every point is a LAVA_SIGNAL_TESTCASE with ops/s,
# TESTBED names the host, a regression against BASELINE fails <test>.gate, a failed sweep is fail
# without a number, runtest.sh's exit 3 is lava-test-raise; outside LAVA, plain lines.
# Where Debian's packages cannot be had this file skips, except under CI (CI=true): there it fails.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $B in /*) cache=$B/lava-debs ;; *) cache=$PWD/$B/lava-debs ;; esac
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# unavailable WHY: skip everything (fail under CI: the packages are reachable there)
unavailable() {
	if [ "${CI-}" = true ]; then plan 1; ok 1 "LAVA's packages under CI: $1"; exit 1; fi
	plan 0
	echo "# skip: $1"
	exit 0
}

# the .debs, downloaded once into the build directory
if ! ls "$cache"/lava-common_*.deb "$cache"/lava-dispatcher_*.deb >/dev/null 2>&1; then
	mkdir -p "$cache" && chmod 755 "$cache"
	start=$(date +%s%N)
	(cd "$cache" && apt-get download lava-common lava-dispatcher >"$tmp/apt.log" 2>&1) ||
		unavailable "apt-get download lava-common lava-dispatcher failed: $(tail -n 1 "$tmp/apt.log")"
	echo "# apt-get download lava-common lava-dispatcher: $((($(date +%s%N) - start) / 1000000)) ms"
fi
for deb in "$cache"/lava-common_*.deb "$cache"/lava-dispatcher_*.deb; do
	dpkg -x "$deb" "$tmp/x" || unavailable "dpkg -x $deb failed"
done
lava=$(dirname "$(find "$tmp/x" -type d -name lava_common | head -n 1)")
[ -d "$lava/lava_dispatcher/lava_test_shell" ] || unavailable "no lava_test_shell in the packages"
"$PY" -c 'import voluptuous, yaml, requests, pexpect' 2>"$tmp/py.err" ||
	unavailable "$PY lacks LAVA's modules (make deps: python3-voluptuous python3-yaml python3-requests python3-pexpect): $(tail -n 1 "$tmp/py.err")"

plan 27
echo "# LAVA: $(basename "$cache"/lava-dispatcher_*.deb)"

# a clone of this repository, this checkout's lava/ in it (what a job's from: git fetches)
git clone -q --shared . "$tmp/clone" 2>/dev/null || { mkdir -p "$tmp/clone"; }
mkdir -p "$tmp/clone/lava" && cp -R lava/. "$tmp/clone/lava/"

# job N NAME=VALUE...: LAVA writes run.sh for a job with these test parameters, then
# lava-test-shell runs it as lava-test-runner does ($SHELL -e run.sh) -> $out, $rc, R (its results)
job() {
	local n=$1
	shift
	rm -f "$tmp/clone/run.sh"
	R=$tmp/res$n
	run env SB_LAVA_JOBS="$(echo lava/jobs/*.yaml)" "$PY" selftest/lava_deploy.py "$lava" \
		"$tmp/clone/lava/scalebench.yaml" "$tmp/clone" "$tmp/lava" "$@"
	[ "$rc" = 0 ] || { echo "# lava_deploy.py: $err"; return; }
	deployed=$out
	mkdir -p "$tmp/out$n"
	run env PATH="$tmp/lava/bin:$PATH" SB_LAVA_CHECKOUT="$PWD" SB_LAVA_RESULTS="$R" \
		"$tmp/lava/bin/lava-test-shell" --output_dir "$tmp/out$n" /bin/bash -e "$tmp/clone/run.sh"
}
TINY='--points 1,2 --repeat 2 --duration 0.4 --warmup 0.1 --period-ms 100 --quiet'

job 1 "RUNTEST_ARGS=$TINY" TESTBED=lava-board-a JOB_TIMEOUT=600
like "$deployed" 'testdef: accepted by lava_common.schemas.test.testdef' "LAVA's test definition schema accepts lava/scalebench.yaml"
like "$deployed" 'job: qemu-x86_64.yaml accepted' "LAVA's job schema accepts lava/jobs/qemu-x86_64.yaml"
like "$deployed" 'job: board.yaml accepted' "LAVA's job schema accepts lava/jobs/board.yaml"
is "$(head -n 1 "$tmp/lava/bin/lava-test-case") $(stat -c %a "$tmp/lava/bin/lava-test-case")" '#!/bin/bash 755' "lava-test-case deployed as LAVA does: its interpreter line, mode 755"
like "$(cat "$tmp/clone/run.sh")" "TESTBED='lava-board-a'" "LAVA's run.sh sets the job's parameters"
is "$(cat "$tmp/out1/return_code" 2>/dev/null)" 0 "job 1: run.sh exits 0 (lava-test-shell's return_code)${err:+: $(tail -n 3 <<<"$err")}"
dir=$(readlink -f "$R/unix1/latest")
cases=$(grep -c '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=unix1\.\(processes\|threads\)\.[12] RESULT=pass UNITS=ops/s MEASUREMENT=[0-9][0-9.]*>$' <<<"$out")
is "$cases" 4 "job 1: each of the 4 points is a LAVA_SIGNAL_TESTCASE, pass, in ops/s"
want=$(awk -F, 'NR > 1 && $1 == 2 { print $2 }' "$dir/summary.csv")
like "$out" "TEST_CASE_ID=unix1.processes.2 RESULT=pass UNITS=ops/s MEASUREMENT=$want>" "job 1: the measurement is summary.csv's mean"
like "$out" '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=unix1 RESULT=pass>' "job 1: the sweep's own case passes"
like "$out" '<LAVA_SIGNAL_TESTSET START unix1>' "job 1: the cases are in the test set unix1"
unlike "$out" 'unix1\.gate' "job 1: without BASELINE there is no gate case"
is "$(cat "$tmp/out1/results/unix1.processes.1/units" 2>/dev/null)" ops/s "job 1: lava-test-case wrote the units into LAVA_RESULT_DIR"
is "$(sed -n 's/^host=//p' "$dir/meta")" lava-board-a "job 1: TESTBED is the run's host (the history's testbed)"
like "$err" 'scalebench: unix1: estimated [0-9]+ runner runs' "job 1: the plan's estimate is printed"
ok "$([ -s "$R.tar.gz" ]; echo $?)" "job 1: the results tarball"

# a baseline ten times faster: the gate must find a regression
base=$tmp/base/unix1/base-run
mkdir -p "$base" && cp "$dir/meta" "$base/"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ops_per_s") c = i; print; next }
	{ if ($(c) != "") $(c) = $(c) * 10; print }' "$dir/samples.csv" >"$base/samples.csv"
mkdir -p "$tmp/bin"
cp "$B"/bin/unix1_processes "$B"/bin/unix1_threads "$B"/selftest/crash_processes "$B"/selftest/crash_threads "$tmp/bin/"
# (crash's task 1 dies 0.3 s into a run: TINY's 0.5 s fail)
SB_TESTS_DIR=$tmp/bin job 2 "RUNTEST_ARGS=$TINY" TESTBED=lava-board-a "BASELINE=$base" 'TESTS=unix1 crash'
is "$(cat "$tmp/out2/return_code" 2>/dev/null)" 0 "job 2: run.sh exits 0 (a failed sweep and a regression are results, not errors)${err:+: $(tail -n 3 <<<"$err")}"
like "$out" '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=unix1.gate RESULT=fail>' "job 2: a regression against BASELINE fails unix1.gate"
like "$out" 'regress|slower|REGRESSION' "job 2: compare's report is in the log"
like "$out" '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=crash RESULT=fail>' "job 2: the failed sweep's case is fail"
unlike "$out" 'TEST_CASE_ID=crash[^ ]* RESULT=pass' "job 2: no case of the failed sweep passes"
unlike "$out" 'TEST_CASE_ID=crash[^ ]* [^>]*MEASUREMENT' "job 2: a failed sweep reports no number"
unlike "$out" 'crash\.gate' "job 2: a failed sweep has no gate case"

# another sweep holds the machine: with --no-wait, runtest.sh's exit 3
flock -o "$SB_MACHINE_LOCK" sh -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1" && exec sleep 60' sh "$tmp/held" &
holder=$!
wait_until 10 test -s "$tmp/held"
job 3 "RUNTEST_ARGS=$TINY --no-wait"
kill "$(cat "$tmp/held")" 2>/dev/null
wait "$holder" 2>/dev/null
like "$out" '<LAVA_SIGNAL_TESTRAISE scalebench: unix1: runtest.sh exit 3' "job 3: runtest.sh's exit 3 is lava-test-raise"
unlike "$out" 'TEST_CASE_ID=unix1 RESULT' "job 3: an environment error is no case of the kernel's"
ok "$([ "$(cat "$tmp/out3/return_code" 2>/dev/null)" = 3 ]; echo $?)" "job 3: run.sh stops, exit 3"

# outside LAVA: plain lines
run lava/run.sh report unix1 "$dir"
like "$out" "^unix1.processes.2 pass $want ops/s" "report without lava-test-case on PATH: plain lines"
like "$out" $'\nunix1 pass$' "report without LAVA: the sweep's line"
exit $_failed
