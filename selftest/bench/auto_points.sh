#!/usr/bin/env bash
# auto_points.sh: --points auto against --points all on the curve fixture's known shapes: counts, wall time, the peak, the largest gap.
# Not part of make check (a full sweep of 96 counts takes minutes). For each
# shape, two sweeps of selftest/fixtures/curve.c (whose total rate is a known
# function of the task count, docs/RUNTEST.md "The curve fixture"), both modes,
# the same run options: --points auto and --points all. Per shape and mode:
# the counts each measured and each sweep's wall time; the peak each found
# (summary.csv's _peak columns: best and plateau) and whether auto's best is
# the function's (one of the counts where it is largest); and the largest
# gap between the auto curve (straight lines between its measured counts)
# and each full-sweep point, in units of that point's own 95% half-width,
# with how many full-sweep points lie outside their interval from the auto
# curve (gap > 1; the nominal rate is 5%).
# SHAPES (default "peak6"; all five: "peak6 smt numa linear plateau"), MAX
# (96), NOISE (2: % sd of a run's total), RUN_ARGS (default "--repeat 3
# --period-ms 100 --warmup 0.2 --duration 0.3"), PARAMS (more --param
# NAME=VALUE for the fixture), KEEP=1 keeps the runs. Prints a markdown table.
set -eu

log() { printf '%s\n' "$*" >&2; }

now_ms() { printf '%d' $(($(date +%s%N) / 1000000)); }

# argmax SHAPE MAX: the task counts where the shape's total is largest, "LO-HI"
argmax() {
	case $1 in
	peak6) echo 6-6 ;;
	smt) echo "$cores-$2" ;;
	plateau) echo "16-$2" ;;
	*) echo "$2-$2" ;;
	esac
}

# sweep SHAPE POINTS: one sweep -> "RUNDIR WALL_MS" on stdout
sweep() {
	local t0 t1 run
	t0=$(now_ms)
	run=$(SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh curve --max-procs "$max" --points "$2" \
		--param shape="$1" --param noise="$noise" --param seed="$seed" "${params[@]}" \
		"${run_args[@]}" --label "$1-$2" --results "$tmp" --quiet)
	t1=$(now_ms)
	seed=$((seed + 1))
	printf '%s %d\n' "$run" $((t1 - t0))
}

# columns MODE < summary.csv: "tasks mean ci peak" of MODE's measured rows
columns() {
	awk -F, -v m="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 > 0 && $(c[m]) != "" { print $1, $(c[m]), $(c[m "_ci"]), $(c[m "_peak"]) }'
}

# peak FILE: "BEST (LO-HI)" from "tasks mean ci peak" lines
peak() {
	awk '$4 != "" { if (lo == "") lo = $1; hi = $1 } $4 == 2 { b = $1 }
		END { printf "%s (%s)", b, lo == hi ? lo : lo "-" hi }' "$1"
}

# gaps AUTO FULL: "MAXGAP AT OUTSIDE COMPARED BOTH_OUTSIDE BOTH": each full point against
# the auto curve; BOTH_* the counts both sweeps measured, where the gap is two sweeps'
# run-to-run difference alone (the floor the interpolated counts are seen against)
gaps() {
	awk 'NR == FNR { n++; x[n] = $1; y[n] = $2; m[$1] = 1; next }
		$3 == "" || $3 <= 0 { next }
		{
			for (i = 1; i < n && x[i + 1] < $1; i++) ;
			if ($1 < x[1] || $1 > x[n]) next
			v = (i < n && x[i + 1] > x[i]) ? y[i] + (y[i + 1] - y[i]) * ($1 - x[i]) / (x[i + 1] - x[i]) : y[i]
			if ($1 == x[i + 1]) v = y[i + 1]
			g = (v > $2 ? v - $2 : $2 - v) / $3
			k++
			if (g > 1) out++
			if (g > worst) { worst = g; at = $1 }
			if ($1 in m) { kb++; if (g > 1) ob++ }
		}
		END { printf "%.2f %s %d %d %d %d\n", worst, at == "" ? "-" : at, out, k, ob, kb }' "$1" "$2"
}

main() {
	local shapes s mode auto full aw fw an fn pa pf exact best lo hi g at out k ob kb
	cd "$(dirname "$0")/../.."
	read -ra shapes <<<"${SHAPES:-peak6}"
	max=${MAX:-96} noise=${NOISE:-2} seed=1 cores=48
	read -ra run_args <<<"${RUN_ARGS:---repeat 3 --period-ms 100 --warmup 0.2 --duration 0.3}"
	params=()
	for p in ${PARAMS:-}; do
		params+=(--param "$p")
		case $p in cores=*) cores=${p#cores=} ;; esac
	done
	SB_BUILD=${SB_BUILD:-build}
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	make -s >/dev/null
	make -s fixtures >/dev/null
	log "auto_points.sh: ${shapes[*]} to $max tasks, noise $noise%, ${run_args[*]}; load $(cut -d ' ' -f 1-3 /proc/loadavg); $(date -u +%FT%TZ)"
	echo "| shape | mode | counts auto / all | wall auto / all | peak auto (plateau) | peak all (plateau) | function's peak | auto's best exact | largest gap (at) | all's points outside | of them at counts auto measured |"
	echo "|---|---|---:|---:|---|---|---|---|---:|---:|---:|"
	for s in "${shapes[@]}"; do
		read -r auto aw <<<"$(sweep "$s" auto)"
		read -r full fw <<<"$(sweep "$s" all)"
		for mode in processes threads; do
			columns "$mode" <"$auto/summary.csv" >"$tmp/auto.$mode"
			columns "$mode" <"$full/summary.csv" >"$tmp/full.$mode"
			an=$(wc -l <"$tmp/auto.$mode")
			fn=$(wc -l <"$tmp/full.$mode")
			pa=$(peak "$tmp/auto.$mode")
			pf=$(peak "$tmp/full.$mode")
			IFS=- read -r lo hi <<<"$(argmax "$s" "$max")"
			best=${pa%% *}
			exact=no
			if [ -n "$best" ] && [ "$best" -ge "$lo" ] && [ "$best" -le "$hi" ]; then exact=yes; fi
			read -r g at out k ob kb <<<"$(gaps "$tmp/auto.$mode" "$tmp/full.$mode")"
			printf '| %s | %s | %d / %d | %.0f s / %.0f s | %s | %s | %s | %s | %s (%s) | %d of %d | %d of %d |\n' \
				"$s" "$mode" "$an" "$fn" "$(awk -v v="$aw" 'BEGIN { print v / 1000 }')" \
				"$(awk -v v="$fw" 'BEGIN { print v / 1000 }')" "$pa" "$pf" \
				"$([ "$lo" = "$hi" ] && echo "$lo" || echo "$lo-$hi")" "$exact" "$g" "$at" "$out" "$k" "$ob" "$kb"
		done
		log "auto_points.sh: $s done ($(date -u +%T)); load $(cut -d ' ' -f 1-3 /proc/loadavg)"
	done
}

main "$@"
