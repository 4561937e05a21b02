#!/usr/bin/env bash
# lkp_time.sh: the wall time of lkp-tests' own will-it-scale run script on make install-lkp's tree, against
# will-it-scale's (from its runtest.py and main.c: points x modes x (duration + 6) s), and each point's interval.
#
#   LKP_SRC=<lkp-tests checkout> selftest/bench/lkp_time.sh [TEST]      (default unix1; about 70 s)
#
# Prints a Markdown table (docs/LKP.md "lkp's time"). Needs the build (make) and
# LKP_SRC; ruby is not needed (lkp's parse is not timed).
set -eu
cd "$(dirname "$0")/../.."

tmp=''
cleanup() { if [ -n "$tmp" ]; then rm -rf -- "$tmp"; fi; }

die() { echo "lkp_time.sh: $*" >&2; exit "$1"; }

# nodes: lkp's nr_node (sysinfo.sh), for its sweep's duration
nodes() { echo /sys/devices/system/node/node* | wc -w; }

# lkp_job LABEL MODE RUNTIME [NR_TASK]: one lkp job through lkp's run script -> one table row
lkp_job() {
	local label=$1 mode=$2 runtime=$3 nr_task=${4-} start end call args duration points modes wis got prec task=()
	rm -rf "$tmp/r"
	if [ -n "$nr_task" ]; then task=(nr_task="$nr_task"); fi	# ("1 2": lkp's run splits it)
	start=$(date +%s%N)
	env LKP_SRC="$LKP_SRC" BENCHMARK_ROOT="$tmp/lkp" suite=will-it-scale test="$TEST" mode="$mode" \
		runtime="$runtime" "${task[@]}" SB_RESULTS="$tmp/r" \
		bash "$LKP_SRC/programs/will-it-scale/run" >"$tmp/out" 2>"$tmp/err" ||
		die 1 "lkp's run failed: $(grep -v ulimit "$tmp/err" | tail -n 2 | tr '\n' ' ')"
	end=$(date +%s%N)
	call=$(grep -o 'python3 \./runtest\.py .*' "$tmp/out")
	read -r -a args <<<"${call#python3 ./runtest.py }"
	duration=${args[1]} points=$((${#args[@]} - 5))
	modes=1
	if [ "$mode" = both ]; then modes=2; fi
	wis=$((points * modes * (duration + 6)))
	got=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", (e - s) / 1e9 }')
	# each point's 95% interval, +-% of its mean (summary.csv's *_precision), as measured
	prec=$(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 != 0 {
		for (m = 0; m < 2; m++) { k = (m ? "threads" : "processes") "_precision"
			if ($c[k] != "") printf "%s%s%d: +-%.1f%%", sep, (m ? "t" : "p"), $1, $c[k]; sep = ", " } }' \
		"$(find "$tmp/r" -name summary.csv ! -path '*/latest/*' | head -n 1)")
	printf '| %s | `%s` | %d x %d x (%d + 6) = %d s | %s s | %+.0f%% | %s |\n' "$label" "${call#python3 }" \
		"$points" "$modes" "$duration" "$wis" "$got" "$(awk -v g="$got" -v w="$wis" 'BEGIN { print (g / w - 1) * 100 }')" "$prec"
}

main() {
	TEST=${1:-unix1}
	[ -n "${LKP_SRC-}" ] && [ -f "$LKP_SRC/programs/will-it-scale/run" ] ||
		die 2 "set LKP_SRC to an lkp-tests checkout"
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT TERM HUP
	tmp=$(mktemp -d)
	make -s -j2 >/dev/null
	make -s install-lkp DESTDIR="$tmp/lkp/will-it-scale" >/dev/null
	echo "| lkp job | what lkp's run calls | will-it-scale: points x modes x (duration + 6 s) | scalebench | difference | 95% interval a point (p: processes, t: threads) |"
	echo "|---|---|---|---|---|---|"
	lkp_job "one-shot, runtime=7, mode=process" process 7 1
	lkp_job "one-shot, runtime=7, mode=both" both 7 1
	lkp_job "two points, runtime=7, nr_task='1 2', mode=process" process 7 "1 2"
	lkp_job "sweep, runtime=1, mode=both ($(nodes) node)" both 1
	# The machine's load says how wide the intervals may honestly be.
	echo
	echo "load average after (1, 5, 15 min): $(cut -d ' ' -f 1-3 /proc/loadavg)"
}

main "$@"
