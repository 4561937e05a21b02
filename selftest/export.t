#!/usr/bin/env bash
# sb-summary --format gab / bencher (and compare.sh's, of a comparison): runs as github-action-benchmark's customBiggerIsBetter list and as
# Bencher's metric format, one entry per point (test, mode, tasks), the run-level mean and its interval; several runs in one file;
# bounds never below 0; a comparison as new/base in % that gab's alert reads the right way round; several
# testcases' comparisons in one file (BASE... --vs NEW...).
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$B/bin/sb-summary
run_dir=selftest/data/plot/good/unix1/6.8.0-lock-20260102T100000
# points: mode,tasks,mean,ci of summary.csv, one a line
points=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 != 0 {
	for (m = 0; m < 2; m++) { md = m ? "threads" : "processes"
		if ($(c[md]) != "") print md "," $1 "," $(c[md]) "," $(c[md "_ci"]) } }' "$run_dir/summary.csv")
npoints=$(printf '%s\n' "$points" | grep -c .)

run "$S" --format gab "$run_dir"
is "$rc" 0 "--format gab exits 0${err:+: $err}"
printf '%s\n' "$out" >"$tmp/gab.json"
python3 -m json.tool "$tmp/gab.json" >/dev/null 2>&1
ok $? "--format gab is valid JSON (python3 -m json.tool)"
if command -v jq >/dev/null; then
	is "$(jq -r 'type' "$tmp/gab.json")" array "a list, as customBiggerIsBetter reads"
	is "$(jq -r 'length' "$tmp/gab.json")" "$npoints" "one entry per point of summary.csv ($npoints)"
	is "$(jq -r '[.[] | select((.name | type) == "string" and .unit == "ops/s" and (.value | type) == "number" and (.range | type) == "string" and (.extra | type) == "string")] | length' "$tmp/gab.json")" \
		"$npoints" "every entry has name, unit, value (a number), range and extra (strings)"
	is "$(jq -r '[.[].name] | unique | length' "$tmp/gab.json")" "$npoints" "the names are unique"
	is "$(jq -r '.[] | select(.name == "unix1 processes, 2 tasks") | "\(.value) \(.range)"' "$tmp/gab.json")" \
		"$(printf '%s\n' "$points" | awk -F, '$1 == "processes" && $2 == 2 { printf "%.15g ± %.6g\n", $3, $4 }')" \
		"processes at 2 tasks: value the mean, range its interval, from summary.csv"
else
	skip "no jq: the shape of the list is not checked"
fi

run "$S" --format bencher "$run_dir"
is "$rc" 0 "--format bencher exits 0${err:+: $err}"
printf '%s\n' "$out" >"$tmp/bmf.json"
python3 -m json.tool "$tmp/bmf.json" >/dev/null 2>&1
ok $? "--format bencher is valid JSON"
if command -v jq >/dev/null; then
	is "$(jq -r 'type' "$tmp/bmf.json")" object "an object of benchmarks (Bencher's metric format)"
	is "$(jq -r 'keys | length' "$tmp/bmf.json")" "$npoints" "one benchmark per point"
	is "$(jq -r '[to_entries[] | select(.value.throughput.lower_value <= .value.throughput.value and .value.throughput.value <= .value.throughput.upper_value)] | length' "$tmp/bmf.json")" \
		"$npoints" "every one has a throughput value inside [lower_value, upper_value]"
	is "$(jq -r '."unix1/threads/1".throughput.value' "$tmp/bmf.json")" \
		"$(printf '%s\n' "$points" | awk -F, '$1 == "threads" && $2 == 1 { printf "%.15g\n", $3 }')" "threads at 1 task: the mean"
else
	skip "no jq: the shape of the object is not checked"
fi

# A single run has no interval: no range, no bounds, never a made-up one.
mkdir -p "$tmp/one"
cp "$run_dir/meta" "$tmp/one/meta"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $(c["processes_ci"]) = ""; $(c["threads_ci"]) = ""; $(c["processes_n"]) = $1 ? 1 : ""; $(c["threads_n"]) = $1 ? 1 : ""; print }' \
	"$run_dir/summary.csv" >"$tmp/one/summary.csv"
