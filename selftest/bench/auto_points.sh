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
# curve (gap > 1; the nominal rate is 5%). The function being known, also
# the largest error of the auto curve against it, in % of the function,
# beside the full sweep's own largest error (what measuring every count
# with these runs gets).
# SHAPES (default "peak6"; all five: "peak6 smt numa linear plateau"), MAX
# (96), NOISE (2: % sd of a run's total), RUN_ARGS (default "--repeat 3
# --period-ms 100 --warmup 0.2 --duration 0.3"), PARAMS (more --param
# NAME=VALUE for the fixture), KEEP=1 keeps the runs. Prints a markdown table.
# FROM=DIR: no sweeps, the table of DIR's kept runs (DIR/curve/SHAPE-auto-*,
# SHAPE-all-*; wall times "-").
# The own-interval figure cannot hold at 5% even for a perfect planner (the
# full point and the auto curve are two independent estimates), so beside it
# the sound one: the gap in units of the combined half-width
# sqrt(h_full^2 + h_auto^2), h_auto at an unmeasured count n between the
# measured a < n < b being h_a + (h_b - h_a) (n - a) / (b - a), and the share
# of full-sweep points outside that (nominally 5%).
# SIM=1: no runner, no sweeps: the planner (analysis/plan/plan.c, compiled here
# with selftest/bench/auto_points_sim.c) on each shape's function with
# synthetic noise, --repeat 3, TRIALS (50) seeded sweeps a shape: NOISE % sd
# a run, and with DIST % chance (3) a disturbed run, off by DIST_SIZE % (25)
# times 0.5 to 1.5, either sign. SIM_REV=COMMIT compiles analysis/plan/plan.c as
# it was at COMMIT instead (the rule before a change, for comparison).
set -eu

log() { printf '%s\n' "$*" >&2; }

now_ms() { printf '%d' $(($(date +%s%N) / 1000000)); }

# secs MS: "12 s", or "-" for -1 (FROM)
secs() { if [ "$1" -lt 0 ]; then echo -; else awk -v v="$1" 'BEGIN { printf "%.0f s", v / 1000 }'; fi; }

# argmax SHAPE MAX: the task counts where the shape's total is largest, "LO-HI"
argmax() {
	case $1 in
	peak6) echo 6-6 ;;
	smt) if [ "$cores" -lt "$2" ]; then echo "$cores-$2"; else echo "$2-$2"; fi ;;	# flat from cores on
	plateau) echo "16-$2" ;;
	*) echo "$2-$2" ;;
	esac
}

