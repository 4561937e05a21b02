#!/bin/bash
# history_scale.sh: time sb-history at scale: 1,000 sweeps of 96 counts x 2 modes x 3 runs
# ingested (budget 10 s), then `changes` over every series of them (budget 5 s).
# Not part of make check: timings on a shared machine are not assertions.
# The sweeps are TESTS testcases x KERNELS kernels (default 10 x 100), written by the
# generator below (one awk: the real run-directory format, a 5% step down at kernel
# KERNELS/2 in every series; cp's build/selftest/history_gen can replace it once merged).
# COUNTS, RUNS change the shape; KEEP=1 keeps the generated runs.
set -eu
cd "$(dirname "$0")/../.."

tests=${TESTS:-10}
kernels=${KERNELS:-100}
counts=${COUNTS:-96}
runs=${RUNS:-3}
build=${SB_BUILD:-build}
case $build in /*) bin=$build/bin/sb-history ;; *) bin=$PWD/$build/bin/sb-history ;; esac

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# generate: every run directory (meta, samples.csv) in one awk process
generate() {
	awk -v R="$tmp/results" -v nt="$tests" -v nk="$kernels" -v nc="$counts" -v nr="$runs" 'BEGIN {
		srand(1)
		for (t = 1; t <= nt; t++) {
			system("mkdir -p " R "/bench" t)
			for (k = 1; k <= nk; k++) {
				id = sprintf("7.%d-2026%02d%02dT%02d%02d00", k, 1 + int(k / 28) % 12, 1 + k % 28, t % 24, k % 60)
				d = R "/bench" t "/" id
				system("mkdir " d)
				m = d "/meta"
				printf "test=bench%d\nlabel=7.%d\nrun_id=%s\nstatus=complete\n", t, k, id >m
				printf "date=2026-%02d-%02dT%02d:%02d:00Z\n", 1 + int(k / 28) % 12, 1 + k % 28, t % 24, k % 60 >m
				printf "host=bench\nkernel=Linux 7.%d #1 SMP x86_64\ncpu_model=Bench CPU\n", k >m
				printf "topology=packages=2 numa=2 cores=96 pus=192\nhwloc_version=2.9.0\nplacement=cores\n" >m
				printf "params=\nduration=1\nwarmup=auto\nperiod_ms=500\nrepeat=%d\n", nr >m
				close(m)
				s = d "/samples.csv"
				print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct" >s
				step = k > nk / 2 ? 0.95 : 1
				for (mo = 0; mo < 2; mo++) {
					sw = 1 + 0.01 * (rand() - 0.5)
					for (c = 1; c <= nc; c++)
						for (r = 1; r <= nr; r++) {
							v = 1e6 * c * step * sw * (1 + 0.02 * (rand() - 0.5))
							printf "%s,%d,%d,measure,1,1.000000,%d,%.6f,,,,\n", mo ? "threads" : "processes", c, r, v, v >s
						}
				}
				close(s)
			}
		}
	}'
}

# seconds CMD...: the wall time of CMD in seconds (3 decimals) on stdout; its output discarded
seconds() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null
	t1=$(date +%s%N)
	printf '%d.%03d' $(((t1 - t0) / 1000000000)) $(((t1 - t0) / 1000000 % 1000))
}

main() {
	local n gen add rebuild changes one
	[ -x "$bin" ] || { echo "history_scale.sh: $bin missing: run make" >&2; exit 3; }
	n=$((tests * kernels))
	gen=$(seconds generate)
	add=$(seconds "$bin" --db "$tmp/results/history.db" add "$tmp"/results/bench*/*/)
	rebuild=$(seconds "$bin" --db "$tmp/results/history.db" rebuild)
	changes=$(seconds "$bin" --db "$tmp/results/history.db" changes) || true	# 1: it finds the step
	"$bin" --db "$tmp/results/history.db" changes >"$tmp/changes.txt" || true
	one=$(seconds "$bin" --db "$tmp/results/history.db" show bench1 --format csv)
	printf 'sweeps %d (%d testcases x %d kernels), %d counts x 2 modes x %d runs\n' "$n" "$tests" "$kernels" "$counts" "$runs"
	printf 'generate %s s\nadd (one command) %s s\nrebuild %s s\nchanges %s s\nshow (one testcase, csv) %s s\n' \
		"$gen" "$add" "$rebuild" "$changes" "$one"
	printf 'database %s bytes\n' "$(stat -c %s "$tmp/results/history.db")"
	tail -n 1 "$tmp/changes.txt"
	grep -c 'from 7\.'"$((kernels / 2 + 1))"' ' "$tmp/changes.txt" | sed 's/^/changes found at the step: /'
}

main "$@"
