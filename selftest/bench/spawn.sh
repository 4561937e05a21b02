#!/usr/bin/env bash
# Spawn and teardown: the runner's own --timing of 256 / 1,024 / 4,096 null1 tasks, both modes, as a table.
#
#   selftest/bench/spawn.sh [RUNS]     (default 3 runs of each; the build in SB_BUILD or build/)
#
# Each run is null1 -t N -s 1 --warmup 0 --period-ms 100 --timing: one 0.1 s
# sample between the start and the teardown. Columns, in seconds (the median
# of the runs, min..max beside it): start = from before the first task was
# created until every task was pinned and waiting at the start gate and the
# gate opened (open_s); teardown = from SIGKILL until every task was gone.
# Run it alone: it measures the machine as much as the runner.
set -eu

COUNTS="256 1024 4096"
MODES="processes threads"

# timing BIN N: the --timing line's fields as "open_s teardown_s" on stdout
timing() {
	local line
	line=$("$1" -t "$2" -s 1 --warmup 0 --period-ms 100 --stall-timeout 30 --timing 2>&1 >/dev/null |
		grep ': timing: ') || { echo "spawn.sh: $1 -t $2 printed no timing line" >&2; return 1; }
	printf '%s\n' "$line" | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["open_s"] == "" || v["open_s"] == "-" || v["teardown_s"] == "" || v["teardown_s"] == "-") exit 1
		print v["open_s"], v["teardown_s"] }' || { echo "spawn.sh: $1 -t $2: $line" >&2; return 1; }
}

# summary VALUES...: "median (min..max)"
summary() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f (%.3f..%.3f)", m, v[1], v[NR] }'
}

main() {
	local runs=${1:-3} build=${SB_BUILD:-build} m n i t starts teardowns
	cd "$(dirname "$0")/../.."
	for m in $MODES; do
		[ -x "$build/bin/null1_$m" ] || { echo "spawn.sh: $build/bin/null1_$m missing: run make" >&2; exit 3; }
	done
	printf '%-10s %6s  %-26s %-26s\n' mode tasks "start s (median, min..max)" "teardown s"
	for m in $MODES; do
		for n in $COUNTS; do
			starts=() teardowns=()
			for i in $(seq 1 "$runs"); do
				t=$(timing "$build/bin/null1_$m" "$n") || exit 1
				starts+=("${t% *}")
				teardowns+=("${t#* }")
			done
			printf '%-10s %6d  %-26s %-26s\n' "$m" "$n" "$(summary "${starts[@]}")" "$(summary "${teardowns[@]}")"
		done
	done
}

main "$@"