# sweep SHAPE POINTS: one sweep -> "RUNDIR WALL_MS" on stdout (FROM: a kept run, wall -1)
sweep() {
	local t0 t1 run
	if [ -n "${FROM:-}" ]; then
		run=$(find "$FROM/curve" -mindepth 1 -maxdepth 1 -type d -name "$1-$2-*" | sort | tail -n 1)
		[ -n "$run" ] || { log "auto_points.sh: no $1-$2 run in $FROM"; exit 2; }
		printf '%s -1\n' "$run"
		return
	fi
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

# gaps AUTO FULL: "MAXGAP AT OUTSIDE COMPARED BOTH_OUTSIDE BOTH SOUNDGAP SOUNDAT SOUNDOUT":
# each full point against the auto curve; BOTH_* the counts both sweeps measured, where
# the gap is two sweeps' run-to-run difference alone (the floor the interpolated counts
# are seen against); SOUND* the gap in units of sqrt(h_full^2 + h_auto^2), h_auto
# interpolated between the measured neighbours' half-widths like the curve (0 for a
# count of one run)
gaps() {
	awk 'NR == FNR { n++; x[n] = $1; y[n] = $2; h[n] = $3 + 0; m[$1] = 1; next }
		$3 == "" || $3 <= 0 { next }
		{
			for (i = 1; i < n && x[i + 1] < $1; i++) ;
			if ($1 < x[1] || $1 > x[n]) next
			t = (i < n && x[i + 1] > x[i]) ? ($1 - x[i]) / (x[i + 1] - x[i]) : 0
			v = y[i] + (y[i + 1] - y[i]) * t
			ha = h[i] + (h[i + 1] - h[i]) * t
			if ($1 == x[i + 1]) { v = y[i + 1]; ha = h[i + 1] }
			if ($1 == x[i]) { v = y[i]; ha = h[i] }
			d = v > $2 ? v - $2 : $2 - v
			g = d / $3
			gs = d / sqrt($3 * $3 + ha * ha)
			k++
			if (g > 1) out++
			if (gs > 1) sout++
			if (g > worst) { worst = g; at = $1 }
			if (gs > sworst) { sworst = gs; sat = $1 }
			if ($1 in m) { kb++; if (g > 1) ob++ }
		}
		END { printf "%.2f %s %d %d %d %d %.2f %s %d\n", worst, at == "" ? "-" : at, out, k, ob, kb,
			sworst, sat == "" ? "-" : sat, sout }' "$1" "$2"
}

# fn_error SHAPE AUTO FULL: "AUTO_ERR AT FULL_ERR": the largest |curve - function| in % of
# the function over 1..MAX, the auto curve interpolated, the full sweep at its points
fn_error() {
	awk -v s="$1" -v max="$max" -v rate="$rate" -v cores="$cores" -v knee="$knee" '
		function f(n) {
			if (s == "linear") return n
			if (s == "peak6") return n <= 6 ? n : 6 * sqrt(6 / n)
			if (s == "smt") return n <= cores ? n : cores
			if (s == "numa") return n <= knee ? n : knee + (n - knee) / 2
			return n <= 16 ? n : 16
		}
		function err(v, n,  e) { e = 100 * (v - rate * f(n)) / (rate * f(n)); return e < 0 ? -e : e }
		FILENAME == ARGV[1] { k++; x[k] = $1; y[k] = $2; next }
		{ e = err($2, $1); if (e > fe) fe = e }
		END {
			for (n = x[1]; n <= x[k]; n++) {
				for (i = 1; i < k && x[i + 1] < n; i++) ;
				v = (i < k && x[i + 1] > x[i]) ? y[i] + (y[i + 1] - y[i]) * (n - x[i]) / (x[i + 1] - x[i]) : y[i]
				e = err(v, n)
				if (e > ae) { ae = e; at = n }
			}
			printf "%.1f %s %.1f\n", ae, at == "" ? "-" : at, fe
		}' "$2" "$3"
}

# simulate SHAPE...: SIM=1's table, the planner on synthetic noise (no runner)
simulate() {
	local s line most mean exact worst avg lines own sound plan_c=analysis/plan/plan.c
	if [ -n "${SIM_REV:-}" ]; then
		git show "$SIM_REV:analysis/plan/plan.c" >"$tmp/plan.c" || { log "auto_points.sh: no analysis/plan/plan.c at $SIM_REV"; exit 2; }
		plan_c=$tmp/plan.c
	fi
	"${CC:-cc}" -std=gnu11 -O2 -Wall -Wextra -I. -Ianalysis -Ianalysis/stat -Ianalysis/curve -Ianalysis/plan -Ianalysis/msg -Ianalysis/io -Ianalysis/rundir -o "$tmp/sim" selftest/bench/auto_points_sim.c \
		"$plan_c" analysis/curve/peak.c analysis/stat/stats.c analysis/stat/tquantile.c analysis/msg/msg.c -lm ||
		{ log "auto_points.sh: the simulation does not compile"; exit 3; }
	log "auto_points.sh: simulation${SIM_REV:+ of plan.c at $SIM_REV}: ${*} to $max tasks, ${TRIALS:-50} sweeps a shape, --repeat 3, noise $noise%, disturbed runs ${DIST:-3}% of +-${DIST_SIZE:-25}% x 0.5-1.5"
	echo "| shape | counts a mode: most (mean) | exact peak | auto curve vs the function: worst (mean of sweeps' worst) | lines through the function at auto's counts: worst | all's points outside own interval | outside combined interval |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for s in "$@"; do
		line=$("$tmp/sim" "$s" "$max" "${TRIALS:-50}" "$noise" "${DIST:-3}" "${DIST_SIZE:-25}") || exit 2
		read -r _ most mean exact worst avg lines own sound <<<"$line"
		printf '| %s | %s (%s) | %s | %s%% (%s%%) | %s%% | %s%% | %s%% |\n' "$s" "$most" "$mean" "$exact" "$worst" "$avg" \
			"$lines" "$own" "$sound"
	done
}

main() {
	local shapes s mode auto full aw fw an fn pa pf exact best lo hi g at out k ob kb ae aat fe sg sat sout
	cd "$(dirname "$0")/../.."
	read -ra shapes <<<"${SHAPES:-peak6}"
	max=${MAX:-96} noise=${NOISE:-2} seed=1 cores=48 knee=24 rate=100000
	read -ra run_args <<<"${RUN_ARGS:---repeat 3 --period-ms 100 --warmup 0.2 --duration 0.3}"
	params=()
	for p in ${PARAMS:-}; do
		params+=(--param "$p")
		case $p in cores=*) cores=${p#cores=} ;; knee=*) knee=${p#knee=} ;; rate=*) rate=${p#rate=} ;; esac
	done
	SB_BUILD=${SB_BUILD:-build}
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	if [ -n "${SIM:-}" ]; then
		simulate "${shapes[@]}"
		return
	fi
	if [ -z "${FROM:-}" ]; then
		make -s >/dev/null
		make -s fixtures >/dev/null
	fi
	log "auto_points.sh: ${shapes[*]} to $max tasks, noise $noise%, ${run_args[*]}; load $(cut -d ' ' -f 1-3 /proc/loadavg); $(date -u +%FT%TZ)"
	echo "| shape | mode | counts auto / all | wall auto / all | peak auto (plateau) | peak all (plateau) | function's peak | auto's best exact | largest gap (at) | all's points outside | of them at counts auto measured | error vs the function: auto (at) / all | combined gap (at) | outside combined |"
	echo "|---|---|---:|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|"
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
			read -r g at out k ob kb sg sat sout <<<"$(gaps "$tmp/auto.$mode" "$tmp/full.$mode")"
			read -r ae aat fe <<<"$(fn_error "$s" "$tmp/auto.$mode" "$tmp/full.$mode")"
			printf '| %s | %s | %d / %d | %s / %s | %s | %s | %s | %s | %s (%s) | %d of %d | %d of %d | %s%% (%s) / %s%% | %s (%s) | %d of %d |\n' \
				"$s" "$mode" "$an" "$fn" "$(secs "$aw")" "$(secs "$fw")" "$pa" "$pf" \
				"$([ "$lo" = "$hi" ] && echo "$lo" || echo "$lo-$hi")" "$exact" "$g" "$at" "$out" "$k" "$ob" "$kb" \
				"$ae" "$aat" "$fe" "$sg" "$sat" "$sout" "$k"
		done
		log "auto_points.sh: $s done ($(date -u +%T)); load $(cut -d ' ' -f 1-3 /proc/loadavg)"
	done
}

main "$@"
