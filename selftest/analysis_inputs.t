#!/usr/bin/env bash
# analysis_inputs.t: bad inputs the analysis tools refuse with one line and exit 2 (issue 31 items 4 and 8,
# hex numbers, a NUL byte, an empty --history, sb-summary's usage errors, a FIFO or device as
# ministat's file): the same sweep on both sides of --vs, a summary.csv value above 1e15, hex in options and files.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s BUILD="$B" "$B/bin/sb-compare" "$B/bin/sb-summary" >"$tmp/make.log" 2>&1 ||
	{ echo "Bail out! make failed: $(tail -n 3 "$tmp/make.log" | tr '\n' ' ')"; exit 1; }
R=selftest/data/compare/results/unix1
BASE=$R/base-20260101T000000
NEW=$R/new-20260102T000000
C=$B/bin/sb-compare
S=$B/bin/sb-summary

one_line() { [ -n "$1" ] && [ "$(printf '%s\n' "$1" | wc -l)" = 1 ]; }

# ---- item 4: the same sweep on both sides of --vs ----
run "$C" "$BASE" "$NEW" --vs "$NEW" "$R/wide-20260105T000000"
is "$rc" 2 "--vs: a sweep on both sides is refused (exit 2)"
like "$err" "on both sides" "... saying it is on both sides"
one_line "$err"
ok $? "... in one line"
mkdir "$tmp/copy"
cp "$NEW/samples.csv" "$NEW/meta" "$tmp/copy/"
run "$C" "$BASE" "$NEW" --vs "$tmp/copy"
is "$rc" 2 "--vs: a copy with the same run id on the other side is refused (exit 2)"
like "$err" "the same sweep" "... naming it the same sweep"
run "$C" --force "$NEW" --vs "$tmp/copy"
is "$rc" 2 "... --force does not compare a sweep with itself"
run "$C" "$BASE" --vs "$NEW"
is "$rc" 1 "two different sweeps still compare (the fixture's regression: exit 1)"

# ---- item 8: summary.csv values above 1e15 ----
mkdir "$tmp/huge"
cp "$BASE/meta" "$tmp/huge/"
"$S" -o "$tmp/huge/summary.csv" "$BASE/samples.csv"
sed -i '3s/^\([0-9]*\),[0-9.]*,/\1,1e300,/' "$tmp/huge/summary.csv"
run "$S" --format gab "$tmp/huge"
is "$rc" 2 "summary.csv: a mean of 1e300 is refused (exit 2)"
like "$err" "summary.csv:3: processes '1e300' is out of range" "... naming file, line, column and value"
one_line "$err"
ok $? "... in one line"
is "$out" "" "... and nothing is written"
sed -i '3s/^\([0-9]*\),1e300,/\1,1000000000000000,/' "$tmp/huge/summary.csv"
run "$S" --format plot "$tmp/huge"
is "$rc" 0 "1e15 itself is accepted"

# ---- hex numbers: strtod reads 0x10 as 16 ----
for opt in "--threshold 0x10" "--threshold 0X1p3" "-c 0x5f" "--threshold inf" "--threshold nan"; do
	# shellcheck disable=SC2086
	run "$C" $opt "$BASE" "$NEW"
	is "$rc" 2 "$opt: refused (exit 2)"
done
like "$err" "nan" "... naming the value"
run "$C" --threshold 1.5e0 "$BASE" "$NEW"
is "$rc" 1 "a decimal with an exponent is still a number (the comparison runs: exit 1)"
mkdir "$tmp/hex"
cp "$NEW/meta" "$tmp/hex/"
awk -F, -v OFS=, 'NR == 3 { $8 = "0x10" } { print }' "$NEW/samples.csv" >"$tmp/hex/samples.csv"
run "$S" "$tmp/hex/samples.csv"
is "$rc" 2 "samples.csv: ops_per_s 0x10 is refused (exit 2)"
like "$err" "samples.csv:3: ops_per_s '0x10'" "... naming file, line and value"

# ---- a NUL byte: a field ended at it ("903\0026.4" was read as 903), meta's lines after it were lost ----
mkdir "$tmp/nul" "$tmp/nulmeta"
cp "$NEW/meta" "$tmp/nul/"
awk -F, -v OFS=, 'NR == 3 { $8 = substr($8, 1, 3) "@" substr($8, 4) } { print }' "$NEW/samples.csv" |
	tr '@' '\000' >"$tmp/nul/samples.csv"
run "$C" "$BASE" "$tmp/nul"
is "$rc" 2 "samples.csv: a NUL byte inside a number is refused (exit 2)"
like "$err" "nul/samples.csv:3: a NUL byte" "... naming the file and line"
one_line "$err"
ok $? "... in one line"
is "$out" "" "... and nothing is compared"
cp "$NEW/samples.csv" "$tmp/nulmeta/"
awk 'NR == 2 { print "x=@" } { print }' "$NEW/meta" | tr '@' '\000' >"$tmp/nulmeta/meta"
run "$C" "$BASE" "$tmp/nulmeta"
is "$rc" 2 "meta: a NUL byte is refused (exit 2)"
like "$err" "nulmeta/meta:2: a NUL byte" "... naming the file and line"
printf '1\n2\n3@4\n5\n' | tr '@' '\000' >"$tmp/nul.txt"
printf '1\n2\n3\n' >"$tmp/ok.txt"
run "$C" -n "$tmp/nul.txt" "$tmp/ok.txt"
is "$rc" 2 "ministat's files: a NUL byte is refused (exit 2)"
like "$err" "nul.txt:3: a NUL byte" "... naming the file and line"

# ---- --history '': said under the report as "no history at  (" with the default drift, exit 0 ----
run "$C" --history '' "$BASE" "$NEW"
is "$rc" 2 "--history '': refused (exit 2)"
like "$err" "--history: empty file name" "... named"
is "$out" "" "... and nothing is compared"

# ---- sb-summary's usage errors: one line (its whole usage, 35 lines, came first) ----
for a in --nope "--gate -1 --format kcidb $NEW" "--values $NEW"; do
	# shellcheck disable=SC2086
	run "$S" $a
	is "$rc:$(printf '%s\n' "$err" | wc -l | tr -d ' ')" "2:1" "sb-summary $a: exit 2, one line"
done
like "$err" "^sb-summary: --values goes with --point \(try 'sb-summary --help'\)$" "... naming the problem"

# ---- ministat's files: a FIFO without a writer waited for one for good, /dev/zero filled memory ----
mkfifo "$tmp/fifo"
run timeout 10 "$C" -n "$tmp/fifo" "$tmp/ok.txt"
is "$rc:$err" "2:compare: $tmp/fifo: no values; a data set needs at least 3" "a FIFO without a writer: exit 2 at once, named"
run timeout 10 "$C" -n /dev/zero "$tmp/ok.txt"
is "$rc:$err" "2:compare: cannot open /dev/zero: a device or socket, not a file or a pipe ('-' reads standard input)" \
	"a device: exit 2, named"
run "$C" -n <(cat "$tmp/ok.txt") "$tmp/ok.txt"
is "$rc" 0 "a pipe (<(cmd)) is still read"

plan "$_n"
exit "$_failed"
