#!/usr/bin/env bash
# Where --warmup auto ends on a live rate: runner_start.t's settle case N times, quiet and beside K busy loops; the warmup samples each time.
#
# Not run by make check, which asserts only the bounds no timing can move (the window of 3 and the
# cap); where the rule ends on fixed series is warmup_rule.t's. The fixture's rate is paced by the
# clock: a ramp of 1.5 s, then flat, sampled every 500 ms, so an undisturbed run warms up 6 samples
# (the third flat one). A task that runs late lowers one sample and raises the next: the warmup
# then ends later, or (a catch-up that matches the flat rate) one sample sooner.
set -eu

PROG=warmup_live.sh
busy_pids=()

usage() {
	cat <<EOF
usage: selftest/bench/warmup_live.sh [--runs N] [--busy K]
  --runs N   runs of each kind (default 10)
  --busy K   busy loops beside the busy runs (default: the number of CPUs)
Prints each kind's warmup sample counts, sorted, and how many ran to the cap (30).
EOF
}

die() { printf '%s: %s\n' "$PROG" "$2" >&2; exit "$1"; }

cleanup() {
	local p
	for p in "${busy_pids[@]}"; do { kill -KILL "$p" && wait "$p"; } 2>/dev/null || true; done
	busy_pids=()
}

# one BUILD: one run of the settle fixture -> its warmup samples on stdout
one() {
	"$1/selftest/settle_processes" -t 2 --period-ms 500 --warmup-period-ms 500 -s 1 --warmup auto --warmup-min 0 \
		--warmup-max 15 --param settle_ms=1500 --format csv |
		sed 1d | grep -c '^warmup,' || true
}

# series BUILD KIND RUNS: RUNS runs -> "KIND: n n n ... (capped C of RUNS)"
series() {
	local b=$1 kind=$2 runs=$3 i w all='' capped=0
	for ((i = 0; i < runs; i++)); do
		w=$(one "$b")
		all="$all $w"
		[ "$w" -lt 30 ] || capped=$((capped + 1))
	done
	printf '%-5s:%s (capped %d of %d)\n' "$kind" \
		"$(printf '%s\n' $all | sort -n | tr '\n' ' ' | sed 's/ $//; s/^/ /')" "$capped" "$runs"
}

main() {
	local runs=10 busy b i
	busy=$(nproc)
	while [ $# -gt 0 ]; do
		case $1 in
		--runs) [ $# -ge 2 ] || die 2 "--runs needs a number"; runs=$2; shift 2 ;;
		--busy) [ $# -ge 2 ] || die 2 "--busy needs a number"; busy=$2; shift 2 ;;
		-h | --help) usage; exit 0 ;;
		*) die 2 "unknown argument '$1' (try '$PROG --help')" ;;
		esac
	done
	case $runs in '' | *[!0-9]* | 0) die 2 "--runs '$runs': a whole number, at least 1" ;; esac
	case $busy in '' | *[!0-9]*) die 2 "--busy '$busy': a whole number" ;; esac
	cd "$(dirname "$0")/../.."
	b=${SB_BUILD:-build}
	[ -x "$b/selftest/settle_processes" ] || die 3 "no $b/selftest/settle_processes: run make fixtures first"
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	echo "# warmup_live.sh: settle, 2 tasks, ramp 1.5 s, 500 ms samples, cap 30; $runs runs each, busy loops $busy"
	series "$b" quiet "$runs"
	for ((i = 0; i < busy; i++)); do
		sh -c 'while :; do :; done' &
		busy_pids+=("$!")
	done
	series "$b" busy "$runs"
}

main "$@"
