#!/usr/bin/env bash
# plot.py's --results must name a directory (exit 2, one line); make plot RESULTS= takes a path with blanks.
# sb-san: skip: plot.py's arguments: Python (the figures it asks sb-summary for: export.t)
. "$(dirname "$0")/lib.sh"
plan 10
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir "$d/with blanks" "$d/it's here"
: >"$d/a file"

run python3 plot/plot.py --results "$d/missing dir"
is "$rc:$err" "2:plot.py: --results $d/missing dir: no such directory" "plot.py --results on a missing path: exit 2, one line"
run python3 plot/plot.py --results "$d/a file"
is "$rc:$err" "2:plot.py: --results $d/a file: not a directory" "plot.py --results on a file: exit 2, one line"
run python3 plot/plot.py --results "$d/with blanks"
is "$rc" 0 "plot.py --results on an empty directory: exit 0"
like "$out" "no results in .*with blanks" "and says there is nothing to plot"

run make -s plot RESULTS="$d/with blanks"
is "$rc" 0 "make plot RESULTS='a path with blanks': exit 0${err:+ ($err)}"
like "$out" "no results in .*with blanks" "the path reaches plot.py whole"
run make -s plot RESULTS="$d/it's here"
is "$rc" 0 "make plot RESULTS='a path with a quote': exit 0${err:+ ($err)}"
like "$out" "no results in .*it's here" "the path reaches plot.py whole, not as shell syntax"
run make -s plot RESULTS="$d/missing dir"
ok "$([ "$rc" != 0 ]; echo $?)" "make plot RESULTS='a missing path' fails ($rc)"
like "$err" "^plot.py: --results $d/missing dir: no such directory$" "naming the whole path"
