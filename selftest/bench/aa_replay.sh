#!/usr/bin/env bash
# aa_replay.sh: judge again, with this tree's compare, the A/A pairs that aa.sh kept (KEEP=1), each with the history it had then.
#
#   selftest/bench/aa_replay.sh KEPT...
#
# KEPT: a directory aa.sh left with KEEP=1 (TEST/aN-*, TEST/bN-* one default
# sweep each). For pair N = 1, 2, ... the history holds the sweeps of pairs 1
# to N, added in the order they were measured (as runtest.sh added them; the
# compared pair itself is left out by compare), and compare judges bN against
# aN of every testcase. WHOLE=1: every pair with the history of all pairs
# instead (what a later look sees). Prints a line a comparison, then the
# totals: how often the default gate (a regression, one-sided) and --fail-on
# change (either direction) exit 1. Not part of make check: it reads kept
# measurements; a method's change is judged on the same sweeps this way.
set -eu

log() { printf '%s\n' "$*" >&2; }

# pairs DIR: the pair numbers DIR holds, in order -> stdout
pairs() {
	find "$1" -mindepth 2 -maxdepth 2 -type d -name 'a[0-9]*-*' -printf '%f\n' |
		sed 's/^a\([0-9]*\)-.*/\1/' | sort -nu
}

# add DB DIR N: the sweeps of pair N (every testcase, both sides) into DB, oldest first
add() {
	local dirs
	mapfile -t dirs < <(find "$2" -mindepth 2 -maxdepth 2 -type d \( -name "a$3-*" -o -name "b$3-*" \) |
		awk -F/ '{ n = split($NF, p, "-"); print p[n] "\t" $0 }' | sort | cut -f 2-)
	./build/bin/sb-history --db "$1" add -- "${dirs[@]}" >/dev/null
}

# judge DIR DB N: one line a testcase: its pair N's exits under both gates
judge() {
	local t rc1 rc2
	for t in $(find "$1" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort); do
		[ -n "$(find "$1/$t" -maxdepth 1 -name "a$3-*" -print -quit)" ] || continue
		rc1=0 rc2=0
		./compare.sh --history "$2" "$1/$t"/a"$3"-* "$1/$t"/b"$3"-* >/dev/null 2>&1 || rc1=$?
		./compare.sh --history "$2" --fail-on change "$1/$t"/a"$3"-* "$1/$t"/b"$3"-* >/dev/null 2>&1 || rc2=$?
		if [ "$rc1" -gt 1 ] || [ "$rc2" -gt 1 ]; then
			log "aa_replay.sh: compare of $t pair $3 failed (exit $rc1, $rc2)"
			return 1
		fi
		printf '%s pair %s: regression gate %s, change gate %s\n' "$t" "$3" "$rc1" "$rc2"
	done
}

main() {
	local tmp kept n db out=""
	if [ $# = 0 ]; then
		log "usage: aa_replay.sh KEPT..."
		exit 2
	fi
	cd "$(dirname "$0")/../.."
	make -s >/dev/null
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf -- '$tmp'" EXIT
	for kept in "$@"; do
		kept=$(cd "$kept" && pwd)
		db=$tmp/h$RANDOM.db
		if [ -n "${WHOLE:-}" ]; then
			for n in $(pairs "$kept"); do add "$db" "$kept" "$n"; done
		fi
		for n in $(pairs "$kept"); do
			if [ -z "${WHOLE:-}" ]; then add "$db" "$kept" "$n"; fi
			out+=$(judge "$kept" "$db" "$n")$'\n'
		done
	done
	printf '%s' "$out"
	awk '/regression gate/ { n++; r += ($6 == "1,"); c += ($9 == "1") }
		END { printf "comparisons: %d; the gate (a regression) exits 1: %d (%.1f%%); --fail-on change: %d (%.1f%%)\n",
			n, r, n ? 100 * r / n : 0, c, n ? 100 * c / n : 0 }' <<<"$out"
}

main "$@"
