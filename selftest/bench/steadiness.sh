#!/usr/bin/env bash
# How steady this machine runs over minutes, by the reference loop (issue 46 item 9), and what the loop costs a sweep.
#
#   selftest/bench/steadiness.sh [--seconds S] [--pairs N] [--sweeps N] [--track TEST N] [--no-series]
#
#   --seconds S   the series: the loop for S seconds in 1 s slices (default 120)
#   --pairs N     back-to-back pairs of a sweep's 300 ms readings (default 20)
#   --sweeps N    tiny sweeps with the readings on and off, alternated, for what they add (default 6)
#   --track TEST N  N alternations of a 1 s run of TEST (1 task, processes) and a 1 s reading
#                 (default: none): does the loop track the testcase?
#   --no-series   skip the series (the cost and the pairs only)
#
# 1. The series: `sb-machine reference --ms S000 --slices S --series`: each second's
#    rate (loop iterations a second), then their median, range, the span within each
#    5 s window (what --check-system's 5 s would have said then) and the largest change
#    from one second to the next.
# 2. The pairs: two 300 ms readings (a sweep's, SB_MACHINE_REFERENCE_MS's default)
#    one after the other, N times: how far apart they are against the larger of
#    their two spans, the test compare.sh's note applies between two sweeps. The
#    count of pairs apart by more is how often back-to-back readings alone would
#    draw the note.
# 3. The cost: a one-run sweep of the paced fixture (0.1 s measured), alternately
#    with SB_MACHINE_REFERENCE_MS=300 and =0, N times each: the medians' difference
#    is what the two readings add to every testcase's sweep.
# 4. The tracking (--track): TEST's runner for one 1 s sample, then the loop for
#    1 s, N times: Pearson's r between each run's ops/s and the reading after it,
#    and between the changes from one pair to the next (which a shared slow
#    minute would move together), and the runs' sd (of the log) against that of
#    the runs divided by the readings: a loop that tracked the testcase would give
#    r near 1 and a smaller sd divided; only then could it be a divisor.
#
# The build is SB_BUILD's (default build/; made first). Run it alone: it measures the machine.
set -eu

tmp=''
cleanup() {
	if [ -n "$tmp" ]; then rm -rf -- "$tmp"; fi
}
trap cleanup EXIT

