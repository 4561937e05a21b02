#!/usr/bin/env bash
# The history's drift kept by sweep shape (duration, warmup, period_ms: issue 46), and runtest.sh --dry-run's advice from it.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 17

G=$B/selftest/history_gen
H=$B/bin/sb-history

# Two shapes of one testcase on one testbed, their sweeps interleaved in time (shape A at 02:00,
# shape B at 03:00 each day): A drifts 1% between sweeps, B 8%.
gen() { "$G" --out "$tmp/r" --kernels 10 --runs 3 --run-sd 1 --counts 3 --summary none "$@" >/dev/null 2>&1; }
gen --sweep-sd 1 --seed 5
gen --sweep-sd 8 --seed 6 --shape 5/auto/500 --hour 3
"$H" add --db "$tmp/h.db" "$tmp"/r/histsim1/k* >/dev/null 2>&1
run "$H" drift --db "$tmp/h.db"
like "$out" '^histsim1 on sim: 20 sweeps of 2 shapes' "sb-history drift: the testcase's block says it has two shapes"
a=$(printf '%s\n' "$out" | sed -n '/^ shape duration 2, warmup 0, period_ms 1000: 10 sweeps$/,/^ shape/p' |
	sed -n 's/^  points (pooled) *\([0-9.]*\)% (54 pairs.*/\1/p')
b=$(printf '%s\n' "$out" | sed -n '/^ shape duration 5, warmup auto, period_ms 500: 10 sweeps$/,$p' |
	sed -n 's/^  points (pooled) *\([0-9.]*\)% (54 pairs.*/\1/p')
like "$a" '^(0\.[5-9]|1\.[0-9])$' "shape A: its own figure, about its 1% (pairs of its own sweeps only: 9 a series, 6 series)"
like "$b" '^([5-9]|1[0-2])\.[0-9]$' "shape B: its own figure, about its 8%"
is "$(printf '%s\n' "$out" | grep -c '^  runs a sweep: ')" 2 "the advice for each shape"

# compare, one sweep a side of each shape: the Note's figure is the shape's and names it
note() { ./compare.sh --history "$tmp/h.db" "$@" | grep '^Note: machine drift'; }
na=$(note "$tmp"/r/histsim1/k03-*T020000 "$tmp"/r/histsim1/k04-*T020000)
nb=$(note "$tmp"/r/histsim1/k03-*T030000 "$tmp"/r/histsim1/k04-*T030000)
like "$na" '\+/-(0\.[5-9]|1\.[0-9])% sd, 7 sweeps of this series within a boot \(its shape: duration 2, warmup 0, period_ms 1000\)' \
	"compare, shape A: its shape's figure, the shape named"
like "$nb" '\+/-([4-9]|1[0-2])\.[0-9]% sd, 7 sweeps of this series within a boot \(its shape: duration 5, warmup auto, period_ms 500\)' \
	"compare, shape B: its shape's figure"
