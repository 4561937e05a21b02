#!/usr/bin/env bash
# history_gen.t: the history simulator's run directories are real ones (sb-summary and sb-compare read them), levels as asked, the same seed the same numbers, bad input exit 2.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
G=$B/selftest/history_gen
plan 17

run "$G" --out "$tmp/a" --kernels 21 --counts 3 --runs 2 --run-sd 0 --sweep-sd 0 --cell broad --seed 3
is "$rc" 0 "history_gen exits 0${err:+: $err}"
t=$tmp/a/histsim1
is "$(find "$t" -mindepth 1 -maxdepth 1 -name 'k*' -type d | wc -l | tr -d ' ')" 21 "21 run directories, one a kernel"
is "$(readlink "$t/latest")" k21-20260121T020000 "latest names the newest kernel's run"
unlike "$(find "$t" -name '.*')" . "no temporary name left behind"
d=$t/k02-20260102T020000
grep -qx label=k02 "$d/meta"
ok $? "meta: label k02"
like "$(grep -E '^(status|date|kernel|run_id)=' "$d/meta" | tr '\n' ' ')" \
	'^run_id=k02-20260102T020000 status=complete date=2026-01-02T02:00:00Z kernel=Linux 6\.2\.0-sim ' \
	"meta: run id, status, start time, kernel release"
is "$(head -1 "$d/samples.csv")" \
	mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms \
	"samples.csv: the runner's columns"
is "$(grep -c '^processes,2,' "$d/samples.csv")" 4 "two runs of two samples a point"
run "$B/bin/sb-summary" --table "$d"
is "$rc" 0 "sb-summary reads the run${err:+: $err}"
run "$B/bin/sb-compare" "$t/k01-20260101T020000" "$t/k21-20260121T020000"
ok $((rc > 1)) "sb-compare reads two of its runs (exit $rc)${err:+: $err}"

# broad: -5% from kernel 20 at every count; without run and sweep noise only the samples' 0.2%
# is left (the mean of 4 samples: within 0.5% of the level)
# ratio COL A B: summary.csv column COL at 3 tasks, B over A
ratio() {
	awk -F, -v c="$1" 'FNR == 1 { f++ } FNR > 1 && $1 == 3 { v[f] = $c } END { print v[2] / v[1] }' \
		"$t/$2"-*/summary.csv "$t/$3"-*/summary.csv
}
r=$(ratio 2 k19 k20)
ok "$(awk -v r="$r" 'BEGIN { print !(r > 0.945 && r < 0.955) }')" "broad: kernel 20 at 95% of kernel 19 (3 tasks, processes: $r)"
r=$(ratio 4 k01 k19)
ok "$(awk -v r="$r" 'BEGIN { print !(r > 0.99 && r < 1.01) }')" "broad: kernel 19 as kernel 1 (threads: $r)"

"$G" --out "$tmp/b" --kernels 3 --counts 2 --seed 9 --summary none &&
	"$G" --out "$tmp/c" --kernels 3 --counts 2 --seed 9 --summary none &&
	"$G" --out "$tmp/d" --kernels 3 --counts 2 --seed 10 --summary none
cmp -s "$tmp/b/histsim1/latest/samples.csv" "$tmp/c/histsim1/latest/samples.csv"
ok $? "the same seed: the same samples.csv"
cmp -s "$tmp/b/histsim1/latest/samples.csv" "$tmp/d/histsim1/latest/samples.csv"
ok $((!$?)) "another seed: other numbers"
ok "$([ ! -e "$tmp/b/histsim1/latest/summary.csv" ]; echo $?)" "--summary none: no summary.csv"

run "$G" --out "$tmp/b" --kernels 3 --counts 2 --seed 9 --summary none
like "$rc $err" '^2 .*exists' "an existing history: exit 2, named"
run "$G" --out "$tmp/e" --cell sideways
like "$rc $err" "^2 .*unknown cell 'sideways'" "an unknown cell: exit 2, named"
