#!/usr/bin/env bash
# gatesim.sh: the compare gate's false-alarm rate per comparison and its power, on synthetic sweeps fed to compare itself.
# Not part of make check (it takes minutes). Each comparison is two run
# directories written like a real sweep's (samples.csv, meta, and summary.csv
# by sb-summary) from a noise model: every point's run means are independent,
# normal around the point's value with a run-to-run sd of SD % (default 2),
# RUNS runs a point (3), SAMPLES samples a run (2, with 0.2% sd inside the run),
# both modes, at COUNTS task counts ("2 8 96": 4, 16 and 192 points). DRIFT
# (% sd, default 0) multiplies each sweep by its own factor: drift between
# sweeps, which one sweep a side cannot see. SWEEPS=S (2 or more): each side
# is S sweeps of RUNS runs a point, each with its own drift, pooled by compare
# --vs (the recipe for a drifting machine). Cells, for each size:
#   aa     both sides drawn alike: every exit 1 is a false alarm
#   broad  new is BROAD % (-5) at every count of both modes
#   local  new is LOCAL % (-20) at LOCAL_N (5) counts of processes, spread over
#          the curve (at most a sixteenth of the counts, at least one)
# N comparisons a cell (200). Every comparison is judged by every gate in
# GATES ("curves holm bh point", compare --gate) and, when OLD names an
# sb-compare binary (a build of the commit before the gate), by it too.
# Prints one line a cell: the rate of exit 1 for each gate, in %.
# CELLS ("aa broad local") chooses cells; COMPARE_ARGS adds compare options to
# every call (e.g. "--fail-on change": false alarms either way). SEED (1) makes a table repeatable; KEEP=1 keeps
# the directories. HIST=K: each comparison also has a history of K sweeps of the base kernel on the
# same testbed (each with its own drift), stored by sb-history and given to compare with --history:
# the drift compare learns, never the true value. ALT=1: pooled sweeps were measured a b a b ...
# (their dates say so), else all of a's then all of b's. The tools are copied first, so a rebuild meanwhile does not mix versions.
set -eu

log() { printf '%s\n' "$*" >&2; }

# gen DIR CELL COUNTS: writes N pairs DIR/<i>/{a,b}/{samples.csv,meta} for one cell
gen() {
	awk -v dir="$1" -v cell="$2" -v counts="$3" -v n="$N" -v runs="$RUNS" -v samples="$SAMPLES" \
		-v sd="$SD" -v drift="$DRIFT" -v broad="$BROAD" -v local_pct="$LOCAL" -v local_n="$LOCAL_N" \
		-v seed="$4" -v sweeps="$SWEEPS" -v hist="$HIST" -v alt="$ALT" '
	function gauss(  u, v) {	# Box-Muller: one standard normal value
		do u = rand(); while (u == 0)
		v = rand()
		return sqrt(-2 * log(u)) * cos(6.283185307179586 * v)
	}
	BEGIN {
		srand(seed)
		nloc = local_n
		if (nloc > int(counts / 16)) nloc = int(counts / 16)
		if (nloc < 1) nloc = 1
		# the local change: nloc counts spread evenly over the curve
		for (j = 0; j < nloc; j++) hit[int((j + 0.5) * counts / nloc) + 1] = 1
		for (i = 1; i <= n; i++) {
			for (side = -1; side < 2; side++) for (sw = 1; sw <= (side < 0 ? hist : sweeps ? sweeps : 1); sw++) {
				d = dir "/" i "/" (side < 0 ? "h" : side ? "b" : "a") (side < 0 || sweeps ? sw : "")
				system("mkdir -p " d)
				f = d "/samples.csv"
				print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct" > f
				sweep = 1 + drift / 100 * gauss()
				for (m = 0; m < 2; m++) {
					mode = m ? "threads" : "processes"
					for (t = 1; t <= counts; t++) {
						mu = 1000000 * t / (1 + t / 8)	# a curve that bends
						if (side > 0 && cell == "broad") mu *= 1 + broad / 100
						if (side > 0 && cell == "local" && m == 0 && (t in hit)) mu *= 1 + local_pct / 100
						for (r = 1; r <= runs; r++) {
							rm = mu * sweep * (1 + sd / 100 * gauss())
							for (s = 1; s <= samples; s++) {
								v = rm * (1 + 0.002 * gauss())
								printf "%s,%d,%d,measure,%d,1.000000,%.0f,%.6f,,,,\n", mode, t, r, s, v, v > f
							}
						}
					}
				}
				close(f)
				m = d "/meta"
				lab = side < 0 ? "h" sw : side ? "b" : "a"
				# the order the sweeps ran in: the history first, then side a, then side b (or alternated: ALT)
				at = side < 0 ? sw : hist + (alt ? 2 * (sw - 1) + side : side * (sweeps ? sweeps : 1) + sw)
				printf "test=gatesim\nlabel=%s\nrun_id=%s%s-%d-20261204T000000\nstatus=complete\n", lab, lab, sw, i > m
				printf "date=2026-12-04T%02d:%02d:00Z\nhost=sim\nkernel=synthetic\nmodes=processes,threads\n", int(at / 60), at % 60 > m
				printf "repeat=%d\n", runs > m
				close(m)
			}
		}
	}'
}

