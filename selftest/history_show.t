#!/usr/bin/env bash
# sb-history show: the N-way table (one column per kernel, the change against the first and the previous column in words with what the pair could detect) in text, markdown, csv and json; --by testbed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/results
DB=$R/history.db
plan 30

hrun "$R" unix1 6.1 1 1 >/dev/null
hrun "$R" unix1 6.2 2 1 >/dev/null
hrun "$R" unix1 6.3 3 0.8 >/dev/null
hrun "$R" unix1 6.3 4 0.8 host=other cpu_model=Epyc >/dev/null
"$H" --db "$DB" add "$R"/unix1/* >/dev/null

run "$H" --db "$DB" show unix1
is "$rc" 0 "show: exit 0"
like "$out" '^unix1  testbed: box \(Xeon, packages=1 numa=1 cores=8 pus=8, hwloc 2\.9\.0, placement cores\)' \
	"one table a testbed, its facts in the title"
like "$out" 'ops/s, higher is better' "says which way is better"
like "$out" '^point +6\.1 +6\.2 +6\.3$' "one column per kernel"
like "$out" '^processes:4 +[34]\.[0-9]{2}M \+/-[0-9.]+% \(3 runs\) ' "each point's mean with its interval across runs"
like "$out" '^  vs first +same, [+-][0-9.]+% \(detectable [0-9.]+%\) +(19|20|21)\.[0-9]% worse \(detectable [0-9.]+%\)$' \
	"the change against the first column in words, with what the pair could detect"
like "$out" '^  vs previous +same, .* +(19|20|21)\.[0-9]% worse ' "and against the previous one"
like "$out" '^processes:curve ' "each mode's curve"
like "$out" '^unix1  testbed: other \(Epyc' "the other machine's table"
unlike "$out" ' $' "no blank at the end of a line"

run "$H" --db "$DB" show unix1 --format csv
is "$(printf '%s\n' "$out" | head -n 1)" "test,params,testbed,column,index,date,mode,tasks,sweeps,runs,mean,ci95,vs_first_pct,vs_first_interval_pct,vs_first,vs_first_detectable_pct,vs_previous_pct,vs_previous_interval_pct,vs_previous,vs_previous_detectable_pct" "csv: its header"
is "$(printf '%s\n' "$out" | awk -F, '$3 == "box" && $7 == "threads" && $8 == "curve" && $4 == "6.3" { print $15, ($13 < -18 && $13 > -22) }')" \
	"worse 1" "csv: the curve's change against the first column, unrounded"
is "$(printf '%s\n' "$out" | awk -F, 'NR > 1 && NF != 20' | wc -l | tr -d ' ')" 0 "csv: every row has every field"
run "$H" --db "$DB" show unix1 --format markdown
like "$out" '^\| point \| 6\.1 \| 6\.2 \| 6\.3 \|$' "markdown: a table"
like "$out" '<br>vs first: (19|20|21)\.[0-9]% worse' "markdown: the changes in the cells"
run "$H" --db "$DB" show unix1 --format json
if command -v python3 >/dev/null; then
	v=$(printf '%s' "$out" | python3 -c 'import json, sys; d = json.load(sys.stdin); t = d["tables"]
r = [x for x in t[0]["rows"] if x["mode"] == "processes" and x["tasks"] == 1 and x["column"] == "6.3"][0]
print(len(t), r["runs"], r["vs_first"]["verdict"], r["vs_previous"]["verdict"])')
	is "$v" "2 3 worse worse" "json: the tables and their cells"
else
	skip "python3 needed to read the JSON"
fi
run "$H" --db "$DB" show unix1 --by testbed
like "$out" '^point +box +other$' "--by testbed: the machines side by side for the newest kernel"
like "$out" 'kernel: 6\.3' "named in the title"
run "$H" --db "$DB" show unix1 --by testbed --kernel 6.1
like "$out" '^point +box$' "--kernel: another kernel"
run "$H" --db "$DB" show pipe1
is "$rc" 2 "a testcase the history lacks: exit 2"

# The formats: each a row of its printer's table (show_print.c, changes_print.c); --format's help and
# each command's refusal come from those tables, none falls back to text
like "$("$H" --help)" '--format F +text \(default\), markdown, csv \(show\), json' "--help: the formats, from the tables"
run "$H" --db "$DB" changes --format csv
is "$rc:$err" "2:sb-history: changes: --format text, markdown or json
try 'sb-history --help'" "changes: a format of show's alone is refused, its own named"
run "$H" --db "$DB" show unix1 --format otava
is "$rc:$err" "2:sb-history: --format otava goes with export
try 'sb-history --help'" "show: export's format is refused"
run "$H" --db "$DB" show unix1 --format tsv
is "$rc:$err" "2:sb-history: --format: unknown value 'tsv'
try 'sb-history --help'" "a format no table has: exit 2"
for c in list add rebuild migrate; do	# list --format json printed its TSV, exit 0
	run "$H" --db "$DB" "$c" --format json $([ "$c" = add ] && echo "$R/unix1/6.1-20261201T100000")
	is "$rc:$err" "2:sb-history: $c: --format text only
try 'sb-history --help'" "$c: a format other than text is refused, not ignored"
done

# --any-params: the columns that ran other params are named under the title
P=$tmp/params
hrun "$P" unix1 k1 1 1 params=size=1 >/dev/null
hrun "$P" unix1 k2 2 1 params=size=1 >/dev/null
hrun "$P" unix1 k3 3 0.8 params=size=2 >/dev/null
"$H" --db "$P/history.db" add "$P"/unix1/* >/dev/null
run "$H" --db "$P/history.db" show unix1 --any-params
like "$out" '^unix1  params: vary \(below\)  testbed: box ' "--any-params: the title says the params vary"
like "$out" '^params by column: k1\.\.k2: size=1; k3: size=2$' "and which columns ran which"
