#!/usr/bin/env bash
# A sweep validates --param dir through the runner's --check before it makes a run directory:
# exit 2, the runner's one line, no run directory, no latest.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/read1_processes" "$SB_BUILD/bin/read1_threads"
private_bins "$SB_BUILD/bin" read1
export SB_TESTS_DIR=$T/bin
# runtest.sh asks the runner (--check) before the sweep (check_runner_values); skip where it does not.
if ! grep -v '^[[:space:]]*#' runtest.sh | grep -q -- '--check'; then
	ok 0 "# SKIP runtest.sh does not call the runner's --check yet"
	done_testing
	exit
fi
: >"$T/a-file"
for c in "missing:No such file or directory" "a-file:not a directory"; do
	p=$T/${c%%:*}
	rc=0
	./runtest.sh read1 --param dir="$p" --points 1 --mode processes --duration 0.2 --warmup 0 \
		--period-ms 100 --quiet --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "--param dir=${c%%:*}: exit 2"
	like "$(cat "$T/err")" "the directory for the test's files \(--param dir\) $p: ${c#*:}" "--param dir=${c%%:*}: the runner's reason"
	is "$(wc -l <"$T/err" | tr -d ' ')" 1 "--param dir=${c%%:*}: one line"
	is "$(ls -A "$T/r/read1" 2>/dev/null)" "" "--param dir=${c%%:*}: no run directory, no latest"
done
done_testing
