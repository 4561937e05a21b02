#!/usr/bin/env bash
# "scalability" is lkp-tests' figure (processes(N) / linear(N) at the last row, linear = N x the better
# mode at 1 task), in every format; scalebench's per-mode ops(N) / (N ops(1)) is "efficiency".
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=selftest/data/compare/results/unix1
# The base fixture with threads twice as fast: processes 1000, 2000, 3000 and threads 2000, 3800, 3600
# at 1, 2, 4 tasks. lkp: linear(4) = 4 * max(1000, 2000) = 8000, scalability = 3000 / 8000 = 0.375;
# efficiency: processes 3000 / (4 * 1000) = 0.750, threads 3600 / (4 * 2000) = 0.450.
mk() {
	mkdir -p "$tmp/$1"
	cp "$R/$2/meta" "$tmp/$1/meta"
	awk -F, -v OFS=, '$1 == "threads" { $7 *= 2; $8 = sprintf("%.6f", $8 * 2); if ($9 != "") $9 = sprintf("%.6f", $9 * 2); if ($10 != "") $10 = sprintf("%.6f", $10 * 2) } { print }' \
		"$R/$2/samples.csv" >"$tmp/$1/samples.csv"
}
mk base base-20260101T000000
mk new new-20260102T000000

run ./compare.sh --fail-on never "$tmp/base" "$tmp/new"
is "$rc" 0 "compared"
like "$out" '^Scalability \(lkp-tests. will-it-scale\.scalability: processes\(N\) / linear\(N\)' "text: a Scalability section named after lkp's figure"
like "$out" '^  base +N 4 +0\.375$' "base: scalability 3000 / (4 x 2000) = 0.375, lkp's formula"
like "$out" '^  base +processes +3000 +4 +4 +4 +3000 +0\.750$' "base processes: efficiency 0.750 (its own 1-task point)"
like "$out" '^  base +threads +3800 +2 +2 +4 +3600 +0\.450$' "base threads: efficiency 0.450"
like "$out" 'efficiency = ops\(N\) / \(N \* ops\(1\)\) of the mode' "the per-mode figure is called efficiency"
unlike "$out" 'scalability = ops\(N\)' "and no longer scalability"
run ./compare.sh --fail-on never --format markdown "$tmp/base" "$tmp/new"
like "$out" '^\| base \| 4 \| 0\.375 \|$' "markdown: the same scalability"

# The same number as lkp's rules give on scalebench's summary.csv (what lkp-tests parses).
run "$B/bin/sb-summary" "$tmp/base/samples.csv"
lkp=$(printf '%s\n' "$out" | cut -d, -f1-6 | awk -F, 'NR > 1 && $1 != 0 && ($2 + 0 || $4 + 0) {
	if ($NF + 0 != 0 && $1 != 1) s = sprintf("%.3f", $2 / $NF) } END { print s }')
is "$lkp" 0.375 "lkp's rules on summary.csv give 0.375 too"
# Only threads measured: lkp would divide 0 processes; scalebench says n/a.
awk -F, '$1 != "processes"' "$tmp/base/samples.csv" >"$tmp/t.csv"
mkdir -p "$tmp/tonly" "$tmp/tonly2"
cp "$tmp/base/meta" "$tmp/tonly/meta"; cp "$tmp/t.csv" "$tmp/tonly/samples.csv"
# (another run id: one sweep on both sides is refused)
sed 's/^run_id=.*/run_id=tonly2-20260109T000000/' "$tmp/base/meta" >"$tmp/tonly2/meta"; cp "$tmp/t.csv" "$tmp/tonly2/samples.csv"
run ./compare.sh --fail-on never "$tmp/tonly" "$tmp/tonly2"
like "$out" '^  [A-Za-z0-9-]+ +N 4 +n/a \(needs processes at N > 1 and a 1-task point\)$' "without processes: n/a, not a number"
plan "$_n"
exit "$_failed"
