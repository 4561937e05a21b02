#!/usr/bin/env bash
# two_sweeps.sh: what two sweeps started together do to each other, without the machine lock and with it.
# Not part of make check (it measures the machine for about a minute). Runs
# TEST (default getppid1) at POINTS (default: the cores) in MODE (processes)
# with SWEEP_ARGS (default "--repeat 3"): first one sweep alone (the
# reference), then two at once with --no-lock, then two at once under the
# lock (the second waits). Prints each sweep's mean ops/s at the point, its
# ratio to the reference, and the wall time of each pair.
set -eu

log() { printf '%s\n' "$*" >&2; }

# mean RUNDIR: the point's mean ops/s (sb-summary's run-level figures)
mean() {
	local m
	read -r _ m _ <<<"$("$ROOT/$BUILD/bin/sb-summary" --point "$MODE:$POINTS" --values "$1")"
	printf '%.0f' "$m"
}

sweep() {	# sweep LABEL ARG...: one sweep -> its run directory on stdout
	local label=$1 extra
	shift
	read -ra extra <<<"$SWEEP_ARGS"
	"$ROOT/runtest.sh" "$TEST" --points "$POINTS" --mode "$MODE" "${extra[@]}" --quiet \
		--label "$label" --results "$DIR" "$@"
}

pair() {	# pair NAME ARG...: two sweeps started together -> "NAME a b seconds"
	local name=$1 t0 t1 pa pb
	shift
	t0=$(date +%s.%N)
	sweep "$name-a" "$@" >"$DIR/$name-a.out" &
	pa=$!
	sweep "$name-b" "$@" >"$DIR/$name-b.out" &
	pb=$!
	wait "$pa"
	wait "$pb"
	t1=$(date +%s.%N)
	printf '%s %s %s %s\n' "$name" "$(mean "$(cat "$DIR/$name-a.out")")" \
		"$(mean "$(cat "$DIR/$name-b.out")")" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
}

main() {
	ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
	BUILD=${SB_BUILD:-build}
	TEST=${TEST:-getppid1} MODE=${MODE:-processes} SWEEP_ARGS=${SWEEP_ARGS:---repeat 3}
	make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/bin/sb-summary" "$BUILD/bin/sb-topology" >&2
	POINTS=${POINTS:-$("$ROOT/$BUILD/bin/sb-topology" | sed -n 's/^cores=//p')}
	DIR=$(mktemp -d)
	trap 'rm -rf -- "$DIR"' EXIT
	export SB_MACHINE_LOCK=$DIR/machine.lock	# a lock of its own: nobody else's sweep waits for it
	log "load before: $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	local ref a b s name
	ref=$(mean "$(sweep alone)")
	printf '%-8s %12s %12s %8s %8s %9s\n' pair sweep_a sweep_b a/alone b/alone seconds
	printf '%-8s %12s %12s %8s %8s %9s\n' alone "$ref" - 1.00 - -
	for name in nolock locked; do
		if [ "$name" = nolock ]; then
			read -r _ a b s <<<"$(pair nolock --no-lock)"
		else
			read -r _ a b s <<<"$(pair locked)"
		fi
		printf '%-8s %12s %12s %8s %8s %9s\n' "$name" "$a" "$b" \
			"$(awk -v x="$a" -v r="$ref" 'BEGIN { printf "%.2f", x / r }')" \
			"$(awk -v x="$b" -v r="$ref" 'BEGIN { printf "%.2f", x / r }')" "$s"
	done
	log "load after: $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)"
}

main "$@"
