#!/usr/bin/env bash
# precision.sh: per testcase and task count, the wall time to reach +-3%, +-2% (the default target) and +-1% (95% interval across runs) and the precision reached in 11 s.
# Not part of make check (it takes minutes and measures the machine). For each
# testcase and task count, one sweep of RUNS runs of the default shape
# (./runtest.sh --repeat RUNS --points N --mode MODE); the precision after the
# first k runs is sb-summary's HALF_PCT of a copy holding runs 1..k only ("+-% at
# all": of all RUNS runs, the same n on every row, so it compares how well the
# runs of two builds agree where "to +-2%" depends on the order they came in); a
# run's wall time is the sweep's wall time, less runtest.sh's own start
# (a --dry-run's), divided by RUNS. "-" : not reached in RUNS runs.
# TESTS (default "getppid1 pipe1 page_fault1"), POINTS ("1 2"), MODE
# (processes), RUNS (15), SWEEP_ARGS (more runtest.sh options), KEEP=1.
set -eu

log() { printf '%s\n' "$*" >&2; }

now_ms() { printf '%d' $(($(date +%s%N) / 1000000)); }

# prefix_half RUNDIR K WORK: the HALF_PCT of runs 1..K of RUNDIR's only point
prefix_half() {
	mkdir -p "$3"
	awk -F, -v k="$2" 'NR == 1 || $3 <= k' "$1/samples.csv" >"$3/samples.csv"
	"$sb_summary" --point "$point" --values "$3" | cut -d ' ' -f 3
}

# first_within RUNDIR RUNS TARGET WORK: the first k >= 3 whose half is <= TARGET, or "-"
first_within() {
	local k h
	for ((k = 3; k <= $2; k++)); do
		h=$(prefix_half "$1" "$k" "$4")
		if [ "$h" != - ] && awk -v h="$h" -v t="$3" 'BEGIN { exit !(h + 0 <= t) }'; then
			printf '%d' "$k"
			return
		fi
	done
	printf -- -
}

# to_target K PER_MS RUNS: "4.4 s (3)", K runs of PER_MS, or "> RUNS runs" when K is "-"
to_target() {
	if [ "$1" = - ]; then
		printf '> %s runs' "$3"
	else
		awk -v k="$1" -v p="$2" 'BEGIN { printf "%.1f s (%d)", k * p / 1000, k }'
	fi
}

main() {
	local tests points mode runs extra=() tmp t n t0 t1 start per k3 k2 k1 k11 h11 hall run
	cd "$(dirname "$0")/../.."
	read -ra tests <<<"${TESTS:-getppid1 pipe1 page_fault1}"
	read -ra points <<<"${POINTS:-1 2}"
	mode=${MODE:-processes} runs=${RUNS:-15}
	read -ra extra <<<"${SWEEP_ARGS:-}"
	sb_summary=$PWD/${SB_BUILD:-build}/bin/sb-summary
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	make -s >/dev/null
	log "precision.sh: ${tests[*]} at ${points[*]} tasks, $mode, $runs runs each; load $(cut -d ' ' -f 1-3 /proc/loadavg); $(date -u +%FT%TZ)"
	printf '%-12s %5s %8s %10s %10s %10s %14s %6s %9s\n' test tasks "s/run" "to +-3%" "to +-2%" "to +-1%" "+-% in 11 s" "runs" \
		"+-% at all"
	for t in "${tests[@]}"; do
		for n in "${points[@]}"; do
			point=$mode:$n
			t0=$(now_ms)
			./runtest.sh "$t" --points "$n" --mode "$mode" --dry-run "${extra[@]}" >/dev/null
			t1=$(now_ms)
			start=$((t1 - t0))
			t0=$(now_ms)
			run=$(./runtest.sh "$t" --points "$n" --mode "$mode" --repeat "$runs" --results "$tmp" --label "p$n" \
				--quiet "${extra[@]}")
			t1=$(now_ms)
			per=$(((t1 - t0 - start) / runs))
			k3=$(first_within "$run" "$runs" 3 "$tmp/work")
			k2=$(first_within "$run" "$runs" 2 "$tmp/work")
			k1=$(first_within "$run" "$runs" 1 "$tmp/work")
			k11=$((11000 / per))
			if [ "$k11" -gt "$runs" ]; then k11=$runs; fi
			h11=-
			if [ "$k11" -ge 2 ]; then h11=$(prefix_half "$run" "$k11" "$tmp/work"); fi
			hall=$(prefix_half "$run" "$runs" "$tmp/work")
			printf '%-12s %5s %8.2f %10s %10s %10s %14s %6s %9s\n' "$t" "$n" "$(awk -v p="$per" 'BEGIN { print p / 1000 }')" \
				"$(to_target "$k3" "$per" "$runs")" "$(to_target "$k2" "$per" "$runs")" "$(to_target "$k1" "$per" "$runs")" \
				"$h11 ($k11 runs)" "$runs" "$hall"
		done
	done
	log "precision.sh: done; load $(cut -d ' ' -f 1-3 /proc/loadavg); $(date -u +%FT%TZ)"
}

main "$@"
