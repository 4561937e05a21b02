#!/usr/bin/env bash
# fires.sh: does the gate fire on a real slowdown, measured as the history advises? Issue 46's power check on real sweeps.
#
#   selftest/bench/fires.sh
#
# TEST (default lockhook_null) at POINTS (1,2), BASE (delay_ns=1000) against
# SLOW (delay_ns=1250: 25% more time an iteration, about 20% fewer ops/s). First
# `runtest.sh --calibrate TEST --sweeps CAL` (4) of BASE into a fresh history,
# then `sb-history drift TEST --target TARGET` (20) says how many sweeps of how
# many runs a side that change needs; COMPARISONS (5) times, that many sweeps a
# side are measured alternated (a b a b ...) and `compare.sh A... --vs B...`
# judges them with the history (--force: the params differ on purpose). Prints each comparison's exit code (1: the
# gate fired, as it should), its curves and the detectable change the Verdict
# prints, then the count. KEEP=1 keeps the runs. Not part of make check: it
# takes minutes and measures this machine.
set -eu

log() { printf '%s\n' "$*" >&2; }

load() { cut -d ' ' -f 1-3 /proc/loadavg; }

# advice DB: "K R" (sweeps a side, runs a sweep) from sb-history drift's line for TARGET -> stdout
advice() {
	./build/bin/sb-history --db "$1" drift "$TEST" --target "$TARGET" | tee /dev/stderr |
		sed -n 's/.*needs \([0-9][0-9]*\) sweeps\{0,1\} of \([0-9][0-9]*\) runs\{0,1\} a side.*/\1 \2/p' | head -n 1
}

# sweep LABEL PARAM RUNS: one sweep into $tmp/r (and the history)
sweep() {
	./runtest.sh "$TEST" --points "$POINTS" --param "$2" --repeat "$3" --label "$1" \
		--results "$tmp/r" --quiet >/dev/null
}

main() {
	local tmp db kr k r c i rc fired=0 out
	cd "$(dirname "$0")/../.."
	TEST=${TEST:-lockhook_null} POINTS=${POINTS:-1,2} BASE=${BASE:-delay_ns=1000} SLOW=${SLOW:-delay_ns=1250}
	TARGET=${TARGET:-20} CAL=${CAL:-4} COMPARISONS=${COMPARISONS:-5}
	make -s >/dev/null
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	db=$tmp/r/history.db
	log "fires.sh: $TEST $BASE against $SLOW at $POINTS; load $(load); $(date -u +%FT%TZ)"
	./runtest.sh --calibrate "$TEST" --sweeps "$CAL" --points "$POINTS" --param "$BASE" \
		--results "$tmp/r" --quiet >/dev/null
	kr=$(advice "$db")
	[ -n "$kr" ] || { log "fires.sh: sb-history drift gave no advice for --target $TARGET"; exit 1; }
	read -r k r <<<"$kr"
	k=$((k < 2 ? 2 : k))
	log "fires.sh: the history advises $k sweeps of $r runs a side for $TARGET%"
	for ((c = 1; c <= COMPARISONS; c++)); do
		for ((i = 1; i <= k; i++)); do
			sweep "a$c" "$BASE" "$r"
			sweep "b$c" "$SLOW" "$r"
		done
		rc=0
		out=$(./compare.sh --force --history "$db" "$tmp/r/$TEST"/a"$c"-* --vs "$tmp/r/$TEST"/b"$c"-* 2>&1) || rc=$?
		if [ "$rc" -gt 1 ]; then
			printf '%s\n' "$out" >&2
			log "fires.sh: compare $c failed (exit $rc)"
			exit 1
		fi
		[ "$rc" = 0 ] || fired=$((fired + 1))
		printf 'comparison %d: exit %d; %s\n' "$c" "$rc" "$(grep -E '^Verdict|Detectable' <<<"$out" |
			sed 's/^ *//' | tr '\n' ' ')"
		grep '^Note: machine drift' <<<"$out" | head -n 1
	done
	printf 'the gate fired in %d of %d comparisons (%d sweeps of %d runs a side); load %s; %s\n' \
		"$fired" "$COMPARISONS" "$k" "$r" "$(load)" "$(date -u +%FT%TZ)"
}

main "$@"
