#!/usr/bin/env bash
# plot.py on good fixture results: PNG and SVG files, titles, peaks, failed runs, index.html, no redraws.
# sb-san: skip: plot.py drawing: Python and gnuplot (its figures: export.t, plot_numbers.t)
. "$(dirname "$0")/lib.sh"
if ! command -v gnuplot >/dev/null 2>&1; then echo "1..0 # skip gnuplot not installed"; exit 0; fi
plan 53
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a selftest/data/plot/good "$tmp/results"
R=$tmp/results
P=plot/plot.py
OLD=$R/unix1/6.1.0-old-20260101T100000
NEW=$R/unix1/6.8.0-lock-20260102T100000
NEW0=$R/unix1/6.8.0-lock-20260102T090000
FAILED=$R/pipe1/6.1.0-old-20260103T100000
THR=$R/futex_threads/6.8.0-lock-20260104T100000

png_sig() { od -An -tx1 -N8 "$1" | tr -d ' \n'; }
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }'; }
# has FILE REGEX NAME / hasnt FILE REGEX NAME: grep the file, name it on failure.
has() { grep -Eq -- "$2" "$1"; _r=$?; ok $_r "$3"; [ $_r = 0 ] || echo "#   $1 lacks: $2"; }
hasnt() { ! grep -Eq -- "$2" "$1"; _r=$?; ok $_r "$3"; [ $_r = 0 ] || echo "#   $1 has: $2"; }
# The state of every file under results: name, size, modification time to the nanosecond.
listing() { find "$R" -type f -printf '%P %s %T@\n' | sort; }

run "$P" --results "$R"
is "$rc" 0 "plot.py draws the good fixtures${err:+ ($err)}"
is "$err" "" "nothing on stderr: the stray file and the directory without meta are skipped quietly"
is "$(printf '%s\n' "$out" | grep -c '^drew ')" 22 "it says it drew 5 runs x 4 files and one comparison x 2"

for d in "$OLD" "$NEW" "$NEW0" "$FAILED" "$THR"; do
	good=0
	for f in scaling per_task; do
		[ "$(png_sig "$d/$f.png")" = 89504e470d0a1a0a ] || good=1
		[ "$(png_size "$d/$f.png")" = 1200x800 ] || good=1
		grep -q 'width="1200" height="800"' "$d/$f.svg" || good=1
	done
	ok $good "$(basename "$d"): scaling and per_task are 1200x800 PNGs and SVGs"
done

has "$OLD/scaling.svg" '<text>processes ops/s</text>' "the processes series is titled"
has "$OLD/scaling.svg" '<text>threads ops/s</text>' "the threads series is titled"
has "$OLD/scaling.svg" '<text>linear: best 1-task ops/s' "the linear reference is titled"
has "$OLD/scaling.svg" '<text>processes idle %</text>' "the idle series are titled"
has "$OLD/scaling.svg" '<text>peak 6 tasks \(no other count within the 95% interval\)</text>' "the processes peak is labelled (no plateau)"
has "$OLD/scaling.svg" '<text>peak 8 tasks \(no other count within the 95% interval\)</text>' "the threads peak is labelled"
has "$OLD/scaling.svg" '<text>AF_UNIX socketpair: write and read one byte</text>' "the title is the testcase description"
has "$OLD/scaling.svg" 'label 6.1.0-old · host bench01 · 2026-01-01T10:00:00Z' "the subtitle has label, host and date"
has "$OLD/scaling.svg" 'Intel\(R\) Xeon\(R\) Gold 6248R' "and the CPU"
has "$OLD/scaling.svg" '<text>5M</text>' "the y axis is in M ops/s"
has "$OLD/scaling.svg" '<text>100%</text>' "the right axis is idle %"
has "$NEW/scaling.svg" '<text>peak 96 tasks \(no other count within the 95% interval\)</text>' "a run still scaling peaks at its last point"
has "$OLD/per_task.svg" 'per_process_ops' "per_task names lkp-tests' per_process_ops"
has "$OLD/per_task.svg" 'per_thread_ops' "and per_thread_ops"
has "$OLD/per_task.svg" '<text>perfect scaling' "per_task has the flat perfect-scaling line"

