#!/usr/bin/env bash
# runtest.sh --points auto end to end (the default with --max-procs): the seeds run, points.csv and meta
# say why and how, the table shows each count's reason; the planner's rules are analysis_plan.t's.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-plan" "$SB_BUILD/selftest/paced_processes" "$SB_BUILD/selftest/paced_threads"

# The paced fixture: a clock-paced rate, so its curve is a straight line whatever the load;
# 2 runs a point (t = 12.7: wide intervals) leave auto nothing to add.
R=$T/r
rc=0
HWLOC_SYNTHETIC="pack:1 core:2 pu:2" SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh paced --max-procs 10 \
	--mode processes --placement none --param spread=2 --min-runs 2 --max-runs 2 --duration 0.2 --warmup 0.1 \
	--period-ms 100 --results "$R" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "an auto sweep exits 0"
[ "$rc" = 0 ] || diag_file "$T/err"
run=$(cat "$T/out")
is "$(cat "$run/points.csv" 2>/dev/null)" "mode,tasks,origin,reason
processes,1,seed,seed: 1
processes,2,seed,seed: 2
processes,4,seed,seed: power of two
processes,8,seed,seed: power of two
processes,10,seed,seed: largest" "points.csv: the seeds, each with its reason"
is "$(meta "$run/meta" points_mode),$(meta "$run/meta" max_points),$(meta "$run/meta" points)" "auto,24,1,2,4,8,10" \
	"meta: points_mode, max_points, the counts planned"
is "$(awk -F, 'NR > 1 { print $2 }' "$run/samples.csv" | sort -n -u | tr '\n' ' ')" "1 2 4 8 10 " "the seeds ran, no other count"
like "$(grep -E '^ +4 ' "$T/err")" ' power of two$' "the end-of-sweep table's why column"
done_testing
