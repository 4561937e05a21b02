#!/usr/bin/env bash
# compare's robust side (issue 46 items 4, 9, 10): the note on values in two groups, the median of runs as a sweep's value, the flagged sweep and the rank cross-check, --kernel rounds tested as pairs.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mkrun DIR LABEL DATE "F1 F2 ..." [META...]: a run directory of unix1 (processes and threads at 1, 2
# and 4 tasks) whose run r measures F_r times the point's level (1000 ops/s a task, threads 900),
# two samples a run 0.1% apart; META lines are appended to its meta.
mkrun() {
	local dir=$1 label=$2 date=$3 f=($4) m t r
	shift 4
	mkdir -p "$dir"
	printf '%s\n' test=unix1 "label=$label" "run_id=${dir##*/}" status=complete "date=$date" host=box1 \
		"kernel=Linux 6.1.0-$label" modes=processes,threads points=1,2,4 "repeat=${#f[@]}" "$@" >"$dir/meta"
	{
		echo mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct
		for m in processes threads; do
			for t in 1 2 4; do
				for r in "${!f[@]}"; do
					awk -v m="$m" -v t="$t" -v r=$((r + 1)) -v f="${f[r]}" 'BEGIN {
						v = (m == "threads" ? 900 : 1000) * t * f
						for (s = 1; s <= 2; s++) { x = v * (s == 1 ? 0.9995 : 1.0005)
							printf "%s,%d,%d,measure,%d,1.000000,%.3f,%.3f,,,,\n", m, t, r, s, x, x } }'
				done
			done
		done
	} >"$dir/samples.csv"
}

