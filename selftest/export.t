#!/usr/bin/env bash
# sb-summary --format gab / bencher (and compare.sh's, of a comparison): a run as github-action-benchmark's customBiggerIsBetter list and as
# Bencher's metric format, one entry per point (test, mode, tasks), the run-level mean and its interval.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$B/bin/sb-summary
run_dir=selftest/data/plot/good/unix1/6.8.0-lock-20260102T100000
# points: mode,tasks,mean,ci of summary.csv, one a line
points=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 != 0 {
	for (m = 0; m < 2; m++) { md = m ? "threads" : "processes"
		if ($(c[md]) != "") print md "," $1 "," $(c[md]) "," $(c[md "_ci"]) } }' "$run_dir/summary.csv")
npoints=$(printf '%s\n' "$points" | grep -c .)

run "$S" --format gab "$run_dir"
is "$rc" 0 "--format gab exits 0${err:+: $err}"
printf '%s\n' "$out" >"$tmp/gab.json"
python3 -m json.tool "$tmp/gab.json" >/dev/null 2>&1
ok $? "--format gab is valid JSON (python3 -m json.tool)"
if command -v jq >/dev/null; then
	is "$(jq -r 'type' "$tmp/gab.json")" array "a list, as customBiggerIsBetter reads"
	is "$(jq -r 'length' "$tmp/gab.json")" "$npoints" "one entry per point of summary.csv ($npoints)"
	is "$(jq -r '[.[] | select((.name | type) == "string" and .unit == "ops/s" and (.value | type) == "number" and (.range | type) == "string" and (.extra | type) == "string")] | length' "$tmp/gab.json")" \
		"$npoints" "every entry has name, unit, value (a number), range and extra (strings)"
	is "$(jq -r '[.[].name] | unique | length' "$tmp/gab.json")" "$npoints" "the names are unique"
	is "$(jq -r '.[] | select(.name == "unix1 processes, 2 tasks") | "\(.value) \(.range)"' "$tmp/gab.json")" \
		"$(printf '%s\n' "$points" | awk -F, '$1 == "processes" && $2 == 2 { printf "%.15g ± %.6g\n", $3, $4 }')" \
		"processes at 2 tasks: value the mean, range its interval, from summary.csv"
else
	skip "no jq: the shape of the list is not checked"
fi

run "$S" --format bencher "$run_dir"
is "$rc" 0 "--format bencher exits 0${err:+: $err}"
printf '%s\n' "$out" >"$tmp/bmf.json"
python3 -m json.tool "$tmp/bmf.json" >/dev/null 2>&1
ok $? "--format bencher is valid JSON"
if command -v jq >/dev/null; then
	is "$(jq -r 'type' "$tmp/bmf.json")" object "an object of benchmarks (Bencher's metric format)"
	is "$(jq -r 'keys | length' "$tmp/bmf.json")" "$npoints" "one benchmark per point"
	is "$(jq -r '[to_entries[] | select(.value.throughput.lower_value <= .value.throughput.value and .value.throughput.value <= .value.throughput.upper_value)] | length' "$tmp/bmf.json")" \
		"$npoints" "every one has a throughput value inside [lower_value, upper_value]"
	is "$(jq -r '."unix1/threads/1".throughput.value' "$tmp/bmf.json")" \
		"$(printf '%s\n' "$points" | awk -F, '$1 == "threads" && $2 == 1 { printf "%.15g\n", $3 }')" "threads at 1 task: the mean"
else
	skip "no jq: the shape of the object is not checked"
fi

# A single run has no interval: no range, no bounds, never a made-up one.
mkdir -p "$tmp/one"
cp "$run_dir/meta" "$tmp/one/meta"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $(c["processes_ci"]) = ""; $(c["threads_ci"]) = ""; $(c["processes_n"]) = $1 ? 1 : ""; $(c["threads_n"]) = $1 ? 1 : ""; print }' \
	"$run_dir/summary.csv" >"$tmp/one/summary.csv"
run "$S" --format gab "$tmp/one"
is "$rc" 0 "a run without intervals exports"
unlike "$out" '"range"' "and has no range"
run "$S" --format gab "$tmp/nonexistent"
is "$rc" 2 "a missing run directory is an input error (exit 2)"
run "$S" --format gab --table "$run_dir"
is "$rc" 2 "--format gab with --table is a usage error"

# A comparison (compare.sh --format gab / bencher): the change of every point in % of base, the
# range its interval, as compare's csv has them. Fixtures: "new" is "base" with processes at
# 2 tasks 10% slower (selftest/data/compare/make_fixtures.py).
R=selftest/data/compare/results/unix1
CB=$R/base-20260101T000000 CN=$R/new-20260102T000000
./compare.sh --format csv --fail-on never "$CB" "$CN" >"$tmp/cmp.csv" 2>/dev/null
cmp_at() { awk -F, -v m="$1" -v t="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["mode"]) == m && $(c["tasks"]) == t { printf "%.15g ± %.6g\n", $(c["change_pct"]), $(c["change_pm_pct"]) }' "$tmp/cmp.csv"; }
run ./compare.sh --format gab "$CB" "$CN"
is "$rc" 1 "compare --format gab keeps the gate's exit code (the planted regression: 1)"
printf '%s\n' "$out" >"$tmp/cgab.json"
python3 -m json.tool "$tmp/cgab.json" >/dev/null 2>&1
ok $? "compare --format gab is valid JSON"
if command -v jq >/dev/null; then
	is "$(jq -r 'length' "$tmp/cgab.json")" 6 "one entry per point both runs have (6)"
	is "$(jq -r '[.[] | select(.unit == "%" and (.value | type) == "number" and (.range | type) == "string" and (.extra | type) == "string")] | length' "$tmp/cgab.json")" \
		6 "every entry: unit %, a number, a range and an extra"
	is "$(jq -r '.[] | select(.name == "unix1 processes, 2 tasks: change") | "\(.value) \(.range)"' "$tmp/cgab.json")" \
		"$(cmp_at processes 2)" "processes at 2 tasks: the change and its interval, as compare's csv"
	like "$(jq -r '.[] | select(.name == "unix1 processes, 2 tasks: change") | .extra' "$tmp/cgab.json")" \
		'^new against base: slower; runs 3/3; range: 95% confidence interval' "extra: the sides, the verdict, the runs"
else
	skip "no jq: the comparison list is not checked"
fi
run ./compare.sh --format bencher --fail-on never "$CB" "$CN"
is "$rc" 0 "compare --format bencher with --fail-on never exits 0"
printf '%s\n' "$out" >"$tmp/cbmf.json"
if command -v jq >/dev/null; then
	is "$(jq -r '."unix1/processes/2".change_pct | "\(.value) \(.lower_value < .value and .value < .upper_value)"' "$tmp/cbmf.json")" \
		"$(cmp_at processes 2 | cut -d ' ' -f 1) true" "bencher: change_pct with its bounds around it"
	is "$(jq -r 'keys | length' "$tmp/cbmf.json")" 6 "bencher: one benchmark per point"
else
	skip "no jq: the comparison object is not checked"
fi
run ./compare.sh --format gab --point processes:2 "$CB" "$CN"
is "$rc" 2 "--point has no JSON form (exit 2)"
run ./compare.sh --format json "$CB" "$CN"
is "$rc" 2 "an unknown --format is a usage error"
plan "$_n"
exit "$_failed"
