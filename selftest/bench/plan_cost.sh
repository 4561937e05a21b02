#!/usr/bin/env bash
# The planner's cost per run of a sweep: one `sb-plan next` (it reads the run's samples.csv whole)
# on a synthetic run directory the size of a finished default sweep, the median of RUNS calls.
#
#   selftest/bench/plan_cost.sh [RUNS]     (default 20; the build in SB_BUILD or build/)
#
# The run directory: 2 modes x 48 counts (--points all on 48; auto on 96 measures at most 24
# a mode) x 10 runs x 2 measured samples a run, samples.csv rows as the runner writes them.
set -eu
tmp=''
trap 'if [ -n "$tmp" ]; then rm -rf -- "$tmp"; fi' EXIT

main() {
	local runs=${1:-20} b=${SB_BUILD:-build} m n r i t0 t1 ms=()
	tmp=$(mktemp -d)
	make -s BUILD="$b" "$b/bin/sb-plan" >/dev/null
	mkdir "$tmp/run"
	{
		echo 'mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms'
		for m in processes threads; do
			for ((n = 1; n <= 48; n++)); do
				for ((r = 1; r <= 10; r++)); do
					for i in 1 2; do
						printf '%s,%d,%d,measure,%d,0.5,500000,%d.0,1,1,0.00,0.00,0.1\n' "$m" "$n" "$r" "$i" $((1000000 + r * 1000 + i))
					done
				done
			done
		done
	} >"$tmp/run/samples.csv"
	printf '%s\n' modes_total=2 points_mode=all min=1 max=48 step=1 units=48 min_runs=3 max_runs=10 adaptive=1 \
		precision=2000 point_budget_ms=30000 run_ms=3300 >"$tmp/conf"
	"$b/bin/sb-plan" init "$tmp/conf" "$tmp/state" --modes processes,threads --allow -1 --run-dir "$tmp/run" >/dev/null
	for ((i = 0; i < runs; i++)); do
		cp "$tmp/state" "$tmp/state.$i"
		t0=${EPOCHREALTIME/[.,]/}
		"$b/bin/sb-plan" next "$tmp/conf" "$tmp/state.$i" --run-dir "$tmp/run" >/dev/null
		t1=${EPOCHREALTIME/[.,]/}
		ms+=($(((t1 - t0) / 100)))	# tenths of a millisecond
	done
	printf '%s\n' "${ms[@]}" | sort -n | awk -v rows="$(($(wc -l <"$tmp/run/samples.csv") - 1))" '
		{ v[NR] = $1 } END { printf "sb-plan next, %d samples.csv rows: median %.1f ms (min %.1f, max %.1f) of %d calls\n",
			rows, v[int((NR + 1) / 2)] / 10, v[1] / 10, v[NR] / 10, NR }'
}

main "$@"