run "$S" --format gab "$tmp/one"
is "$rc" 0 "a run without intervals exports"
unlike "$out" '"range"' "and has no range"
run "$S" --format gab "$tmp/nonexistent"
is "$rc" 2 "a missing run directory is an input error (exit 2)"
run "$S" --format gab --table "$run_dir"
is "$rc" 2 "--format gab with --table is a usage error"

# --repeat 1: one run of 3 samples is "1 run", not its sample count (sb-summary writes its summary).
mkdir -p "$tmp/rep1"
cp selftest/data/compare/results/unix1/base-20260101T000000/meta "$tmp/rep1/meta"
awk -F, 'NR == 1 || $3 == 1' selftest/data/compare/results/unix1/base-20260101T000000/samples.csv >"$tmp/rep1/samples.csv"
"$S" -o "$tmp/rep1/summary.csv" "$tmp/rep1/samples.csv"
run "$S" --format gab "$tmp/rep1"
like "$out" '"extra": "1 run; ' "a --repeat 1 run says 1 run"
unlike "$out" '[0-9] runs' "never its samples' count"

# Several runs, one file: two labels of one test are named apart by label; one label twice cannot be.
run "$S" --format gab "$run_dir" selftest/data/plot/good/unix1/6.1.0-old-20260101T100000 "$tmp/rep1"
is "$rc" 0 "--format gab takes several run directories${err:+: $err}"
printf '%s\n' "$out" >"$tmp/multi.json"
if command -v jq >/dev/null; then
	n_old=$(jq -r length <<<"$("$S" --format gab selftest/data/plot/good/unix1/6.1.0-old-20260101T100000)")
	n_rep=$(jq -r length <<<"$("$S" --format gab "$tmp/rep1")")
	is "$(jq -r 'length' "$tmp/multi.json")" "$((npoints + n_old + n_rep))" "one list of every run's points"
	is "$(jq -r '[.[].name] | unique | length' "$tmp/multi.json")" "$((npoints + n_old + n_rep))" "with unique names"
	like "$(jq -r '.[].name' "$tmp/multi.json" | grep -c ' (6.8.0-lock)$')" '^[1-9]' "the runs of unix1 named apart by label"
	run "$S" --format bencher "$run_dir" selftest/data/plot/good/unix1/6.1.0-old-20260101T100000
	is "$(jq -r 'keys | length' <<<"$out")" "$((npoints + n_old))" "--format bencher: one object of both runs' points"
fi
run "$S" --format gab "$run_dir" "$run_dir"
is "$rc:$out" "2:" "one run twice (one test, one label) is an input error, with nothing written"
like "$err" 'same names' "naming the problem"
run "$S" --format gab "$run_dir" "$tmp/nonexistent"
is "$rc:$out" "2:" "a missing second run: exit 2, nothing written"

# Bencher's bounds are the interval's, cut at 0: a throughput is never negative.
mkdir -p "$tmp/wide"
cp "$run_dir/meta" "$tmp/wide/meta"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$1 != 0 { $(c["processes_ci"]) = $(c["processes"]) * 2 } { print }' "$run_dir/summary.csv" >"$tmp/wide/summary.csv"
run "$S" --format bencher "$tmp/wide"
if command -v jq >/dev/null; then
	is "$(jq -r '[.[].throughput | select(.lower_value < 0)] | length' <<<"$out")" 0 "an interval wider than the mean: no lower_value below 0"
	is "$(jq -r '."unix1/processes/1".throughput | "\(.lower_value) \(.upper_value > 2 * .value)"' <<<"$out")" "0 true" \
		"it is cut at 0; the upper bound stays the interval's"