usage() {
	sed -n '3,8s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

median() {	# the median of the numbers on stdin
	sort -g | awk '{ v[++n] = $1 } END { if (n == 0) exit 1; print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

series() {	# series SECONDS: the 1 s rates, then their summary
	local s=$1
	printf '## The reference loop, %s s in 1 s slices (%s, %s)\n\n' "$s" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(uname -n)"
	printf 'load average before: %s\n\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	"$M" reference --ms "$((s * 1000))" --slices "$s" --series >"$tmp/series"
	printf '| second | rate (M iterations/s) |\n|---:|---:|\n'
	awk -F'\t' '/^[0-9]/ { printf "| %s | %.1f |\n", $1, $3 / 1e6 }' "$tmp/series"
	printf '\n'
	awk -F'\t' '/^[0-9]/ { v[++n] = $3 }
	END {
		for (i = 1; i <= n; i++) { if (i == 1 || v[i] < lo) lo = v[i]; if (i == 1 || v[i] > hi) hi = v[i] }
		for (i = 2; i <= n; i++) { c = v[i] / v[i - 1] - 1; if (c < 0) c = -c; if (c > step) step = c }
		for (i = 1; i + 4 <= n; i++) {
			for (j = 0; j < 5; j++) { x = v[i + j]; for (m = j; m > 0 && u[m - 1] > x; m--) u[m] = u[m - 1]; u[m] = x }
			w = (u[4] - u[0]) / u[2]; if (w > wmax) wmax = w; if (i == 1 || w < wmin) wmin = w; k++
			if (w >= 0.05) unsteady++
		}
		printf "min %.1fM, max %.1fM iterations/s: max/min %.2f; the largest change from one second to the next %.1f%%\n",
			lo / 1e6, hi / 1e6, hi / lo, 100 * step
		if (k) printf "5 s windows: span %.1f%% to %.1f%% ((max - min) / median, as sb-machine reference); %d of %d windows at 5%% or more (--check-system: unsteady)\n",
			100 * wmin, 100 * wmax, unsteady, k
	}' "$tmp/series"
	grep -v '^[#0-9]' "$tmp/series" | head -n 1
	printf '\n'
}

pairs() {	# pairs N: back-to-back 300 ms readings
	local n=$1 i a b
	printf '## %s pairs of back-to-back 300 ms readings (a sweep'"'"'s)\n\n' "$n"
	for ((i = 0; i < n; i++)); do
		a=$("$M" reference --ms 300 --slices 10 --short)
		b=$("$M" reference --ms 300 --slices 10 --short)
		printf '%s\t%s\n' "$a" "$b"
	done | awk -F'\t' '
	function get(s, k,   m) { m = s; sub(".*" k "=", "", m); sub(" .*", "", m); return m + 0 }
	{
		ra = get($1, "rate"); rb = get($2, "rate"); sa = get($1, "span"); sb = get($2, "span")
		apart = 100 * ((ra > rb) ? ra / rb - 1 : rb / ra - 1); within = (sa > sb) ? sa : sb
		n++; if (apart > within) note++; sum_a += apart; sum_w += within
		if (apart > max_a) max_a = apart
	}
	END {
		printf "apart: mean %.1f%%, max %.1f%%; the larger span: mean %.1f%%\n", sum_a / n, max_a, sum_w / n
		printf "apart by more than the larger span (compare.sh would note it): %d of %d\n\n", note, n
	}'
}

cost() {	# cost N: a tiny sweep with and without the readings, alternated
	local n=$1 i v t0 t1
	local sweep=(paced --points 1 --mode processes --duration 0.1 --warmup 0 --period-ms 100 --repeat 1
		--quiet --no-history --results "$tmp/r")
	export SB_TESTS_DIR=$SB_BUILD_ABS/selftest SB_MACHINE_LOCK=$tmp/lock SB_MACHINE_BUSY_PCT=101
	./runtest.sh "${sweep[@]}" >/dev/null	# untimed: the tools made, the caches warm
	for ((i = 0; i < n; i++)); do
		for v in 300 0; do
			t0=$EPOCHREALTIME
			SB_MACHINE_REFERENCE_MS=$v ./runtest.sh "${sweep[@]}" >/dev/null
			t1=$EPOCHREALTIME
			printf '%s %s\n' "$v" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
		done
	done >"$tmp/cost"
	printf '## What the readings add to a sweep (%s tiny sweeps each way, alternated)\n\n' "$n"
	printf 'median wall time: with the readings (300 ms at each end) %s s, without %s s: +%s s a testcase\n' \
		"$(awk '$1 == 300 { print $2 }' "$tmp/cost" | median)" "$(awk '$1 == 0 { print $2 }' "$tmp/cost" | median)" \
		"$(awk -v on="$(awk '$1 == 300 { print $2 }' "$tmp/cost" | median)" \
			-v off="$(awk '$1 == 0 { print $2 }' "$tmp/cost" | median)" 'BEGIN { printf "%.2f", on - off }')"
}

track() {	# track TEST N: the testcase's 1 s runs and the loop's 1 s readings, alternated
	local test=$1 n=$2 i run ref
	printf '## Does the loop track %s? %s alternations of a 1 s run (1 task) and a 1 s reading\n\n' "$test" "$n"
	for ((i = 0; i < n; i++)); do
		run=$(SB_MACHINE_LOCK=$tmp/lock "$SB_BUILD_ABS/bin/${test}_processes" -t 1 -s 1 --warmup 0 --period-ms 1000 --format csv --no-header |
			awk -F, '$1 == "measure" { print $5 }')
		ref=$("$M" reference --ms 1000 --slices 1 --short)
		ref=${ref#*rate=}
		printf '%s %s\n' "$run" "${ref%% *}"
	done | awk '
	function r(n, x, y,   i, mx, my, sxy, sxx, syy) {
		for (i = 1; i <= n; i++) { mx += x[i] / n; my += y[i] / n }
		for (i = 1; i <= n; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2; syy += (y[i] - my) ^ 2 }
		return (sxx > 0 && syy > 0) ? sxy / sqrt(sxx * syy) : "n/a"
	}
	{ a[++n] = $1; b[n] = $2; if (n > 1) { da[n - 1] = $1 / a[n - 1] - 1; db[n - 1] = $2 / b[n - 1] - 1 } }
	function sd(n, x,   i, m, ss) {
		for (i = 1; i <= n; i++) m += x[i] / n
		for (i = 1; i <= n; i++) ss += (x[i] - m) ^ 2
		return sqrt(ss / (n - 1))
	}
	END {
		for (i = 1; i <= n; i++) { la[i] = log(a[i]); lq[i] = log(a[i] / b[i]) }
		printf "r between a run and the reading after it: %.2f (%d pairs)\n", r(n, a, b), n
		printf "r between their changes from one pair to the next: %.2f\n", r(n - 1, da, db)
		printf "the runs'"'"' sd: %.1f%%; of the runs divided by the readings: %.1f%% (a divisor helps only if smaller)\n\n",
			100 * sd(n, la), 100 * sd(n, lq)
	}'
}

main() {
	local seconds=120 npairs=20 nsweeps=6 do_series=1 track_test='' track_n=0
	while [ $# -gt 0 ]; do
		case $1 in
		--seconds) seconds=${2:?}; shift ;;
		--pairs) npairs=${2:?}; shift ;;
		--sweeps) nsweeps=${2:?}; shift ;;
		--track) track_test=${2:?} track_n=${3:?}; shift 2 ;;
		--no-series) do_series=0 ;;
		*) usage ;;
		esac
		shift
	done
	for v in "$seconds" "$npairs" "$nsweeps" ${track_test:+"$track_n"}; do
		case $v in '' | *[!0-9]* | 0*) usage ;; esac
	done
	cd "$(dirname "$0")/../.."
	SB_BUILD=${SB_BUILD:-build}
	case $SB_BUILD in /*) SB_BUILD_ABS=$SB_BUILD ;; *) SB_BUILD_ABS=$PWD/$SB_BUILD ;; esac
	export SB_BUILD
	make -s BUILD="$SB_BUILD" "$SB_BUILD/bin/sb-machine" "$SB_BUILD/selftest/paced_processes" \
		"$SB_BUILD/selftest/paced_threads" ${track_test:+"$SB_BUILD/bin/${track_test}_processes"} >/dev/null
	M=$SB_BUILD_ABS/bin/sb-machine
	tmp=$(mktemp -d)
	if [ "$do_series" = 1 ]; then series "$seconds"; fi
	if [ "$track_n" -gt 0 ]; then track "$track_test" "$track_n"; fi
	pairs "$npairs"
	cost "$nsweeps"
}

main "$@"
