#!/bin/bash
# compare_speed.sh: time compare.sh on two 96-point runs of 1,000 samples a point (budget: 0.1 s).
# Not part of make check: timings on a shared machine are not assertions.
# POINTS, SAMPLES, TRIES change the size and repetitions; KEEP=1 keeps the generated runs.
set -eu
cd "$(dirname "$0")/../.."

points=${POINTS:-96}
samples=${SAMPLES:-1000}
tries=${TRIES:-5}
build=${SB_BUILD:-build}
case $build in /*) bin=$build/bin/sb-compare ;; *) bin=$PWD/$build/bin/sb-compare ;; esac

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# One run directory: both modes at tasks 1..points, every sample a measure row
# (ops/s with 6 decimals, as runtest.sh writes them). $2 scales the rates.
make_run() {
	mkdir -p "$tmp/results/speed/$1"
	printf 'test=speed\nlabel=%s\nrun_id=%s\nstatus=complete\nhost=bench\nkernel=bench\nrepeat=1\n' \
		"$1" "$1" >"$tmp/results/speed/$1/meta"
	awk -v points="$points" -v samples="$samples" -v scale="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct"
		split("processes threads", modes, " ")
		for (m = 1; m <= 2; m++)
			for (t = 1; t <= points; t++)
				for (s = 1; s <= samples; s++) {
					v = scale * 1e6 * t * (1 + (rand() - 0.5) / 50)
					printf "%s,%d,1,measure,%d,1.000123,%d,%.6f,%.6f,%.6f,12.500000,10.000000\n",
						modes[m], t, s, v, v, v / t * 0.99, v / t * 1.01
				}
	}' >"$tmp/results/speed/$1/samples.csv"
}

make_run base 1.00 1
make_run new 0.97 2
./compare.sh --help >/dev/null # builds the tool if needed, outside the timing

echo "two runs of $((2 * points)) points ($points task counts x 2 modes), $samples samples a point," \
	"$(du -sh "$tmp/results" | cut -f1) of samples.csv"
# Elapsed time varies with whatever else the machine runs; CPU time (user + sys) much less.
TIMEFORMAT='%R %U %S'
best='' best_cpu=''
for i in $(seq "$tries"); do
	rc=0
	# --force: the generated runs are single runs (one run a point), which compare
	# refuses by default (correlated samples); the timing is of the same work.
	{ time "$bin" "$tmp/results/speed/base" "$tmp/results/speed/new" --force >/dev/null 2>"$tmp/err"; } \
		2>"$tmp/time" || rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "compare_speed: compare failed with exit $rc: $(cat "$tmp/err")" >&2
		exit "$rc"
	fi
	read -r real user sys <"$tmp/time"
	ms=$(awk -v r="$real" 'BEGIN { printf "%d", r * 1000 + 0.5 }')
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 + 0.5 }')
	echo "try $i: ${ms} ms elapsed, ${cpu} ms CPU"
	if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
	if [ -z "$best_cpu" ] || [ "$cpu" -lt "$best_cpu" ]; then best_cpu=$cpu; fi
done
echo "best of $tries: ${best} ms elapsed, ${best_cpu} ms CPU (budget 100 ms)"
