#!/usr/bin/env bash
# plot.py --compare and make plot COMPARE=...: one curve per run and mode, a relative panel, --out, usage errors.
# sb-san: skip: plot.py --compare: Python (its figures: plot_numbers.t)
. "$(dirname "$0")/lib.sh"
if ! command -v gnuplot >/dev/null 2>&1; then echo "1..0 # skip gnuplot not installed"; exit 0; fi
plan 24
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a selftest/data/plot/good "$tmp/results"
R=$tmp/results
P=plot/plot.py
OLD=unix1/6.1.0-old-20260101T100000
NEW0=unix1/6.8.0-lock-20260102T090000

png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }'; }
has() { grep -Eq -- "$2" "$1"; _r=$?; ok $_r "$3"; [ $_r = 0 ] || echo "#   $1 lacks: $2"; }
hasnt() { ! grep -Eq -- "$2" "$1"; _r=$?; ok $_r "$3"; [ $_r = 0 ] || echo "#   $1 has: $2"; }

run "$P" --results "$R" --compare "$OLD" unix1/latest
is "$rc" 0 "--compare two runs (one named through latest)${err:+ ($err)}"
like "$out" "drew .*unix1/compare.png" "it says what it drew"
is "$(png_size "$R/unix1/compare.png")" 1200x800 "compare.png is a 1200x800 PNG in the test's directory"
S=$R/unix1/compare.svg
has "$S" '<text>6.1.0-old \(baseline\)</text>' "the legend names the first run by its label, the baseline"
has "$S" '<text>6.8.0-lock</text>' "and the second run (a run's entry: its dashes and points)"
has "$S" '<text>processes</text>' "a mode's entry: its colour"
has "$S" '<text>threads</text>' "and the other mode's"
has "$S" 'change of each run against 6.1.0-old, shaded: spread of single-run samples \(not a 95% CI\)' \
	"the lower panel is the change against the first run; single runs: its band is no 95% CI"
has "$S" '<text>change vs first run \(%\)</text>' "in %"
has "$S" '<text>\+1000%</text>' "with signed % tics"
has "$S" '6.1.0-old \(baseline\)' "the subtitle names the baseline"

run "$P" --results "$R" --compare "$OLD" "$NEW0" unix1/latest
is "$rc" 0 "three runs, two with the same label"
has "$S" '<text>6.8.0-lock-20260102T090000</text>' "same labels: the runs are named by run id"
is "$(grep -c '<text>6\.[18]\.0-[a-z]*-[0-9T]*\( (baseline)\)\?</text>' "$S")" 3 "one legend entry per run"

run "$P" --results "$R" --compare "$R/$OLD" pipe1/latest --out "$tmp/mixed.png"
is "$rc" 0 "--out FILE.png draws runs of different tests${err:+ ($err)}"
ok $([ -s "$tmp/mixed.png" ] && [ -s "$tmp/mixed.svg" ]; echo $?) "into FILE.png and FILE.svg"
has "$tmp/mixed.svg" '<text>pipe1 6.1.0-old \(failed at 8 tasks\)</text>' "a failed run is marked in the legend, runs of several tests by test and label"

run "$P" --results "$R" --compare "$OLD"
is "$rc" 2 "one run is a usage error"
run "$P" --results "$R" --compare "$OLD" "$R/$OLD"
is "$rc" 2 "the same run twice is a usage error"
run "$P" --results "$R" --compare "$OLD" unix1/nosuchrun
is "$rc:$err" "2:plot.py: unix1/nosuchrun: not a run directory (no meta file), nor a test directory with a latest run" \
	"a run that does not exist is named"
run "$P" --results "$R" --compare "$OLD" pipe1/latest
like "$rc:$err" "^2:.*different tests \(pipe1, unix1\)" "runs of different tests need --out"
run "$P" --results "$R" --compare "$OLD" unix1/latest --out "$tmp/no/such/dir/x.png"
is "$rc" 2 "--out into a missing directory is a usage error"

# make plot COMPARE=... passes the runs on; they live in the temporary tree, so nothing is written in the repo.
rm -f "$R/unix1/compare.png" "$R/unix1/compare.svg"
run make -s plot COMPARE="$R/$OLD $R/$NEW0"
is "$rc" 0 "make plot COMPARE=\"RUN RUN\"${err:+ ($err)}"
has "$R/unix1/compare.svg" '<text>6.8.0-lock</text>' "draws them"