# rate DIR BIN ARGS...: the % of DIR's pairs that BIN ARGS... a b exits 1 on (anything but 0 or 1 fails)
rate() {
	local dir=$1 bin=$2 i rc ones=0
	shift 2
	for ((i = 1; i <= N; i++)); do
		rc=0
		local h=()
		if [ "$HIST" != 0 ]; then h=(--history "$dir/$i/history.db"); fi
		if [ "$SWEEPS" != 0 ]; then
			"$bin" --format csv "${h[@]}" "$@" "$dir/$i"/a* --vs "$dir/$i"/b* >/dev/null 2>"$dir/err" || rc=$?
		else
			"$bin" --format csv "${h[@]}" "$@" "$dir/$i/a" "$dir/$i/b" >/dev/null 2>"$dir/err" || rc=$?
		fi
		case $rc in
		0) ;;
		1) ones=$((ones + 1)) ;;
		*)
			cat "$dir/err" >&2
			log "gatesim.sh: compare exited $rc on $dir/$i"
			return 1
			;;
		esac
	done
	awk -v a="$ones" -v n="$N" 'BEGIN { printf "%.1f", 100 * a / n }'
}

main() {
	local tmp counts cell g line seed=${SEED:-1} t0 d r
	cd "$(dirname "$0")/../.."
	N=${N:-200} RUNS=${RUNS:-3} SAMPLES=${SAMPLES:-2} SD=${SD:-2} DRIFT=${DRIFT:-0} SWEEPS=${SWEEPS:-0}
	HIST=${HIST:-0} ALT=${ALT:-0}
	BROAD=${BROAD:--5} LOCAL=${LOCAL:--20} LOCAL_N=${LOCAL_N:-5}
	read -ra gates <<<"${GATES:-curves holm bh point}"
	read -ra cargs <<<"${COMPARE_ARGS:-}"
	make -s build/bin/sb-compare build/bin/sb-summary build/bin/sb-history >/dev/null
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	cp build/bin/sb-compare build/bin/sb-summary build/bin/sb-history "$tmp/"
	log "gatesim.sh: $N comparisons a cell, sd $SD%, $RUNS runs a point, $SAMPLES samples a run, drift $DRIFT%, sweeps a side $((SWEEPS ? SWEEPS : 1))$([ "$ALT" = 0 ] || echo ' alternated'), history $HIST sweeps, seed $seed; $(date -u +%FT%TZ)"
	line="points  cell   "
	for g in "${gates[@]}"; do line+=$(printf '  %7s' "$g"); done
	if [ -n "${OLD:-}" ]; then line+=$(printf '  %7s' old); fi
	printf '%s\n' "$line"
	for counts in ${COUNTS:-2 8 96}; do
		for cell in ${CELLS:-aa broad local}; do
			t0=$(date +%s)
			rm -rf "${tmp:?}/c"
			seed=$((seed + 1))
			gen "$tmp/c" "$cell" "$counts" "$seed"
			for d in "$tmp"/c/*/*/; do
				"$tmp/sb-summary" -o "$d/summary.csv" "$d/samples.csv"
			done
			if [ "$HIST" != 0 ]; then
				for d in "$tmp"/c/*/; do
					"$tmp/sb-history" add --db "$d/history.db" "$d"h* >/dev/null
				done
			fi
			line=$(printf '%6d  %-5s' $((2 * counts)) "$cell")
			for g in "${gates[@]}"; do
				r=$(rate "$tmp/c" "$tmp/sb-compare" --gate "$g" "${cargs[@]}") || exit 1
				line+=$(printf '  %6s%%' "$r")
			done
			if [ -n "${OLD:-}" ]; then
				r=$(rate "$tmp/c" "$OLD" "${cargs[@]}") || exit 1
				line+=$(printf '  %6s%%' "$r")
			fi
			printf '%s\n' "$line"
			log "  ($(($(date +%s) - t0)) s)"
		done
	done
}

main "$@"
