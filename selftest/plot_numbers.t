#!/usr/bin/env bash
# plot_numbers.t: the relative change plot.py draws, and its interval, are sb-compare's to the digit.
. "$(dirname "$0")/lib.sh"
plan 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
G=selftest/data/plot/good/unix1
OLD=$G/6.1.0-old-20260101T100000
NEW=$G/6.8.0-lock-20260102T100000

# What plot.py hands gnuplot: the rel datablocks of compare_prelude (tasks, change,
# change - half, change + half) as "MODE TASKS CHANGE HALF", MODE from rel_mode_N.
python3 - "$OLD" "$NEW" >"$tmp/plot" 2>"$tmp/err" <<'PY'
import re, sys
sys.path.insert(0, "plot")
import plot
pre = plot.compare_prelude([plot.Run(sys.argv[1]), plot.Run(sys.argv[2])], None)
modes = dict(re.findall(r'^rel_mode_(\d+) = "(\w+)"$', pre, re.M))
for n, body in re.findall(r'^\$rel(\d+) << EOD\n(.*?)EOD$', pre, re.M | re.S):
    for line in body.splitlines():
        t, c, lo, hi = (float(x) for x in line.split())
        print("%s %d %.6f %.6f" % (modes[n], t, c, (hi - lo) / 2))
PY
ok $? "plot.py's comparison prelude is made$( [ -s "$tmp/err" ] && echo " ($(head -c 200 "$tmp/err"))")"
./compare.sh --format csv --force --fail-on never "$OLD" "$NEW" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s %d %.6f %.6f\n", $c["mode"], $c["tasks"], $c["change_pct"], $c["change_pm_pct"] }' >"$tmp/compare"
is "$(wc -l <"$tmp/compare" | tr -d ' ')" 24 "sb-compare compares the 24 common points"
is "$(wc -l <"$tmp/plot" | tr -d ' ')" 24 "plot.py draws the 24 of them"
diff "$tmp/compare" "$tmp/plot" >"$tmp/diff"
ok $? "every plotted change and interval is sb-compare's$( [ -s "$tmp/diff" ] && echo " ($(head -c 300 "$tmp/diff" | tr '\n' ' '))")"
# The case issue 10 found: processes at 2 tasks, +-1.331% (plot.py once drew +-1.245%).
like "$(grep '^processes 2 ' "$tmp/plot")" '^processes 2 15\.445455 1\.331086$' "processes at 2 tasks: +15.445% +-1.331%, sb-compare's"
grep -q 't975\|_ibeta\|_betacf\|relative_change\|sqrt\|hypot' plot/plot.py
ok $((! $?)) "plot.py has no statistics of its own"