fi
# compare: base steady, new's runs far apart: the ratio's interval is wider than 100%
mkrun() {
	mkdir -p "$tmp/w/$1"
	sed "s/^label=.*/label=$1/; s/^run_id=.*/run_id=$1/" "$CB/meta" | grep -v '^points=\|^modes=' >"$tmp/w/$1/meta"
	printf 'modes=processes\npoints=1\n' >>"$tmp/w/$1/meta"
	{ echo mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct
	  r=0; for v in $2; do r=$((r + 1)); for s in 1 2 3; do
		echo "processes,1,$r,measure,$s,1.000000,$v,$v.000000,$v.000000,$v.000000,50.000000,60.000000"; done; done; } >"$tmp/w/$1/samples.csv"
}
R=selftest/data/compare/results/unix1
CB=$R/base-20260101T000000
mkrun wbase "1000 1000 1001"
mkrun wnew "1 1000 3000"
run ./compare.sh --drift 0 --format bencher --fail-on never "$tmp/w/wbase" "$tmp/w/wnew"
is "$rc" 0 "compare --format bencher of a very noisy new side${err:+: $err}"
if command -v jq >/dev/null; then
	is "$(jq -r '."unix1/processes/1".ratio_pct | "\(.lower_value) \(.upper_value > 200)"' <<<"$out")" "0 true" \
		"compare's ratio_pct: the lower bound is cut at 0, not below"
fi

