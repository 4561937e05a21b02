#!/usr/bin/env bash
# aa.sh: compare's false-alarm rate: pairs of default sweeps of the same kernel and binaries, compared point by point.
# Not part of make check (it takes minutes and measures the machine). Every
# pair is two ./runtest.sh sweeps one after the other, labelled a<N> and b<N>;
# ./compare.sh --format csv then judges every point both measured, and any
# verdict other than "same" is a false alarm (nominal rate: 5% at 95%).
# TESTS (default "getppid1 pipe1 page_fault1"), POINTS (1,2), MODE (processes),
# PAIRS (7: 7 x 3 x 2 = 42 comparisons), SWEEP_ARGS (more runtest.sh options,
# e.g. "--repeat 1" to see the old single-run rate), KEEP=1 keeps the runs.
# SPLIT=R (3 or more): instead, each pair is ONE sweep of --repeat 2R whose odd runs make
# side a and even runs side b (runs 2k-1 and 2k of a point ran in consecutive
# rounds): drift of the machine then hits both sides alike, so the rate
# measures the statistics (independent runs, Student's t), not how steady the
# machine is from one sweep to the next.
# SWEEPS=S (2 or more): instead, each pair is 2S sweeps, the sides alternating
# (a b a b ...), each sweep --repeat 1 unless SWEEP_ARGS says otherwise; compare
# pools each side's sweeps (compare.sh A... --vs B...). This is the recipe for
# kernels (one sweep a boot, the kernels' boots alternated): the drift of the
# machine between sweeps is then in the spread of each side, not between them.
# Prints one line per point comparison, then the totals: the per-point rate, and
# per comparison (one testcase's pair, every point of it at once: what a CI job
# gates on) how often compare exits 1: its default gate (a regression, one-sided: issue 46's
# real A/A count) and with --fail-on change (either way; docs/COMPARE.md "The gate"),
# and how often some point's own interval called a change (the old per-point gate).
set -eu

log() { printf '%s\n' "$*" >&2; }

load() { cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || uptime; }

# compare_pair DIR TEST N: the CSV rows of compare b<N> against a<N> -> stdout
compare_pair() {
	local rc=0
	local vs=()
	if [ -n "${SWEEPS:-}" ]; then vs=(--vs); fi
	./compare.sh --format csv --fail-on never "$1/$2"/a"$3"-* "${vs[@]}" "$1/$2"/b"$3"-* >"$1/cmp.csv" 2>"$1/cmp.err" || rc=$?
	if [ "$rc" != 0 ]; then
		cat "$1/cmp.err" >&2
		log "aa.sh: compare of $2 pair $3 failed (exit status $rc)"
		return 1
	fi
	# the gate: the exit code of the comparison as a CI job runs it (either direction is false)
	rc=0
	./compare.sh --fail-on change "$1/$2"/a"$3"-* "${vs[@]}" "$1/$2"/b"$3"-* >/dev/null 2>"$1/cmp.err" || rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		cat "$1/cmp.err" >&2
		log "aa.sh: compare of $2 pair $3 failed (exit status $rc)"
		return 1
	fi
	# and the default gate (exit 1 on a regression only: issue 46's real A/A count)
	local gate=0
	./compare.sh "$1/$2"/a"$3"-* "${vs[@]}" "$1/$2"/b"$3"-* >/dev/null 2>"$1/cmp.err" || gate=$?
	if [ "$gate" != 0 ] && [ "$gate" != 1 ]; then
		cat "$1/cmp.err" >&2
		log "aa.sh: compare of $2 pair $3 failed (exit status $gate)"
		return 1
	fi
	printf '%s pair %s: exit %s, gate %s\n' "$2" "$3" "$rc" "$gate" >>"$1/exits"
	# test,base,new,mode,tasks,...,verdict at its column, by name
	awk -F, -v pair="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s %s %s pair %s: %s %s%% +- %s%%\n", $c["test"], $c["mode"], $c["tasks"], pair,
			$c["verdict"], $c["change_pct"], $c["change_pm_pct"] }' "$1/cmp.csv"
}

# split_run DIR RUN: the run directory RUN as two, a<N> (odd runs) and b<N>
# (even runs, renumbered 1, 2, ...) next to it, in DIR/<test>/
split_run() {
	local run=$2 test n=$3 side keep
	test=$(sed -n 's/^test=//p' "$run/meta")
	for side in a b; do
		keep=$([ "$side" = a ] && echo 1 || echo 0)
		mkdir -p "$1/$test/$side$n-split"
		sed "s/^label=.*/label=$side$n/; s/^run_id=.*/run_id=$side$n-split/" "$run/meta" >"$1/$test/$side$n-split/meta"
		awk -F, -v OFS=, -v keep="$keep" 'NR == 1 { print; next }
			$3 % 2 == keep { $3 = int(($3 + 1) / 2); print }' "$run/samples.csv" >"$1/$test/$side$n-split/samples.csv"
	done
}

