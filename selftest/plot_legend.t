#!/usr/bin/env bash
# sb-san: skip: plot.py's compare-latest chart (Python and gnuplot; the C it calls is tested elsewhere)
# make plot's compare-latest.png at 2, 6 and 30 runs of one testcase: its legend (one entry a run,
# one a mode) lies inside the canvas, measured on the PNG (the key's box drawn in magenta through
# SB_PLOT_KEY_PROBE: its four sides whole, clear of the edges), nothing is drawn on the canvas's
# outermost pixels; past 8 runs the first and the 7 newest are drawn, with a pointer to the history.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
if ! command -v gnuplot >/dev/null 2>&1; then echo "1..0 # skip gnuplot not installed"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 15

# runs N: N complete runs of unix1 a day apart (day 1 the oldest), one with a long label
runs() {
	local n=$1 i d r=$tmp/r$1
	for ((i = 1; i <= n; i++)); do
		d=$(printf '2026-%02d-%02dT10:00:00Z' $((11 + (i - 1) / 28)) $(((i - 1) % 28 + 1)))
		l=6.$((7 + i)).0
		[ "$i" = 2 ] && l=6.9.0-rc7-next-20261201-with-a-rather-long-label
		hrun "$r" unix1 "$l" $(((i - 1) % 28 + 1)) "1.$i" "date=$d" >/dev/null
	done
	# (each run's own charts are not this file's subject: placeholders newer than the run, which
	# plot.py takes as up to date)
	for d in "$r"/unix1/*/; do
		"$B/bin/sb-summary" -o "$d/summary.csv" "$d/samples.csv"
		touch "$d/scaling.png" "$d/scaling.svg" "$d/per_task.png" "$d/per_task.svg"
	done
}

for n in 2 6 30; do
	runs "$n"
	run env SB_PLOT_KEY_PROBE=1 python3 plot/plot.py -q --results "$tmp/r$n"
	is "$rc" 0 "$n runs: make plot draws${err:+: $err}"
	read -r w h x0 y0 x1 y1 sides edge < <(python3 selftest/png_box.py "$tmp/r$n/unix1/compare-latest.png")
	is "$sides" 4 "$n runs: the legend's box is whole (box $x0,$y0 to $x1,$y1 in ${w}x$h)"
	ok "$([ "$x0" -ge 2 ] && [ "$y0" -ge 2 ] && [ "$x1" -le $((w - 3)) ] && [ "$y1" -le $((h - 3)) ]; echo $?)" \
		"$n runs: the legend's box lies inside the canvas"
	is "$edge" 0 "$n runs: nothing is cut at the canvas's edge"
done
is "$(wc -l <"$tmp/r30/unix1/compare-latest.runs")" 8 "30 runs: 8 drawn"
is "$(head -n 1 "$tmp/r30/unix1/compare-latest.runs") $(tail -n 1 "$tmp/r30/unix1/compare-latest.runs")" \
	"6.8.0-20261201T100000 6.37.0-20261202T100000" "30 runs: the first (the baseline) and the newest"
grep -q '30 runs: the first and the 7 newest drawn; every run: history/unix1.png (make plot), sb-history show unix1' \
	"$tmp/r30/unix1/compare-latest.svg"
ok $? "30 runs: the chart says so and points to the history"
exit $_failed
