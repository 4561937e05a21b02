#!/usr/bin/env bash
# plot.py's failures: no gnuplot, no results, truncated or malformed CSVs, runs without points, interrupts.
# sb-san: skip: plot.py's failures: Python
. "$(dirname "$0")/lib.sh"
if ! command -v gnuplot >/dev/null 2>&1; then echo "1..0 # skip gnuplot not installed"; exit 0; fi
plan 28
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=plot/plot.py
GOOD=selftest/data/plot/good
fresh() { rm -rf "$tmp/r"; cp -a "$1" "$tmp/r"; }
leftovers() { find "$tmp/r" -name '.*.tmp*' | wc -l; }

# gnuplot hidden from PATH: exit 3, one line naming the packages, nothing written.
mkdir "$tmp/bin"
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/bin/python3"
fresh "$GOOD"
run env PATH="$tmp/bin" "$P" --results "$tmp/r"
is "$rc" 3 "no gnuplot in PATH: exit 3"
is "$err" "plot.py: gnuplot not found in PATH: install gnuplot-nox (Debian/Ubuntu) or gnuplot (Fedora, FreeBSD)" \
	"one line naming the package"
is "$(find "$tmp/r" -name '*.png' -o -name index.html | wc -l)" 0 "and nothing is written"
run env PATH="$tmp/bin" "$P" --results "$tmp/r" --terminal pipe1
is "$rc" 3 "--terminal without gnuplot: exit 3 too"
run env GNUPLOT=/bin/false "$P" --results "$tmp/r"
like "$rc:$err" "^3:plot.py: /bin/false lacks the pngcairo or svg terminal: install gnuplot-nox" \
	"a gnuplot that cannot draw PNG: exit 3"

# No results.
mkdir "$tmp/empty"
run "$P" --results "$tmp/empty"
is "$rc:$out" "0:plot.py: no results in $tmp/empty/: run ./runtest.sh first" "an empty results directory: says so, exit 0"
run "$P" --results "$tmp/nonexistent"
is "$rc:$err" "2:plot.py: --results $tmp/nonexistent: no such directory" "a missing results directory: exit 2, one line"
ok $([ ! -e "$tmp/empty/index.html" ]; echo $?) "no index.html without results"

# The bad fixtures: a summary.csv cut mid-line, a samples.csv with a non-number.
fresh selftest/data/plot/bad
run "$P" --results "$tmp/r"
is "$rc" 2 "malformed results: exit 2 at the end"
like "$err" "unix1/trunc-20260105T110000/summary.csv:5: last line has no newline: the file is truncated" \
	"a truncated summary.csv is named with its line"
like "$err" "pipe1/garbled-20260105T120000/samples.csv:9: ops_per_s '12x4' is not a non-negative number" \
	"a malformed samples.csv is named with its line"
ok $([ -s "$tmp/r/unix1/good-20260105T100000/scaling.png" ]; echo $?) "the good run is still drawn"
ok $([ ! -e "$tmp/r/unix1/trunc-20260105T110000/scaling.png" ]; echo $?) "the bad ones are skipped"
grep -q 'class="unreadable">unreadable<br>.*summary.csv:5:' "$tmp/r/index.html"
ok $? "index.html lists the truncated run as unreadable, with file and line"
run "$P" --results "$tmp/r" --terminal unix1/trunc-20260105T110000
like "$rc:$err" "^2:.*summary.csv:5: " "--terminal on a truncated run: exit 2, file and line"

# Damage made here: a short row, a bad number, a wrong header, a bad meta line.
S=$tmp/r/unix1/good-20260105T100000/summary.csv
cp "$S" "$tmp/summary.csv"
sed -i '4s/,[^,]*$//' "$S"
run "$P" --results "$tmp/r" --terminal unix1/good-20260105T100000
like "$rc:$err" "^2:.*summary.csv:4: 16 fields, the header has 17" "a row with a field missing is named"
cp "$tmp/summary.csv" "$S"; sed -i '3s/^1,[0-9.]*,/1,1.2.3,/' "$S"
run "$P" --results "$tmp/r" --terminal unix1/good-20260105T100000
like "$rc:$err" "^2:.*summary.csv:3: processes '1.2.3' is not a non-negative number" "a malformed number is named"
cp "$tmp/summary.csv" "$S"; sed -i '1s/^tasks,processes/tasks,procs/' "$S"
run "$P" --results "$tmp/r" --terminal unix1/good-20260105T100000
like "$rc:$err" "^2:.*summary.csv:1: header does not start with tasks,processes," "a wrong header is named"
cp "$tmp/summary.csv" "$S"; echo "this line has no equals sign" >>"$tmp/r/unix1/good-20260105T100000/meta"
run "$P" --results "$tmp/r" --terminal unix1/good-20260105T100000
like "$rc:$err" "^2:.*meta:[0-9]+: expected key=value" "a bad meta line is named"
is "$(leftovers)" 0 "no temporary file is left"

# A failed run that completed no point: reported, not an error.
fresh "$GOOD"
mkdir "$tmp/r/pipe1/6.1.0-old-20260107T100000"
printf 'test=pipe1\nlabel=6.1.0-old\nstatus=failed\nfailed_mode=processes\nfailed_tasks=1\nerror=task 0 could not start\n' \
	>"$tmp/r/pipe1/6.1.0-old-20260107T100000/meta"
run "$P" --results "$tmp/r" -q
is "$rc" 0 "a failed run without summary.csv is not an input error"
like "$err" "pipe1/6.1.0-old-20260107T100000: no summary.csv, nothing to draw \(status failed\)" "it is reported"
grep -q 'class="failed">failed<br>(failed at 1 task) task 0 could not start' "$tmp/r/index.html"
ok $? "index.html shows it failed and why"

# Usage errors.
run "$P" --no-such-option
is "$rc" 2 "an unknown option: exit 2"
run "$P" --logx --linx
is "$rc" 2 "--logx with --linx: exit 2"
run "$P" --out x.png
is "$rc" 2 "--out without --compare: exit 2"

# Stopped while gnuplot draws: exit 130, the half-written files are removed. (SIGTERM: a
# background job of a script starts with SIGINT ignored, and Python keeps it ignored.)
cat >"$tmp/bin/gnuplot" <<FAKE
#!/bin/sh
# Answers plot.py's probe like gnuplot, then starts a drawing and hangs in it.
[ "\$1" = -e ] && exec "$(command -v gnuplot)" "\$@"
for f in \$(sed -n 's/^out_[a-z_]* = "\\(.*\\)"\$/\\1/p' "\$1"); do : >"\$f"; done
: >"$tmp/drawing"
exec sleep 30
FAKE
chmod +x "$tmp/bin/gnuplot"
fresh "$GOOD"
GNUPLOT="$tmp/bin/gnuplot" "$P" --results "$tmp/r" >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 1 100); do [ -e "$tmp/drawing" ] && break; nap 0.1; done
before=$(leftovers)
kill -TERM "$pid"
wait "$pid"
is "$?" 130 "SIGTERM while drawing: exit 130"
is "$before:$(leftovers)" "4:0" "the temporary files of the drawing are removed"