main() {
	local d=$tmp/unix1
	# ---- item 9: values in two groups ----
	mkrun "$d/base" base 2026-01-01T00:00:00Z "1 1.004 0.998 1.002 0.996"
	mkrun "$d/two" two 2026-01-01T01:00:00Z "1 1.003 0.7 0.998 0.702"
	mkrun "$d/even" even 2026-01-01T02:00:00Z "0.96 0.98 1 1.02 1.04"
	run ./compare.sh --history "$tmp/none.db" "$d/base" "$d/two"
	like "$out" "Note: values fall in two groups \\(the gap test, docs/COMPARE.md\\): two's runs at processes:1 \\(2 near 701 and 3 near 1\\.00K ops/s, 42\\.7% apart\\); two's runs at processes:2 .*; and 3 more: a sweep's value then depends on how many of its runs fell in each group" \
		"runs in two groups: the note names the side, the point, the groups and how far apart, three points and a count"
	like "$rc" '^[01]$' "a note, not an error (exit $rc)"
	run ./compare.sh --history "$tmp/none.db" "$d/base" "$d/even"
	unlike "$out" 'two groups' "runs evenly spread 2% apart: no note"
	# four sweeps a side, new's in two groups of two sweeps 30% apart: the sweeps' means
	for i in 1 2 3 4; do
		mkrun "$d/pb$i" pb 2026-01-02T0$((2 * i)):00:00Z "1 1.002 0.998"
		mkrun "$d/pn$i" pn 2026-01-02T0$((2 * i + 1)):00:00Z "$([ $((i % 2)) = 1 ] && echo "1 1.002 0.998" || echo "0.7 0.701 0.699")"
	done
	run ./compare.sh --history "$tmp/none.db" "$d"/pb? --vs "$d"/pn?
	like "$out" "Note: values fall in two groups .*: pn's sweeps' means at processes:1 \\(2 near 700 and 2 near 1(\\.00K|000) ops/s, 42\\.9% apart\\);" \
		"--vs, 4 sweeps a side: the sweeps' means in two groups"
	unlike "$out" "pb's sweeps' means|runs in sweep" "and neither base's sweeps nor any sweep's runs"
	mkrun "$d/pb5" pb 2026-01-02T10:00:00Z "1 1.003 0.7 0.998 0.702"
	run ./compare.sh --history "$tmp/none.db" "$d"/pb[1235] --vs "$d"/pn?
	like "$out" "Note: values fall in two groups .*: pb's runs in sweep pb5 at processes:1 \\(2 near 701 and 3 near 1(\\.00K|000) ops/s" \
		"--vs: a sweep's own runs in two groups, the sweep named by its run id"

	# ---- item 4: runtest.sh --kernel A --kernel B's rounds, tested as pairs ----
	# Shaped as vm/sweep.sh leaves them: a run directory a kernel, run r of each in round r (each
	# round boots each kernel in turn), one sweep's vm_rounds, sweep_host, sweep_pid and sweep_start.
	# The rounds drift by up to 15% (shared by the round's two boots); new is 5% slower in each.
	local vm=(vm=qemu vm_accel=kvm vm_rounds=4 sweep_host=box1 sweep_pid=4242 sweep_start=boot-1/1234)
	mkrun "$d/ka" ka 2026-01-03T00:00:00Z "1 1.082 0.929 1.041" "${vm[@]}"
	mkrun "$d/kb" kb 2026-01-03T00:00:00Z "0.951 1.026 0.885 0.988" "${vm[@]}"
	run ./compare.sh --history "$tmp/none.db" "$d/ka" "$d/kb"
	is "$rc" 1 "--kernel rounds: the 5% regression under 15% of drift between rounds is found (exit 1)"
	like "$out" "Note: machine drift .*; the sides are the rounds of one runtest.sh --kernel sweep: tested as pairs of rounds" \
		"the Note says the rounds were tested as pairs"
	like "$out" '     1  processes +[0-9]+ +[0-9]+ +-(4\.9|5\.0)[0-9]% +0\.[0-9]+% +4/4 .* slower' \
		"a point: -5%, its interval well under 1% (3 df of the round-by-round differences)"
	run ./compare.sh --history "$tmp/none.db" "$d/kb" "$d/ka"
	like "$rc/$(grep -c 'tested as pairs of rounds' <<<"$out")" "^0/1$" "the other way round: paired too (faster, exit 0)"
	run ./compare.sh --history "$tmp/none.db" --drift 1 "$d/ka" "$d/kb"
	like "$rc/$(grep -Ec 'given \(--drift\).*, in every interval; the sides are the rounds' <<<"$out")" "^1/1$" "--drift PCT: the rounds still paired"
	mkrun "$d/kc" kc 2026-01-03T00:00:00Z "0.951 1.026 0.885 0.988" "${vm[@]:0:5}" sweep_start=boot-1/9999
	run ./compare.sh --history "$tmp/none.db" "$d/ka" "$d/kc"
	is "$rc" 0 "two --kernel sweeps (another sweep_start): one sweep a side, the drift unresolved (exit 0)"
	unlike "$out" "pairs of rounds" "and not paired"
	# --vs, new's sweep first in each pair (b a b a ...): pairs too
	for i in 1 2 3; do
		mkrun "$d/ab$i" ab "2026-01-03T1$((2 * i - 1)):00:00Z" "1 1.002 0.998"
		mkrun "$d/an$i" an "2026-01-03T1$((2 * i - 2)):00:00Z" "1.001 1.003 0.999"
	done
	run ./compare.sh --history "$tmp/none.db" "$d"/ab? --vs "$d"/an?
	is "$(grep -c 'the sides alternated: tested as pairs of sweeps' <<<"$out")" 1 "--vs measured b a b a: tested as pairs of sweeps"

	# ---- item 10: the median of runs as a sweep's value ----
	mkrun "$d/m5" m5 2026-01-04T00:00:00Z "1 1.004 0.998 1.002 0.996"
	mkrun "$d/w5" w5 2026-01-04T01:00:00Z "0.9 0.902 0.898 2 0.901"	# -10%, and one wild run at 2x
	mkrun "$d/w3" w3 2026-01-04T02:00:00Z "0.9 0.902 2"
	run ./compare.sh --history "$tmp/none.db" "$d/m5" "$d/w5"
	like "$out" '     1  processes +[0-9]+ +[0-9]+ +\+5\.[0-9]+% ' "the mean of logs: the wild run turns -10% into +5.6%"
	unlike "$out" 'median' "by default, no word of medians"
	run ./compare.sh --history "$tmp/none.db" --sweep-value median "$d/m5" "$d/w5"
	like "$out" '     1  processes +[0-9]+ +[0-9]+ +-9\.90% ' "--sweep-value median: -9.9% (0.901 against 1): the wild run outvoted"
	like "$out" "Note: machine drift between sweeps: \\+/-2\\.0% sd, the default, taken as known: nothing learned on this testbed; each sweep's value the median of its runs, in every interval" \
		"the Note says each sweep's value is its runs' median"
	run ./compare.sh --history "$tmp/none.db" --sweep-value median "$d/m5" "$d/w3"
	like "$out" "each sweep's value the median of its runs in 0 of 8 tests \\(the others have a sweep of fewer than 5 runs: the mean\\)" \
		"a sweep of 3 runs: the mean, and the Note counts the tests"
	like "$out" '     1  processes +[0-9]+ +[0-9]+ +\+1[0-9]\.[0-9]+% ' "(the mean of 3 logs: +1x%)"
	run ./compare.sh --sweep-value median --drift 0 "$d/m5" "$d/w5"
	like "$rc/$(wc -l <<<"$err")/$err" "^2/1/compare: --sweep-value median: with --drift 0 the runs are the values, not the sweeps \\(give the drift, or leave --drift out\\)" \
		"--sweep-value median --drift 0: exit 2, one line naming the conflict"
	run ./compare.sh --sweep-value mode "$d/m5" "$d/w5"
	like "$rc/${err%%$'\n'*}" "^2/compare: --sweep-value 'mode': expected mean or median" "--sweep-value mode: exit 2, one line"

	# ---- item 10: a sweep far from its side is flagged, kept; the rank cross-check with 5 sweeps a side ----
	local lv=(1 1.003 0.997 1.002 0.998) ln=(1.003 0.998 1.002 0.997 1) i
	for i in 0 1 2 3 4; do
		mkrun "$d/rb$i" rb "2026-01-05T0${i}:00:00Z" "$(awk -v l="${lv[i]}" 'BEGIN { print l, l * 1.002, l * 0.998 }')"
		mkrun "$d/rn$i" rn "2026-01-05T1${i}:00:00Z" "$(awk -v l="${ln[i]}" 'BEGIN { l *= 0.95; print l, l * 1.002, l * 0.998 }')"
	done
	run ./compare.sh --history "$tmp/none.db" "$d"/rb[0-4] --vs "$d"/rn?
	like "$out" "processes curve, ranks of the sweeps \\(Mann-Whitney\\): p 0\\.0079, Hodges-Lehmann -5\\.0[0-9]%; threads curve, ranks of the sweeps \\(Mann-Whitney\\): p 0\\.0079" \
		"5 sweeps a side: Mann-Whitney on the sweeps' means (exact p 2/252) and the Hodges-Lehmann shift, a curve each"
	unlike "$out" "stands .* sd from its side" "no sweep flagged"
	unlike "$out" "tested as pairs" "(base's 5 sweeps, then new's: not paired)"
	run ./compare.sh --history "$tmp/none.db" "$d"/rb0 "$d"/rb1 "$d"/rb2 "$d"/rb3 --vs "$d"/rn0 "$d"/rn1 "$d"/rn2 "$d"/rn3
	unlike "$out" "Mann-Whitney" "4 sweeps a side: no rank cross-check (it could not go below p 0.03)"
	mkrun "$d/rb5" rb 2026-01-05T05:00:00Z "0.9 0.902 0.898"
	run ./compare.sh --history "$tmp/none.db" --drift 1 "$d"/rb0 "$d"/rb1 "$d"/rb2 "$d"/rb5 "$d"/rb4 --vs "$d"/rn?
	like "$out" "\\(the processes curve of rb's sweep rb5 stands -[5-9]\\.[0-9] sd from its side \\(kept\\); processes curve, ranks .*; the threads curve of rb's sweep rb5 stands -[5-9]\\.[0-9] sd from its side \\(kept\\); threads curve, ranks" \
		"a sweep 10% below its side with 1% drift: flagged on both curves, by its run id"
	is "$(grep -o 'stands' <<<"$out" | wc -l)" 2 "and no other sweep"
	like "$out" '     1  processes .* 15/15 ' "and kept: its runs are in the side's (15 runs a side)"
	run ./compare.sh --history "$tmp/none.db" --drift 1 "$d"/rb[0-4] --vs "$d"/rn?
	unlike "$out" "stands .* sd from its side" "without it, none flagged"
}

main
plan "$_n"
exit "$_failed"