has "$FAILED/scaling.svg" '<text>pipe: write and read one byte \(failed at 8 tasks\)</text>' "a failed run says so in the title"
has "$FAILED/scaling.svg" '<text>threads failed at 8 tasks</text>' "and marks the point that failed"
has "$THR/scaling.svg" '<text>threads ops/s</text>' "a threads-only run draws threads"
hasnt "$THR/scaling.svg" '<text>processes' "and no processes series"
has "$THR/scaling.svg" 'FUTEX_WAKE &amp; FUTEX_WAIT on a &lt;shared> word' "text from meta is drawn as is (no enhanced-text mangling of _ and &)"

ok $([ "$(png_size "$R/unix1/compare-latest.png")" = 1200x800 ]; echo $?) "two labels of unix1: compare-latest.png is drawn"
has "$R/unix1/compare-latest.svg" '<text>6.1.0-old \(baseline\)</text>' "the older label's run is named by label in the legend"
has "$R/unix1/compare-latest.svg" '<text>6.8.0-lock</text>' "the newer label's run too"
is "$(grep -c '<text>\(6\.[18]\.0-[a-z]*\( (baseline)\)\?\|processes\|threads\)</text>' "$R/unix1/compare-latest.svg")" 4 "one legend entry per run and per mode"
has "$R/unix1/compare-latest.svg" 'change of each run against 6.1.0-old' "the lower panel is the change against the first"
is "$(cat "$R/unix1/compare-latest.runs")" "6.1.0-old-20260101T100000
6.8.0-lock-20260102T100000" "the latest run of each label is drawn"
ok $([ ! -e "$R/pipe1/compare-latest.png" ]; echo $?) "a test with one label gets no comparison"

has "$R/index.html" '<h2 id="t-futex_threads">futex_threads</h2>' "index.html has a section per test"
is "$(grep -o '<tr><td><a href="#r-[^"]*">' "$R/index.html" | wc -l)" 5 "and a row per run"
has "$R/index.html" 'href="unix1/6.1.0-old-20260101T100000/scaling.png"' "with relative links to the plots"
has "$R/index.html" 'rack&lt;7&gt;&amp;b' "text from meta is HTML-escaped"
hasnt "$R/index.html" 'rack<7>|<shared>' "nothing from meta is raw HTML"
has "$R/index.html" 'class="failed">failed<br>\(failed at 8 tasks\)' "a failed run is marked failed"
has "$R/index.html" '<td class="n">4.8M</td>' "the summary table is there"
hasnt "$R/index.html" '<script|https?://|@import' "no JavaScript, nothing from the network"
hasnt "$R/index.html" 'notes.txt|scratch' "stray files are not runs"
missing=0
for link in $(grep -o '\(href\|src\)="[^"#][^"]*"' "$R/index.html" | sed 's/^[a-z]*="//; s/"$//' | sort -u); do
	[ -e "$R/$link" ] || { echo "# missing: $link"; missing=1; }
done
ok $missing "every link in index.html points to a file"

before=$(listing)
run "$P" --results "$R"
is "$rc" 0 "a second run succeeds"
unlike "$out" '^drew|^wrote' "and draws nothing"
is "$(listing)" "$before" "no file under results changed"

touch "$FAILED/summary.csv"
run "$P" --results "$R"
is "$(printf '%s\n' "$out" | grep '^drew ' | grep -vc "pipe1/6.1.0-old-20260103T100000/")" 0 "a newer summary.csv redraws that run only"
is "$(printf '%s\n' "$out" | grep -c '^drew ')" 4 "all four of its files"

cp -a "$OLD" "$R/unix1/6.9.0-rc1-20260106T100000"
sed -i 's/^label=.*/label=6.9.0-rc1/; s/^date=.*/date=2026-01-06T10:00:00Z/' "$R/unix1/6.9.0-rc1-20260106T100000/meta"
run "$P" --results "$R"
like "$out" 'drew .*unix1/compare-latest.png' "a third label redraws the comparison"
is "$(wc -l <"$R/unix1/compare-latest.runs")" 3 "with three runs"

run "$P" --results "$R" --terminal unix1
like "$out" 'peak 96 tasks \(no other count within the 95% interval\), 79.1M ops/s' "--terminal TEST draws its latest run as text"