# Bencher's metric format as its JSON schema (bencher.dev/bmf.json, draft-07) has it, restated here: an
# object of benchmarks, each an object of measures, each with a number value and maybe number lower_value
# and upper_value; and as its reference adds, benchmark names of at most 1024 characters, measures of 64.
# scalebench adds 0 <= lower <= value <= upper.
if command -v jq >/dev/null; then
	run "$S" --format bencher selftest/data/plot/good/unix1/6.1.0-old-20260101T100000 "$tmp/wide"
	printf '%s\n' "$out" >"$tmp/bmf2.json"
	./compare.sh --drift 0 --format bencher --fail-on never "$tmp/w/wbase" "$tmp/w/wnew" >"$tmp/bmf3.json" 2>/dev/null
	for f in "$tmp/bmf2.json" "$tmp/bmf3.json"; do
		is "$(jq -r '[to_entries[] | .value | to_entries[] | .value
			| select((keys - ["value", "lower_value", "upper_value"]) != [] or (.value | type) != "number"
				or ((.lower_value // .value) | . < 0 or . > $v) or ((.upper_value // .value) < .value))] | length' \
			--argjson v 1e300 "$f")" 0 "${f##*/}: every measure is BMF's {value, lower_value, upper_value}, 0 <= lower <= value <= upper"
		is "$(jq -r '[to_entries[] | select((.key | length) > 1024 or (.value | type) != "object"
			or ([.value | keys[] | select(length > 64)] | length) > 0)] | length' "$f")" 0 "${f##*/}: names within BMF's lengths"
	done
fi

# A comparison (compare.sh --format gab / bencher): new's mean in % of base's at every point (100:
# unchanged, bigger is better), the range its interval, as compare's csv has them. Fixtures: "new" is
# "base" with processes at 2 tasks 10% slower (selftest/data/compare/make_fixtures.py).
R=selftest/data/compare/results/unix1
CB=$R/base-20260101T000000 CN=$R/new-20260102T000000
./compare.sh --drift 0 --format csv --fail-on never "$CB" "$CN" >"$tmp/cmp.csv" 2>/dev/null
cmp_at() { awk -F, -v m="$1" -v t="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["mode"]) == m && $(c["tasks"]) == t { printf "%.15g ± %.6g\n", 100 + $(c["change_pct"]), $(c["change_pm_pct"]) }' "$tmp/cmp.csv"; }
run ./compare.sh --drift 0 --format gab "$CB" "$CN"
is "$rc" 1 "compare --format gab keeps the gate's exit code (the planted regression: 1)"
printf '%s\n' "$out" >"$tmp/cgab.json"
python3 -m json.tool "$tmp/cgab.json" >/dev/null 2>&1
ok $? "compare --format gab is valid JSON"
if command -v jq >/dev/null; then
	is "$(jq -r 'length' "$tmp/cgab.json")" 6 "one entry per point both runs have (6)"
	is "$(jq -r '[.[] | select(.unit == "% of base" and (.value | type) == "number" and .value > 0 and (.range | type) == "string" and (.extra | type) == "string")] | length' "$tmp/cgab.json")" \
		6 "every entry: unit '% of base', a positive number, a range and an extra"
	is "$(jq -r '.[] | select(.name == "unix1 processes, 2 tasks: new/base") | "\(.value) \(.range)"' "$tmp/cgab.json")" \
		"$(cmp_at processes 2)" "processes at 2 tasks: 100 + the change, and its interval, as compare's csv"
	like "$(jq -r '.[] | select(.name == "unix1 processes, 2 tasks: new/base") | .extra' "$tmp/cgab.json")" \
		'^new against base: slower, -10\.00%; runs 3/3; range: 95% confidence interval' "extra: the sides, the verdict, the change, the runs"
else
	skip "no jq: the comparison list is not checked"
fi

# gab's alert, reimplemented from github-action-benchmark's src/write.ts (getRatio, findAlerts): for
# customBiggerIsBetter the ratio is previous/current, and a bench alerts when it exceeds the threshold.
# The real action needs its node modules (npm, network): not run here. PREV and CUR are two exports
# (two commits of the dashboard); prints the names that alert at THRESHOLD (a ratio, 1.05 = 105%).
gab_alerts() {
	jq -rn --slurpfile p "$1" --slurpfile c "$2" --argjson t "$3" '$c[0][] as $cur
		| ($p[0][] | select(.name == $cur.name)) as $prev
		| (if $prev.value == 0 and $cur.value == 0 then 1 else $prev.value / $cur.value end) as $r
		| select($r > $t) | $cur.name'
}
if command -v jq >/dev/null; then
	# base again: a copy under another run id (one sweep as both BASE and NEW is refused)
	mkdir -p "$tmp/cb2"
	cp "$CB/samples.csv" "$tmp/cb2/"
	sed 's/^run_id=.*/run_id=base-20260109T000000/' "$CB/meta" >"$tmp/cb2/meta"
	./compare.sh --drift 0 --format gab --fail-on never "$CB" "$tmp/cb2" >"$tmp/same.json" 2>/dev/null
	./compare.sh --drift 0 --format gab --fail-on never "$CN" "$CB" >"$tmp/better.json" 2>/dev/null
	is "$(gab_alerts "$tmp/same.json" "$tmp/cgab.json" 1.05 | tr '\n' ' ')" "unix1 processes, 2 tasks: new/base " \
		"gab alerts on the regression (100 -> 90: ratio 1.11 > 1.05), on it alone"
	is "$(gab_alerts "$tmp/cgab.json" "$tmp/same.json" 1.05)" "" "and not when it is fixed (90 -> 100)"
	is "$(gab_alerts "$tmp/same.json" "$tmp/better.json" 1.05)" "" "nor on an improvement (100 -> 111)"
	is "$(gab_alerts "$tmp/better.json" "$tmp/cgab.json" 1.05 | wc -l)" 1 "an improvement lost is a regression again (111 -> 90)"
else
	skip "no jq: gab's alert is not replayed"
fi
# The same with github-action-benchmark's own getRatio and biggerIsBetter, taken out of its src/write.ts
# (SB_GAB_SRC: a checkout of it; never part of this project) and run by node with its type annotations cut.
if [ -n "${SB_GAB_SRC-}" ] && [ -f "$SB_GAB_SRC/src/write.ts" ] && command -v node >/dev/null; then
	real_alerts() {
		node - "$SB_GAB_SRC/src/write.ts" "$1" "$2" "$3" <<'JS'
const fs = require('fs');
const [src, prevFile, curFile, threshold] = [fs.readFileSync(process.argv[2], 'utf8'), process.argv[3], process.argv[4], +process.argv[5]];
// the function NAME's text, its parameters' and return types cut (TypeScript to JavaScript)
function grab(name) {
	const start = src.indexOf('function ' + name + '(');
	if (start < 0) throw new Error('no function ' + name + ' in write.ts');
	let i = src.indexOf('{', start), depth = 0;
	for (let j = i; j < src.length; j++) {
		if (src[j] === '{') depth++;
		if (src[j] === '}' && --depth === 0) { i = j + 1; break; }
	}
	return src.slice(start, i).replace(/^function (\w+)\(([^)]*)\)(\s*:\s*[\w<>\[\]]+)?/, (m, n, params) =>
		'function ' + n + '(' + params.split(',').map((p) => p.split(':')[0].trim()).join(', ') + ')');
}
const getRatio = new Function(grab('biggerIsBetter') + '\n' + grab('getRatio') + '\nreturn getRatio;')();
const prev = JSON.parse(fs.readFileSync(prevFile, 'utf8')), cur = JSON.parse(fs.readFileSync(curFile, 'utf8'));
for (const c of cur) {
	const p = prev.find((b) => b.name === c.name);
	if (p !== undefined && getRatio('customBiggerIsBetter', p, c) > threshold) console.log(c.name);
}
JS
	}
	for pair in "same cgab" "cgab same" "same better" "better cgab"; do
		set -- $pair
		is "$(real_alerts "$tmp/$1.json" "$tmp/$2.json" 1.05)" "$(gab_alerts "$tmp/$1.json" "$tmp/$2.json" 1.05)" \
			"github-action-benchmark's own getRatio alerts as the replay does ($1 -> $2)"
	done
else
	skip "github-action-benchmark's own code: set SB_GAB_SRC to a checkout of it (node needed; not fetched here)"
fi
run ./compare.sh --drift 0 --format bencher --fail-on never "$CB" "$CN"
is "$rc" 0 "compare --format bencher with --fail-on never exits 0"
printf '%s\n' "$out" >"$tmp/cbmf.json"
if command -v jq >/dev/null; then
	is "$(jq -r '."unix1/processes/2".ratio_pct | "\(.value) \(.lower_value < .value and .value < .upper_value)"' "$tmp/cbmf.json")" \
		"$(cmp_at processes 2 | cut -d ' ' -f 1) true" "bencher: ratio_pct with its bounds around it"
	is "$(jq -r 'keys | length' "$tmp/cbmf.json")" 6 "bencher: one benchmark per point"
else
	skip "no jq: the comparison object is not checked"
fi

# Several testcases in one file: BASE... --vs NEW... with sweeps of unix1 and pipe1 on each side; each
# testcase compared on its own, every entry in one list (one object for bencher).
for side in base new; do
	src=$CB; [ "$side" = new ] && src=$CN
	mkdir -p "$tmp/multi/pipe1/$side"
	cp "$src/samples.csv" "$tmp/multi/pipe1/$side/"
	sed 's/^test=.*/test=pipe1/' "$src/meta" >"$tmp/multi/pipe1/$side/meta"
done
run ./compare.sh --drift 0 --format gab "$CB" "$tmp/multi/pipe1/base" --vs "$CN" "$tmp/multi/pipe1/new"
is "$rc" 1 "two testcases a side, --format gab: the gate's exit code (the regression: 1)${err:+: $err}"
printf '%s\n' "$out" >"$tmp/two.json"
if command -v jq >/dev/null; then
	is "$(jq -r 'length' "$tmp/two.json")" 12 "one list of both testcases' points (6 + 6)"
	is "$(jq -r '[.[].name | split(" ")[0]] | unique | join(" ")' "$tmp/two.json")" "pipe1 unix1" "named by their testcases"
	is "$(jq -r '.[] | select(.name == "pipe1 processes, 2 tasks: new/base") | .value' "$tmp/two.json")" 90 "each compared against its own base"
	run ./compare.sh --drift 0 --format bencher --fail-on never "$CB" "$tmp/multi/pipe1/base" --vs "$CN" "$tmp/multi/pipe1/new"
	is "$rc:$(jq -r 'keys | length' <<<"$out")" "0:12" "--format bencher: one object of both"
else
	skip "no jq: the two-testcase export is not checked"
fi
run ./compare.sh --drift 0 --format gab "$CB" "$tmp/multi/pipe1/base" --vs "$CN"
is "$rc:$out" "2:" "a testcase with no NEW sweep: exit 2, nothing written"
like "$err" 'pipe1: no NEW sweep after --vs' "naming it"
run ./compare.sh --drift 0 --format gab "$CB" --vs "$CN" "$tmp/multi/pipe1/new"
is "$rc:$out" "2:" "a NEW sweep of a testcase base lacks: exit 2, nothing written"

run ./compare.sh --drift 0 --format gab --point processes:2 "$CB" "$CN"
is "$rc" 2 "--point has no JSON form (exit 2)"
run ./compare.sh --drift 0 --format json "$CB" "$CN"
is "$rc" 2 "an unknown --format is a usage error"
plan "$_n"
exit "$_failed"
