#!/usr/bin/env bash
# plot/flame.py: a flame graph SVG from folded stacks (widths from the counts); make plot draws one per profiled point and index.html links it.
# sb-san: skip: plot/flame.py: Python
. "$(dirname "$0")/lib.sh"
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=selftest/data/profile

run python3 plot/flame.py "$D/base.folded" -o "$tmp/f.svg" --title "base"
is "$rc" 0 "flame.py draws the fixture${err:+ ($err)}"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/f.svg"
ok $? "the SVG is well-formed XML"
# 1200 px wide, 10 px margins: 1180 px for 100 samples
grep -q '<title>anon_pipe_write_\[k\] (60 samples, 60.00%)</title><rect x="[0-9.]*" y="[0-9]*" width="708.00"' "$tmp/f.svg"
ok $? "a frame's width is its share of the samples (60 of 100: 708 of 1180 px)"
grep -q '<title>all (100 samples, 100.00%)</title><rect x="10.00" y="[0-9]*" width="1180.00"' "$tmp/f.svg"
ok $? "the root spans the drawing"
grep -q '<title>_raw_spin_lock_\[k\] (10 samples, 10.00%)</title>' "$tmp/f.svg"
ok $? "the deepest frame is drawn"
grep -q '>base</text>' "$tmp/f.svg"
ok $? "the title"
[ -z "$(find "$tmp" -name '.*')" ]
ok $? "no temporary file left"

printf 'a;b 3\nnot a count\n' >"$tmp/bad.folded"
run python3 plot/flame.py "$tmp/bad.folded" -o "$tmp/bad.svg"
is "$rc" 2 "a malformed line: exit 2"
is "$err" "flame.py: $tmp/bad.folded:2: not 'frame;frame;... COUNT'" "... naming file and line"
[ ! -e "$tmp/bad.svg" ]
ok $? "... and no SVG"

if ! command -v gnuplot >/dev/null 2>&1; then
	skip "gnuplot not installed (make plot)"; skip "gnuplot"; skip "gnuplot"
else
	mkdir "$tmp/results"
	cp -a "$D/results/pipe1" "$tmp/results/"
	cp "$D/base.folded" "$tmp/results/pipe1/base-20260101T000000/profile/processes-2/folded.txt"
	run python3 plot/plot.py --results "$tmp/results"
	is "$rc" 0 "make plot's plot.py with profiled runs${err:+ ($err)}"
	[ -s "$tmp/results/pipe1/base-20260101T000000/profile/processes-2/flame.svg" ]
	ok $? "a flame graph for the profiled point with folded stacks"
	grep -q 'Flame graphs.*href="pipe1/base-20260101T000000/profile/processes-2/flame.svg"' "$tmp/results/index.html"
	ok $? "index.html links it"
fi
