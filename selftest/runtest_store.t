#!/usr/bin/env bash
# runtest.sh results store: run-ids unique within a second, no run overwritten, latest, several testcases.
# sb-san: skip: runtest.sh's store (run ids, latest): shell; sb-rundir's C is sanitized in rundir_keys.t and runtest_faults.t
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads" \
	"$SB_BUILD/bin/null1_processes" "$SB_BUILD/bin/null1_threads"

R=$T/r
TINY=(--points 1 --mode processes --duration 0.1 --warmup 0 --period-ms 100 --repeat 1 --quiet --results "$R")

# Occupy the run-id of this second and the next few: the run must pick a new name
# and leave those alone.
mkdir -p "$R/getppid1"
now=$(date -u +%s)
for ((s = now; s < now + 6; s++)); do
	id=same-$(date -u -d "@$s" +%Y%m%dT%H%M%S 2>/dev/null || date -u -r "$s" +%Y%m%dT%H%M%S)
	mkdir "$R/getppid1/$id"
	echo keep >"$R/getppid1/$id/marker"
done
rc=0
./runtest.sh getppid1 --label same "${TINY[@]}" >"$T/out1" 2>&1 || rc=$?
is "$rc" 0 "first run exits 0"
rc=0
./runtest.sh getppid1 --label same "${TINY[@]}" >"$T/out2" 2>&1 || rc=$?
is "$rc" 0 "second run exits 0"
id1=$(basename "$(cat "$T/out1")")
id2=$(basename "$(cat "$T/out2")")
like "$id1" '^same-[0-9]{8}T[0-9]{6}-[0-9]+$' "an existing run-id gets a -N suffix ($id1)"
ok "$([ "$id1" != "$id2" ]; echo $?)" "two runs in the same second: different run-ids ($id1, $id2)"
is "$(cat "$R"/getppid1/same-*/marker | sort -u)" keep "the existing directories were not touched"
is "$(ls "$R"/getppid1/same-*/marker | wc -l | tr -d ' ')" 6 "all of them"
is "$(readlink "$R/getppid1/latest")" "$id2" "latest points to the newest run"
for id in "$id1" "$id2"; do
	is "$(meta "$R/getppid1/$id/meta" run_id)" "$id" "meta run_id of $id"
done

# several testcases: one run directory each, printed in order
rc=0
./runtest.sh getppid1 null1 --label two "${TINY[@]}" >"$T/out" 2>&1 || rc=$?
is "$rc" 0 "two testcases exit 0"
like "$(tr '\n' ' ' <"$T/out")" "^$R/getppid1/two-[0-9T]+ $R/null1/two-[0-9T]+ \$" "one run directory per testcase"
is "$(meta "$R/null1/latest/meta" test)" null1 "each run is its testcase's"

# the default label: the kernel release, made safe for a directory name
rc=0
./runtest.sh getppid1 "${TINY[@]}" >"$T/out" 2>&1 || rc=$?
want=$(uname -r | tr -c 'A-Za-z0-9._\n-' '_')
is "$(meta "$(cat "$T/out")/meta" label)" "$want" "default label: uname -r"

done_testing
