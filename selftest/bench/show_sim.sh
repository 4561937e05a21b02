#!/usr/bin/env bash
# show_sim.sh: sb-history show's words against the machine's drift between sweeps (issue 46), a row a drift cell: A/A histories' column pairs that call a difference, and a -10% step seen by "vs previous".
#
#   selftest/bench/show_sim.sh     (N=200 histories a cell; DRIFTS="0 0.5 1 2 5"; COUNTS=4)
#
# Each history is build/selftest/history_gen's: 6 kernels (one sweep each), 3 runs, 2% run sd,
# DRIFT % sd of a sweep's offset (one a sweep, shared by its points), COUNTS counts x 2 modes;
# stored by sb-history add and shown by `sb-history show --format csv`, whose drift is learned
# from that history as it is (never given). Columns:
#   aa pairs   A/A: the column pairs (vs first and vs previous, 10 a history) with any word
#              other than "same" (nominal: 5%, two-sided), and its standard error over histories
#   aa words   A/A: the words other than "same" among all words
#   step seen  a -10% step at every count from kernel 4: histories whose column 4 says "worse"
#              vs previous on both modes' curve rows
# Not part of make check.
set -eu

log() { printf '%s\n' "$*" >&2; }

# one CELL DRIFT SEED DIR: the csv of one history
one() {
	local cell=$1 drift=$2 seed=$3 dir=$4 extra=()
	rm -rf "$dir"
	if [ "$cell" = step ]; then extra=(--cell broad --step-at 4 --step-pct -10); fi
	"$B/selftest/history_gen" --out "$dir/r" --kernels 6 --runs 3 --run-sd 2 --sweep-sd "$drift" \
		--counts "$COUNTS" --summary none --seed "$seed" "${extra[@]}" >/dev/null 2>&1
	"$B/bin/sb-history" add --db "$dir/h.db" "$dir"/r/histsim1/k* >/dev/null 2>&1
	"$B/bin/sb-history" show histsim1 --db "$dir/h.db" --format csv
}

main() {
	local d i aa step
	cd "$(dirname "$0")/../.."
	B=${SB_BUILD:-build} N=${N:-200} DRIFTS=${DRIFTS:-0 0.5 1 2 5} COUNTS=${COUNTS:-4}
	make -s "$B/bin/sb-history" fixtures >/dev/null
	tmp=$(mktemp -d)
	trap 'rm -rf -- "$tmp"' EXIT
	log "show_sim.sh: $N histories a cell, 6 kernels, 3 runs, 2% run sd, $((2 * COUNTS)) points, $(date -u +%FT%TZ), $(uname -n)"
	printf '%-8s %14s %10s %10s\n' drift "aa pairs" "aa words" "step seen"
	for d in $DRIFTS; do
		aa=$(for ((i = 1; i <= N; i++)); do one aa "$d" "$i" "$tmp/h" | awk -F, -v h="$i" '
			NR > 1 && $15 != "" { print h, "f" $5, ($15 != "same") }
			NR > 1 && $19 != "" { print h, "p" $5, ($19 != "same") }'; done |
			awk '{ pair[$1 " " $2] += $3; words++; diff += $3 }
			END {
				for (k in pair) { n++; split(k, a, " "); h[a[1]] += pair[k] > 0; hn[a[1]]++; any += pair[k] > 0 }
				for (x in h) { r = h[x] / hn[x]; s += r; ss += r * r; m++ }
				mean = s / m; se = sqrt((ss / m - mean * mean) / (m - 1))
				printf "%5.1f%% +-%.1f %9.1f%%", 100 * any / n, 100 * se, 100 * diff / words }')
		step=$(for ((i = 1; i <= N; i++)); do one step "$d" "$((i + 100000))" "$tmp/h" | awk -F, -v h="$i" '
			NR > 1 && $8 == "curve" && $4 == "k04" { n++; w += ($19 == "worse") }
			END { print (n == 2 && w == 2) }'; done | awk '{ s += $1; n++ } END { printf "%9.1f%%", 100 * s / n }')
		printf '%-8s %14s %10s\n' "$d%" "$aa" "$step"
	done
}

main "$@"
