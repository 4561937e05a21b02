#!/usr/bin/env bash
# drift_gate.sh: compare's gate against the machine's drift between sweeps (issue 46), a row a drift cell: gatesim.sh's rates for one sweep a side with a 6-sweep history, with nothing known, and for pools of 3 alternated sweeps.
#
#   selftest/bench/drift_gate.sh        (N=200 comparisons a cell; DRIFTS="0 0.5 1 2 5"; COUNTS=8)
#
# Each cell is gatesim.sh's (2% run sd, 3 runs a point, 2 x COUNTS points, the curves gate): aa (every exit 1
# a false alarm; nominal 5%, one-sided: compare's gate exits 1 on a regression only) and broad at
# -5, -8 and -10% (the rate of exit 1 is the power). The drift compare uses is always learned or
# the default, never the true value. Prints one table a configuration. Not part of make check.
set -eu

log() { printf '%s\n' "$*" >&2; }

# cells LABEL ENV...: one line a drift: the aa rate, then broad at -5, -8, -10
cells() {
	local label=$1 d b line r
	shift
	printf '%s\n%-8s %8s %8s %8s %8s\n' "$label" drift aa "-5%" "-8%" "-10%"
	for d in $DRIFTS; do
		line=$(printf '%-8s' "$d%")
		r=$(env "$@" DRIFT="$d" CELLS=aa COUNTS="$COUNTS" N="$N" GATES=curves selftest/bench/gatesim.sh 2>/dev/null |
			awk 'NR > 1 { print $3 }')
		line+=$(printf ' %8s' "$r")
		for b in -5 -8 -10; do
			r=$(env "$@" DRIFT="$d" CELLS=broad BROAD="$b" COUNTS="$COUNTS" N="$N" GATES=curves \
				selftest/bench/gatesim.sh 2>/dev/null | awk 'NR > 1 { print $3 }')
			line+=$(printf ' %8s' "$r")
		done
		printf '%s\n' "$line"
	done
	echo
}

main() {
	cd "$(dirname "$0")/../.."
	N=${N:-200} DRIFTS=${DRIFTS:-0 0.5 1 2 5} COUNTS=${COUNTS:-8}
	log "drift_gate.sh: $N comparisons a cell, $((2 * COUNTS)) points, $(date -u +%FT%TZ), $(uname -n)"
	cells "one sweep a side, drift learned from a history of 6 sweeps of the testbed" HIST=6
	cells "one sweep a side, nothing known (the default drift, 2%)" HIST=0
	cells "3 sweeps a side, alternated, pooled (--vs), nothing else known" SWEEPS=3 ALT=1 HIST=0
}

main "$@"
