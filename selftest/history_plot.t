#!/usr/bin/env bash
# make plot's history charts: results/history/<test>.png and .svg (ops/s against kernel, the change points marked) for each testcase with two or more kernels in results/history.db, linked from results/index.html; redrawn only when the history changes.
# sb-san: skip: plot.py (Python) draws what sb-history prints; sb-history's C runs under the sanitizers in history_show.t and history_changes.t
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/results
plan 9
if ! command -v gnuplot >/dev/null || ! command -v python3 >/dev/null; then
	for i in 1 2 3 4 5 6 7 8 9; do skip "needs gnuplot and python3 (make deps)"; done
	exit 0
fi
for i in 1 2 3 4 5 6; do
	f=1
	[ "$i" -ge 4 ] && f=0.8
	d=$(hrun "$R" unix1 "6.$i" "$i" "$f")
	"$B/bin/sb-summary" -o "$d/summary.csv" "$d/samples.csv"
done
d=$(hrun "$R" pipe1 6.1 1 1)
"$B/bin/sb-summary" -o "$d/summary.csv" "$d/samples.csv"
"$H" --db "$R/history.db" add "$R"/*/*/ >/dev/null

export SB_BUILD=$B
run python3 plot/plot.py --results "$R"
is "$rc:$err" "0:" "make plot with a history: exit 0, nothing on stderr"
like "$out" "drew .*history/unix1\.png" "it draws unix1's history"
[ "$(od -An -tx1 -N8 "$R/history/unix1.png" | tr -d ' \n')" = 89504e470d0a1a0a ] && grep -q '<svg' "$R/history/unix1.svg"
ok $? "a PNG and an SVG"
[ ! -e "$R/history/pipe1.png" ]
ok $? "not pipe1's: one kernel is no history"
grep -q '6\.4' "$R/history/unix1.svg" && grep -q 'processes:1 -[12][0-9]\.[0-9]%' "$R/history/unix1.svg"
ok $? "the kernels on the axis and the change point marked with its size"
grep -q 'href="history/unix1.png"' "$R/index.html"
ok $? "index.html links it"
run python3 plot/plot.py --results "$R"
unlike "$out" "drew .*history" "nothing new in the history: not drawn again"
sleep 1
hrun "$R" unix1 6.7 7 0.8 >/dev/null
"$H" --db "$R/history.db" add "$R"/unix1/*/ >/dev/null
run python3 plot/plot.py --results "$R"
like "$out" "drew .*history/unix1\.svg" "a sweep added: drawn again"
grep -q '6\.7' "$R/history/unix1.svg"
ok $? "with the new kernel"
