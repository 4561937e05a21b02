#!/usr/bin/env bash
# sb-history changes: change points over every series of the selection, and its exit status as a CI gate (1: a regression at or after --since still holds at the newest kernel).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 24

# hist NAME FACTOR...: a history of unix1 whose kernel 6.N runs at FACTOR N (1% noise) -> its database
hist() {
	local r=$tmp/$1 i=0 f
	shift
	for f in "$@"; do
		i=$((i + 1))
		hrun "$r" unix1 "6.$i" "$i" "$f" >/dev/null
	done
	"$H" --db "$r/history.db" add "$r"/unix1/* >/dev/null
	printf '%s' "$r/history.db"
}
flat=$(hist flat 1 1 1 1 1 1 1 1 1 1)
step=$(hist step 1 1 1 1 1 0.8 0.8 0.8 0.8 0.8)
up=$(hist up 1 1 1 1 1 1.2 1.2 1.2 1.2 1.2)
back=$(hist back 1 1 1 1 1 1 0.8 0.8 0.8 0.8 0.8 0.8 1 1 1)

run "$H" --db "$flat" changes
is "$rc" 0 "a flat history: exit 0"
like "$out" 'no change point' "and no change point"
like "$out" '^10 series over 10 sweeps in 1 group' "every point and curve is a series"

run "$H" --db "$step" changes
is "$rc" 1 "a 20% step down that holds: exit 1"
like "$out" 'unix1 processes:4 on box: from 6\.6 \(2026-12-06\): (19|20|21)\.[0-9]% worse \[-2[0-9]\.[0-9]%, -[12][0-9]\.[0-9]%\], p [0-9.e-]+, still holds at 6\.10' \
	"each change: the series, the first kernel after it, its size and interval, p, still holds"
like "$out" 'unix1 threads:curve on box: from 6\.6' "the curves too"
like "$out" '^Verdict: REGRESSION: 10 regressions still hold at the newest kernel' "the verdict"
run "$H" --db "$step" changes --since 6.6
is "$rc" 1 "--since the kernel of the step: exit 1"
run "$H" --db "$step" changes --since 6.7
is "$rc" 0 "--since a later kernel: the step is before it, exit 0"
like "$out" 'Verdict: no regression: 0 regressions at or after 6\.7' "and says so"
run "$H" --db "$step" changes --since 2026-12-06
is "$rc" 1 "--since the step's date: exit 1"
run "$H" --db "$step" changes --since 2026-12-07
is "$rc" 0 "--since a later date: exit 0"

run "$H" --db "$up" changes
is "$rc" 0 "a 20% step up: exit 0 (ops/s: higher is better)"
like "$out" 'from 6\.6 .*: 2[01]\.[0-9]% better' "but it is reported"

run "$H" --db "$back" changes
is "$rc" 0 "a regression that is gone at the newest kernel: exit 0"
like "$out" 'processes:8 on box: from 6\.7 .*worse.* does not hold at 6\.15' "reported as not holding"

run "$H" --db "$step" changes --format json
is "$rc" 1 "json: the same exit status"
if command -v python3 >/dev/null; then
	v=$(printf '%s' "$out" | python3 -c 'import json, sys; d = json.load(sys.stdin); c = d["changes"]
print(d["regressions"], len(c), c[0]["last_before"], c[0]["at"], c[0]["holds"], c[0]["gates"], round(c[0]["pct"]))')
	is "$v" "10 10 6.5 6.6 True True -20" "json: the changes with their fields (the last kernel before, the first after)"
else
	skip "python3 needed to read the JSON"
fi
run "$H" --db "$step" changes --format markdown
like "$out" '^\| series \| first kernel after \| change \| 95% interval \| p \| holds at newest \|' "markdown: a table"
run "$H" --db "$step" changes --format csv
is "$rc" 2 "changes has no csv: usage error"
run "$H" --db "$step" changes pipe1
is "$rc" 2 "a testcase without sweeps: exit 2"
run "$H" --db "$step" changes --alpha 2
is "$rc" 2 "--alpha out of range: exit 2"

# --any-params: a slowdown made by a param is one series, and the change names both sides' params
r=$tmp/params
for i in 1 2 3 4 5 6 7 8; do
	f=1 p=size=1
	if [ "$i" -gt 5 ]; then f=0.8 p=size=2; fi
	hrun "$r" unix1 "6.$i" "$i" "$f" "params=$p" >/dev/null
done
"$H" --db "$r/history.db" add "$r"/unix1/* >/dev/null
run "$H" --db "$r/history.db" changes unix1
unlike "$out" 'worse' "other params are other series: no change without --any-params"
run "$H" --db "$r/history.db" changes unix1 --any-params
like "$out" '^unix1 \[size=1 -> size=2\] processes:1 on box: from 6\.6 ' "--any-params: the change at the param's first sweep, both params named"