main() {
	local tests points mode pairs extra=() tmp p side k t0 t1 ms=0 lines total alarms nmodes=1 nsw per ncmp ones anyp
	cd "$(dirname "$0")/../.."
	read -ra tests <<<"${TESTS:-getppid1 pipe1 page_fault1}"
	points=${POINTS:-1,2} mode=${MODE:-processes} pairs=${PAIRS:-7}
	if [ "$mode" = both ]; then nmodes=2; fi
	read -ra extra <<<"${SWEEP_ARGS:-}"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	make -s >/dev/null
	: >"$tmp/exits"
	log "aa.sh: ${#tests[@]} testcases (${tests[*]}) at $points, $mode, $pairs pairs; load $(load); $(date -u +%FT%TZ)"
	for ((p = 1; p <= pairs; p++)); do
		if [ -n "${SPLIT:-}" ]; then
			t0=$(date +%s%N)
			./runtest.sh "${tests[@]}" --points "$points" --mode "$mode" --label "s$p" --results "$tmp/sweeps" \
				--repeat $((2 * SPLIT)) --quiet "${extra[@]}" >"$tmp/dirs"
			t1=$(date +%s%N)
			ms=$((ms + (t1 - t0) / 1000000))
			while read -r d; do split_run "$tmp" "$d" "$p"; done <"$tmp/dirs"
		fi
		if [ -n "${SWEEPS:-}" ]; then
			if [ ${#extra[@]} = 0 ]; then extra=(--repeat 1); fi
			for ((k = 1; k <= SWEEPS; k++)); do
				for side in a b; do
					t0=$(date +%s%N)
					./runtest.sh "${tests[@]}" --points "$points" --mode "$mode" --label "$side$p" \
						--results "$tmp" --quiet "${extra[@]}" >/dev/null
					t1=$(date +%s%N)
					ms=$((ms + (t1 - t0) / 1000000))
				done
			done
		fi
		for side in a b; do
			if [ -n "${SPLIT:-}" ] || [ -n "${SWEEPS:-}" ]; then break; fi
			t0=$(date +%s%N)
			./runtest.sh "${tests[@]}" --points "$points" --mode "$mode" --label "$side$p" --results "$tmp" \
				--quiet "${extra[@]}" >/dev/null
			t1=$(date +%s%N)
			ms=$((ms + (t1 - t0) / 1000000))
		done
		for t in "${tests[@]}"; do compare_pair "$tmp" "$t" "$p"; done | tee -a "$tmp/lines"
	done
	lines=$(cat "$tmp/lines")
	total=$(grep -c . <<<"$lines" || true)
	alarms=$(grep -cE ': (faster|slower) ' <<<"$lines" || true)
	printf 'comparisons: %d, false alarms: %d (%s%%)\n' "$total" "$alarms" \
		"$(awk -v a="$alarms" -v n="$total" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')"
	# per comparison: a pair of one testcase, all its points judged at once
	ncmp=$(grep -c . "$tmp/exits" || true)
	ones=$(grep -c ': exit 1,' "$tmp/exits" || true)
	gates=$(grep -c ', gate 1$' "$tmp/exits" || true)
	anyp=$(awk '/: (faster|slower) / { k = $1 " " $5; if (!(k in seen)) { seen[k]; n++ } } END { print n + 0 }' <<<"$lines")
	printf 'per comparison (one testcase, all its points): %d, exit 1 (the default gate, a regression): %d (%s%%); (--fail-on change): %d (%s%%); some point significant alone (the per-point gate): %d (%s%%)\n' \
		"$ncmp" "$gates" "$(awk -v a="$gates" -v n="$ncmp" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')" \
		"$ones" "$(awk -v a="$ones" -v n="$ncmp" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')" \
		"$anyp" "$(awk -v a="$anyp" -v n="$ncmp" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')"
	nsw=$((2 * pairs))
	if [ -n "${SPLIT:-}" ]; then nsw=$pairs; fi
	per=$((2 * pairs))	# "a point": one side's point, all its runs
	if [ -n "${SWEEPS:-}" ]; then nsw=$((2 * pairs * SWEEPS)) per=$((2 * pairs)); fi
	printf 'sweeps: %d, wall time %d s, %.1f s a point (a point: one mode at one task count, one side)\n' "$nsw" \
		$((ms / 1000)) "$(awk -v ms="$ms" -v n=$((per * nmodes * ${#tests[@]} * $(tr ',' '\n' <<<"$points" | wc -l))) \
			'BEGIN { printf "%.1f", ms / 1000 / n }')"
	printf 'load at the end: %s; %s\n' "$(load)" "$(date -u +%FT%TZ)"
}

main "$@"
