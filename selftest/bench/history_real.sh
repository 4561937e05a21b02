#!/usr/bin/env bash
# history_real.sh: real sweeps into a history: five alike (A/A), then a real slowdown, and what sb-history says.
# Not part of make check (it sweeps for several minutes; run it on a quiet
# machine). Runs TEST (default lockhook_null, which spins delay_ns in each
# iteration) with its default sweep (SWEEP_ARGS adds options) five times,
# labelled k1..k5 as five kernels, then SLOW times (default 2) with
# --param PARAM (default delay_ns=1100: 10% more work an iteration), labelled
# k6, k7... After the fifth sweep it prints `changes` over the A/A history;
# after each slow sweep, `changes` again (the default --min-segment 2 sees a
# change in the newest sweep only once a second sweep confirms it), and at the
# end the N-way table. Every series runs across params (--any-params): the
# slow sweeps differ from the others by that param on purpose.
set -eu

log() { printf '%s\n' "$*" >&2; }

# sweep LABEL ARG...: one sweep into $DIR (and its history.db); its run directory on stdout
sweep() {
	local label=$1 extra
	shift
	read -ra extra <<<"$SWEEP_ARGS"
	"$ROOT/runtest.sh" "$TEST" ${extra[@]+"${extra[@]}"} --quiet --label "$label" --results "$DIR" "$@"
}

# history CMD ARG...: sb-history on this script's database; its exit status is printed, not fatal
history() {
	local rc=0
	"$ROOT/$BUILD/bin/sb-history" --db "$DIR/history.db" "$@" --any-params || rc=$?
	printf '(exit %d)\n' "$rc"
}

main() {
	ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
	BUILD=${SB_BUILD:-build}
	TEST=${TEST:-lockhook_null} SWEEP_ARGS=${SWEEP_ARGS:-} PARAM=${PARAM:-delay_ns=1100} SLOW=${SLOW:-2}
	make -s -C "$ROOT" BUILD="$BUILD" all >&2
	DIR=$(mktemp -d)
	trap 'rm -rf -- "$DIR"' EXIT
	export SB_MACHINE_LOCK=$DIR/machine.lock	# a lock of its own
	log "load before: $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	local i t0 t1 n
	for i in 1 2 3 4 5; do
		t0=$(date +%s)
		sweep "k$i" >/dev/null
		t1=$(date +%s)
		log "k$i: $((t1 - t0)) s"
	done
	printf '== A/A: five alike sweeps, k1..k5\n'
	history changes "$TEST"
	for n in $(seq 1 "$SLOW"); do
		i=$((5 + n))
		t0=$(date +%s)
		sweep "k$i" --param "$PARAM" >/dev/null
		t1=$(date +%s)
		log "k$i ($PARAM): $((t1 - t0)) s"
		printf '== after k%d (%s)\n' "$i" "$PARAM"
		history changes "$TEST"
	done
	printf '== the table\n'
	history show "$TEST"
	log "load after: $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)"
}

main "$@"
