#!/usr/bin/env bash
# One curve value (curve_value.h): a run whose mean at a point is 0 has no curve value in compare, sb-history and sb-bisect; the others keep theirs, and the point is named.
# The fixtures' new sweep (selftest/data/compare) with run 1's samples at processes:4 set to 0 ops/s:
# that run has no processes curve value; runs 2 and 3 keep theirs. A negative mean never reaches a
# curve through a run directory (the samples reader refuses it: asserted here); the unit test
# (verdict_unit.t) gives sb_curve_value negative and non-finite means directly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
R=selftest/data/compare/results/unix1
U=$B/selftest/unit_verdict
C=$B/bin/sb-compare
plan 11

# zero SRC DST 'EXPR': a copy of run directory SRC whose measure samples matching awk EXPR measured 0 ops/s
zero() {
	mkdir -p "$2"
	cp "$1/meta" "$2/meta"
	awk -F, -v OFS=, "\$4 == \"measure\" && ($3) { \$7 = 0; \$8 = \$9 = \$10 = \"0.000000\" } 1" \
		"$1/samples.csv" >"$2/samples.csv"
}

main() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	zero "$R/new-20260102T000000" "$tmp/new0" '$1 == "processes" && $2 == 4 && $3 == 1'

	# compare: the processes curve test on runs 2 and 3 of new, and a Note naming the point
	run "$C" --drift 0 "$R/base-20260101T000000" "$tmp/new0"
	like "$out" '^  processes +3 +3/2 +-3\.15% ' "compare: the curve test uses the runs with a curve value (3 base, 2 new)"
	like "$out" '^Note: the processes curve of new leaves out 1 of its 3 runs: a run.s mean at processes:4 is not positive' \
		"compare: a Note names the point and the runs left out"
	like "$out" '^  threads +3 +3/3 ' "compare: the other mode's curve keeps all its runs"
	run "$C" --drift 0 --format markdown "$R/base-20260101T000000" "$tmp/new0"
	like "$out" '^> \*\*Note:\*\* the processes curve of new leaves out 1 of its 3 runs' "compare: the Note in markdown too"
	sed 's/^\(processes,4,1,measure,[0-9]*,[0-9.]*\),0,0\.000000/\1,-500,-500.000000/' "$tmp/new0/samples.csv" \
		>"$tmp/neg.csv"
	mkdir -p "$tmp/neg" && cp "$tmp/new0/meta" "$tmp/neg/" && mv "$tmp/neg.csv" "$tmp/neg/samples.csv"
	run "$C" --drift 0 "$R/base-20260101T000000" "$tmp/neg"
	like "$rc:$err" "^2:.*ops_per_s '-500\\.000000' is not a non-negative number" \
		"a negative mean never reaches a curve: the samples reader refuses it (exit 2)"

	# sb-history: the curve cell keeps runs 2 and 3; the failed point is named by show and changes
	mkdir -p "$tmp/r/unix1"
	cp -r "$R/base-20260101T000000" "$tmp/r/unix1/"
	cp -r "$tmp/new0" "$tmp/r/unix1/new-20260102T000000"
	"$H" --db "$tmp/h.db" add --partial "$tmp/r/unix1"/* >/dev/null
	run "$H" --db "$tmp/h.db" show unix1
	like "$out" '^processes:curve +1\.82K [^ ]+ \(3 runs\) +1\.76K [^ ]+ \(2 runs\)$' \
		"history show: the curve of the runs with a curve value"
	like "$out" '^processes:4 +3\.00K .* FAILED \(a run measured 0 ops/s\)$' "history show: the point is named FAILED"
	run "$H" --db "$tmp/h.db" changes unix1
	like "$out" '^unix1 processes:4 on box1: FAILED at new' "history changes: the point is named failed"

	# sb-bisect (sb_target_values): the run is a failed measurement, left out and said; never a number
	is "$("$U" target "$tmp/new0" curve:processes | paste -sd'|')" \
		"exit 0 values 2|1754.41|1765.45|say $tmp/new0: 1 of its 3 runs have no curve value (a run's mean at processes:4 is not positive: 0, below 0 or not finite): left out as failed measurements" \
		"bisect: curve:processes of runs 2 and 3 only, the run left out named with its point"
	zero "$tmp/new0" "$tmp/all0" '$1 == "processes" && $2 == 1 && $3 >= 2'
	out=$("$U" target "$tmp/all0" curve:processes) && rc=0 || rc=$?
	like "$rc:$(printf '%s\n' "$out" | paste -sd'|')" '^1:exit 1 values 0\|say .*: 3 of its 3 runs have no curve value \(a run.s mean at processes:1 ' \
		"bisect: no run with a curve value: a failed measurement (exit 1), no number"
	is "$("$U" target "$R/new-20260102T000000" curve:processes | paste -sd'|')" "exit 0 values 3|1743.36|1754.41|1765.45" \
		"bisect: every run positive: three values, no note"
}

main "$@"