# a shape the history has not seen: the testbed's other shapes, as the prior only, and said
mkdir "$tmp/x"
cp -r "$tmp"/r/histsim1/k03-*T020000 "$tmp"/r/histsim1/k04-*T020000 "$tmp/x"
sed -i 's/^duration=2$/duration=9/' "$tmp"/x/*/meta
like "$(note "$tmp"/x/k03-* "$tmp"/x/k04-*)" 'sd, none learned of its shape \(duration 9, warmup 0, period_ms 1000\): its testbed.s sweeps of other shapes within a boot, as the prior only, [0-9]+ df' \
	"compare, a shape not in the history: the other shapes as the prior, named in the Note"
# show: the title's figure names the shape
like "$("$H" show histsim1 --db "$tmp/h.db" | sed -n 3p)" '^machine drift between sweeps: .*\(its shape: duration' \
	"show's title names the shape its figure is of"

# One shape (the history before): no shape named anywhere, the figure as it was.
"$H" add --db "$tmp/one.db" "$tmp"/r/histsim1/k*T020000 >/dev/null 2>&1
run "$H" drift --db "$tmp/one.db"
like "$out" '^histsim1 on sim: 10 sweeps'$'\n''  +drift within a boot' "one shape: the block as before, no shape line"
"$H" add --db "$tmp/single.db" "$tmp"/r/histsim1/k01-*T020000 >/dev/null 2>&1
like "$("$H" drift --db "$tmp/single.db")" '^histsim1 on sim: 1 sweep$' "a history of one sweep: 1 sweep, not 1 sweeps"
like "$(./compare.sh --history "$tmp/one.db" "$tmp"/r/histsim1/k03-*T020000 "$tmp"/r/histsim1/k04-*T020000 |
	grep '^Note: machine drift')" "7 sweeps of this series within a boot and its testbed's other series, [0-9]+ df" \
	"one shape: compare's Note without a shape"

# runtest.sh --dry-run's advice: a generated history of paced on this machine's testbed and with the
# dry run's shape (the keys copied from one real sweep's meta)
OPTS=(--points 1 --mode processes --duration 0.2 --warmup 0.1 --period-ms 100 --repeat 2)
SB_TESTS_DIR=$B/selftest run ./runtest.sh paced "${OPTS[@]}" --no-history --results "$tmp/one" --quiet
is "$rc" 0 "one real sweep for the testbed's keys"
keys='^(test|params|host|cpu_model|topology|hwloc_version|placement|duration|warmup|period_ms)='
grep -E "$keys" "$tmp"/one/paced/latest/meta >"$tmp/keys"
"$G" --out "$tmp/res" --testcase paced --kernels 8 --runs 3 --run-sd 1 --sweep-sd 3 --counts 2 --modes 1 \
	--summary none --seed 4 >/dev/null 2>&1
for m in "$tmp"/res/paced/k*/meta; do
	{ grep -vE "$keys" "$m"; cat "$tmp/keys"; } >"$m.new" && mv "$m.new" "$m"
done
"$H" add --db "$tmp/res/history.db" "$tmp"/res/paced/k* >/dev/null 2>&1
dry() { SB_TESTS_DIR=$B/selftest run ./runtest.sh paced "$@" --dry-run; }
dry "${OPTS[@]}" --results "$tmp/res"
adv=$(printf '%s\n' "$out" | sed -n '/^  drift: /,/^  params:/p')
like "$adv" '^  drift:     a 2% change needs (more than 64 sweeps a side here|[0-9]+ sweeps? of [0-9]+ runs? a side \(5%, 80% power\)); runs a sweep: [0-9]+ \(r\* = [0-9.]+\)'$'\n''             from the history.s 8 sweeps of this testcase and shape: \+/-[0-9.]+% sd between sweeps within a boot \([0-9.]+ df\), runs \+/-[0-9.]+% sd \(sb-history drift\)'$'\n''  params:' \
	"--dry-run: two lines of advice once the history has a figure"
fig=$(printf '%s\n' "$adv" | sed -n 's/.*: +\/-\([0-9.]*\)% sd between sweeps.*/\1/p')
rep=$("$H" drift paced --db "$tmp/res/history.db" | sed -n 's/^  points (pooled) *\([0-9.]*\)%.*/\1/p')
is "$fig" "$rep" "the figure is sb-history drift's"
dry "${OPTS[@]}" --results "$tmp/res" --duration 0.3
is "$rc/$(printf '%s\n' "$out" | grep -c '^  drift: ')" 0/0 "another shape: no figure of it, no line"
dry "${OPTS[@]}" --results "$tmp/none"
is "$rc/$(printf '%s\n' "$out" | grep -c '^  drift: ')" 0/0 "no history: no line"
SB_HISTORY=$tmp/res/history.db dry "${OPTS[@]}" --results "$tmp/none"
is "$(printf '%s\n' "$out" | grep -c '^  drift: ')" 1 "\$SB_HISTORY: the history named there"
exit $_failed
