#!/usr/bin/env bash
# compare's input checks: sides with other testcase parameters or another run shape (period_ms,
# duration, warmup) are refused unless --force, the parameters are shown; a sweep given twice on one
# side is refused; an ops_per_s whose figures overflow is an input error naming file and line.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=selftest/data/compare/results/unix1
BASE=$R/base-20260101T000000
NEW=$R/new-20260102T000000

# sweep NAME [KEY=VALUE...]: a copy of BASE as $tmp/NAME with its run id and these meta lines set
sweep() {
	local d=$tmp/$1 kv
	shift
	mkdir -p "$d"
	cp "$BASE/samples.csv" "$d/"
	sed "s/^run_id=.*/run_id=${d##*/}/" "$BASE/meta" >"$d/meta"
	for kv in "$@"; do
		sed -i "/^${kv%%=*}=/d" "$d/meta"
		printf '%s\n' "$kv" >>"$d/meta"
	done
}
shape='period_ms=1000 duration=5s warmup=auto'
# shellcheck disable=SC2086
{
	sweep s64a params=size=64 $shape
	sweep s64b params=size=64 $shape
	sweep s64k params=size=65536 $shape
	sweep p100 params=size=64 period_ms=100 duration=5s warmup=auto
	sweep dur10 params=size=64 period_ms=1000 duration=10s warmup=auto
	sweep warm0 params=size=64 period_ms=1000 duration=5s warmup=0
}

# ---- parameters and run shape ----
run ./compare.sh "$tmp/s64a" "$tmp/s64k"
is "$rc" 2 "size=64 against size=65536: refused (exit 2)"
like "$err" "params differ: 'size=64' .*s64a.* and 'size=65536' .*s64k.*--force" "naming both values and --force"
run ./compare.sh "$tmp/s64a" "$tmp/s64b" --vs "$tmp/s64b" "$tmp/s64k"
is "$rc" 2 "--vs: one side pooling size=64 and size=65536 is refused"
like "$err" "params differ" "and says why"
for s in p100:period_ms dur10:duration warm0:warmup; do
	run ./compare.sh "$tmp/s64a" "$tmp/${s%%:*}"
	is "$rc" 2 "another ${s#*:}: refused (exit 2)"
	like "$err" "${s#*:} differ" "naming ${s#*:}"
done
run ./compare.sh --force "$tmp/s64a" "$tmp/s64k"
like "$rc" '^[01]$' "--force compares them anyway"
like "$out" "params size=64" "the header shows base's parameters"
like "$out" "params size=65536" "and new's"
run ./compare.sh "$tmp/s64a" "$tmp/s64b"
is "$rc" 0 "the same parameters and shape compare"
like "$out" "params size=64" "with the parameters in the header"
run ./compare.sh "$BASE" "$NEW"
is "$rc" 1 "runs whose meta predates params= still compare (nothing to check)"

# ---- a sweep given twice on one side ----
run ./compare.sh "$BASE" --vs "$NEW" "$R"
is "$rc" 2 "NEW and its test directory (latest is NEW) on one side: refused"
like "$err" "given twice" "said so"
run ./compare.sh "$BASE" --vs "$NEW" "$NEW/"
is "$rc" 2 "NEW and NEW/: refused"
run ./compare.sh "$BASE" "$BASE" --vs "$NEW"
is "$rc" 2 "BASE BASE on the base side: refused"
like "$err" "base-20260101T000000.* given twice" "naming the sweep"
cp -r "$NEW" "$tmp/newcopy"
run ./compare.sh "$BASE" --vs "$NEW" "$tmp/newcopy"
is "$rc" 2 "a copy of NEW (the same run id) beside NEW: refused"
run ./compare.sh --force "$BASE" --vs "$NEW" "$NEW"
like "$rc" '^[01]$' "--force pools it anyway"

# ---- overflow: finite inputs whose figures are not ----
sweep huge
awk -F, -v OFS=, 'NR == 3 { $8 = "1e308" } { print }' "$BASE/samples.csv" >"$tmp/huge/samples.csv"
run ./compare.sh "$BASE" "$tmp/huge"
is "$rc" 2 "ops_per_s 1e308: an input error (exit 2), not +inf% -nan%"
like "$err" "huge/samples.csv:3: " "naming file and line"
unlike "$out" "inf|nan" "no inf or nan printed"
for f in gab bencher; do
	run ./compare.sh --format "$f" "$BASE" "$tmp/huge"
	is "$rc:$out" "2:" "--format $f: exit 2, no JSON with inf or nan"
done
run "$B/bin/sb-summary" "$tmp/huge/samples.csv"
is "$rc" 2 "sb-summary: the same input error"
like "$err" "huge/samples.csv:3: " "naming file and line"
plan "$_n"
exit "$_failed"
