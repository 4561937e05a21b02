#!/usr/bin/env bash
# What one run costs, and where its wall time goes (issue 35, step 1).
#
#   selftest/bench/run_cost.sh [--runs N] [--tasks LIST] [--modes LIST] [--test NAME]
#                              [--sweep-repeat R] [--no-sweep]
#
#   --runs N          runner runs of each mode and task count; the table gives the median (default 3)
#   --tasks LIST      task counts, comma-separated (default 1,2,96)
#   --modes LIST      processes,threads (the default) or one of them
#   --test NAME       the testcase (default getppid1: steady, no prepare worth the name)
#   --sweep-repeat R  the sweep measured for its own overhead runs one point R times (default 5)
#   --warmup-max S    the runs' --warmup-max (default 1, the sweep's cap since issue 35; it was 2)
#   --no-sweep        the runner table only
#
# The build is SB_BUILD's (default build/): the testcase is made first, the sweep's
# tools by an untimed first sweep. Needs strace for the sweep's table; root for the stamps'
# SCHED_FIFO. The tables are markdown, on stdout.
#
# The runner, at the sweep's default run shape (what runtest.sh passes it: -s 2
# --warmup auto --warmup-max 1 --period-ms 500 --placement cores --format
# samples), and --timing. Its stdout goes through a bash loop that stamps each
# line with EPOCHREALTIME when it arrives (the runner flushes each line; the
# loop runs at SCHED_FIFO 2, above the runner's sampler, when it may):
#   spawn     from just before the exec to the samples header, which the runner
#             prints once every task is pinned and waiting at the start gate
#             (loading, topology, testcase_prepare, creating the tasks); "tasks"
#             beside it is --timing's open_s, the creating and pinning alone
#   warmup    the --warmup auto samples: the sum of their elapsed_s (the
#             runner's own clock, from the gate's opening), their count beside it
#   measured  the sum of the measured samples' elapsed_s
#   teardown  the rest of the wall time: the last sample to the runner's exit
#             (kill and reap the tasks, testcase_cleanup, the private directory,
#             exit); "kill" beside it is --timing's teardown_s, SIGKILL until
#             every task was reaped
# They add up to the wall time. Each column is the median of the runs on its
# own, so the medians need not add up exactly.
#
# The sweep: ./runtest.sh TEST --points 1 --mode processes --repeat R --quiet
# --no-history --results TMP, once untimed (it makes the tools it needs and
# warms the caches), then timed whole: its overhead is its wall time minus its
# runners', which are the elapsed_s of every sample row it wrote (warmup and
# measured) plus R times a runner's spawn + teardown (the 1-process row's
# medians). Then once more under strace -f --seccomp-bpf (only execve is
# traced: the tasks' own system calls are not stopped) for when each runner
# started and exited: "before" is until the first runner's exec (arguments,
# make, checks, planner, run directory), "between" the mean gap from one
# runner's exit to the next one's exec (the run's rows, summary, sb-plan next,
# status), "after" from the last runner's exit to the sweep's (summary,
# results). strace costs at each fork and exec: that row's overheads are
# larger than the plain sweep's, and are there for where the time goes.
#
# Run it alone: it measures the machine as much as the runner.
set -eu

tmp='' build='' fifo=0
cleanup() {
	if [ -n "$tmp" ]; then rm -rf -- "$tmp"; fi
}
trap cleanup EXIT

die() {
	local rc=$1
	shift
	printf 'run_cost.sh: %s\n' "$*" >&2
	exit "$rc"
}

# now_us: EPOCHREALTIME in microseconds
now_us() {
	local t=${EPOCHREALTIME/[.,]/}
	printf '%s\n' "$t"
}

# stamp_lines: each line of stdin as "MICROSECONDS LINE"
stamp_lines() {
	local line
	while IFS= read -r line; do
		printf '%s %s\n' "${EPOCHREALTIME/[.,]/}" "$line"
	done
}

# one_run BIN N: one runner run -> "spawn warmup measured teardown wall open_s teardown_s nwarmup" (seconds)
one_run() {
	local bin=$1 n=$2 t0 t1 timing sp
	rm -f -- "$tmp/pipe"
	mkfifo -- "$tmp/pipe"
	stamp_lines <"$tmp/pipe" >"$tmp/stamps" &
	sp=$!
	# above the runner's own SCHED_FIFO 1 (set before the runner starts), so that
	# 96 busy tasks do not delay the stamps
	if [ "$fifo" = 1 ]; then chrt -f -p 2 "$sp" >/dev/null; fi
	t0=${EPOCHREALTIME/[.,]/}
	"$bin" -t "$n" -s 2 --warmup auto --warmup-max "$warmup_max" --period-ms 500 --placement cores \
		--format samples --timing >"$tmp/pipe" 2>"$tmp/err" || die 1 "$bin -t $n failed: $(tail -n 1 "$tmp/err")"
	t1=${EPOCHREALTIME/[.,]/}
	wait "$sp"
	timing=$(grep -m1 ': timing: ' "$tmp/err") ||
		die 1 "$bin -t $n printed no timing line: $(tail -n 1 "$tmp/err")"
	awk -v t0="$t0" -v t1="$t1" -v timing="$timing" '
		NR == 1 { head = $1; next }
		{ split($2, f, ","); if (f[4] == "warmup") { w += f[6]; nw++ } else if (f[4] == "measure") { m += f[6]; nm++ } }
		END {
			if (!head || !nm) { print "no samples" > "/dev/stderr"; exit 1 }
			nf = split(timing, kv, " ")
			for (i = 1; i <= nf; i++) { split(kv[i], p, "="); v[p[1]] = p[2] }
			wall = (t1 - t0) / 1e6; spawn = (head - t0) / 1e6
			printf "%.6f %.6f %.6f %.6f %.6f %s %s %d\n", spawn, w, m, wall - spawn - w - m, wall,
				v["open_s"], v["teardown_s"], nw
		}' "$tmp/stamps" || die 1 "$bin -t $n: unexpected output"
}

# median: the median of the numbers on stdin, 3 decimals
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "-"; exit }
		printf "%.3f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# runner_table TEST RUNS MODES TASKS: the markdown table of the runner's phases
runner_table() {
	local test=$1 runs=$2 m n i col
	local -a modes tasks c
	IFS=, read -r -a modes <<<"$3"
	IFS=, read -r -a tasks <<<"$4"
	echo '| mode | tasks | wall s | spawn s (tasks) | warmup s (samples) | measured s | teardown s (kill) |'
	echo '|---|---:|---:|---|---|---:|---|'
	for m in "${modes[@]}"; do
		for n in "${tasks[@]}"; do
			: >"$tmp/runs"
			for ((i = 0; i < runs; i++)); do
				one_run "$build/bin/${test}_$m" "$n" >>"$tmp/runs"
			done
			c=('')
			for col in 1 2 3 4 5 6 7 8; do
				c+=("$(awk -v c="$col" '{ print $c }' "$tmp/runs" | median)")
			done
			printf '| %s | %d | %s | %s (%s) | %s (%s) | %s | %s (%s) |\n' "$m" "$n" "${c[5]}" "${c[1]}" "${c[6]}" \
				"${c[2]}" "${c[8]%.000}" "${c[3]}" "${c[4]}" "${c[7]}"
			if [ "$m" = processes ] && [ "$n" = 1 ]; then
				awk '{ print $1 + $4 }' "$tmp/runs" | median >"$tmp/edges"
			fi
		done
	done
}

# sweep_table TEST R EDGES: the sweep's own overhead around R runs of one point;
# EDGES is a runner's spawn + teardown in seconds (the median of the runner table's)
sweep_table() {
	local test=$1 r=$2 edges=$3 t0 t1 plain traced sampled
	local -a sweep=(./runtest.sh "$test" --points 1 --mode processes --repeat "$r" --quiet --no-history)
	# untimed: makes what the sweep makes (sb-sweepargs, sb-workdir...) and warms the caches
	./runtest.sh "$test" --points 1 --mode processes --repeat 1 --quiet --no-history --results "$tmp/res0" >"$tmp/sweep.out" 2>&1 ||
		die 1 "the sweep failed: $(tail -n 3 "$tmp/sweep.out")"
	t0=$(now_us)
	"${sweep[@]}" --results "$tmp/res1" >"$tmp/sweep.out" 2>&1 || die 1 "the sweep failed: $(tail -n 3 "$tmp/sweep.out")"
	t1=$(now_us)
	plain=$(((t1 - t0) / 1000))
	# its runners' sampled time: the elapsed_s of every row (warmup and measured) of its samples.csv
	sampled=$(find "$tmp/res1" -name samples.csv -exec awk -F, 'FNR > 1 { s += $6 } END { printf "%.6f\n", s }' {} +)
	t0=$(now_us)
	strace -f -q --seccomp-bpf -ttt -e trace=execve -e signal=none -o "$tmp/strace" \
		"${sweep[@]}" --results "$tmp/res2" >"$tmp/sweep.out" 2>&1 || die 1 "the traced sweep failed: $(tail -n 3 "$tmp/sweep.out")"
	t1=$(now_us)
	traced=$(((t1 - t0) / 1000))
	# the runs: the pids that exec'ed the testcase's binary with -s (not --check, --info...), exec to exit
	awk -v bin="/${test}_processes\"" -v t0="$t0" -v t1="$t1" -v r="$r" -v plain="$plain" -v traced="$traced" \
		-v sampled="$sampled" -v edges="$edges" '
		$3 ~ /^execve\(/ && index($3, bin) && index($0, "\"-s\", ") && $0 ~ /= 0$/ { start[$1] = $2; pids[++n] = $1; next }
		$3 == "+++" && ($1 in start) { stop[$1] = $2 }
		END {
			if (n != r) { printf "%d runners in the traced sweep, not %d\n", n, r > "/dev/stderr"; exit 1 }
			for (i = 1; i <= n; i++) {
				p = pids[i]; run += stop[p] - start[p]
				if (i > 1) gap += start[p] - stop[pids[i - 1]]
			}
			before = start[pids[1]] - t0 / 1e6; after = t1 / 1e6 - stop[pids[n]]
			runners = sampled + r * edges
			print "| sweep of R runs, one point | wall s | its runners s | overhead s | overhead a run s | before s | between s (mean) | after s |"
			print "|---|---:|---:|---:|---:|---:|---:|---:|"
			printf "| R = %d | %.3f | %.3f | %.3f | %.3f | | | |\n", r, plain / 1e3, runners,
				plain / 1e3 - runners, (plain / 1e3 - runners) / r
			printf "| R = %d, under strace | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", r, traced / 1e3, run,
				traced / 1e3 - run, (traced / 1e3 - run) / n, before, (n > 1 ? gap / (n - 1) : 0), after
		}' "$tmp/strace" || die 1 "cannot read the runners' times from the traced sweep"
}

main() {
	local runs=3 task_list=1,2,96 mode_list=processes,threads test=getppid1 repeat=5 do_sweep=1 m i
	warmup_max=1
	build=${SB_BUILD:-build}
	while [ $# -gt 0 ]; do
		case $1 in
		--runs | --tasks | --modes | --test | --sweep-repeat | --warmup-max)
			[ $# -ge 2 ] || die 2 "$1 needs a value"
			case $1 in
			--runs) runs=$2 ;;
			--tasks) task_list=$2 ;;
			--modes) mode_list=$2 ;;
			--test) test=$2 ;;
			--sweep-repeat) repeat=$2 ;;
			--warmup-max) warmup_max=$2 ;;
			esac
			shift 2
			;;
		--no-sweep)
			do_sweep=0
			shift
			;;
		-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) die 2 "unknown option: $1 (see --help)" ;;
		esac
	done
	[[ $runs =~ ^[1-9][0-9]*$ ]] || die 2 "--runs $runs: a whole number of runs, at least 1"
	[[ $repeat =~ ^[1-9][0-9]*$ ]] || die 2 "--sweep-repeat $repeat: a whole number of runs, at least 1"
	[[ $task_list =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die 2 "--tasks $task_list: task counts, e.g. 1,2,96"
	[[ $mode_list =~ ^(processes|threads)(,(processes|threads))*$ ]] || die 2 "--modes $mode_list: processes, threads or both"
	[[ $test =~ ^[A-Za-z0-9_]+$ ]] || die 2 "--test $test: a testcase name"
	[[ $warmup_max =~ ^[0-9]+$ ]] || die 2 "--warmup-max $warmup_max: whole seconds"
	cd "$(dirname "$0")/../.."
	local -a targets=()
	for m in processes threads; do targets+=("$build/bin/${test}_$m"); done
	make -s BUILD="$build" "${targets[@]}" >/dev/null || die 3 "cannot make ${targets[*]}"
	if [ "$do_sweep" = 1 ] && ! command -v strace >/dev/null; then die 3 "strace is missing (or --no-sweep)"; fi
	tmp=$(mktemp -d)
	fifo=0
	if chrt -f 2 true 2>/dev/null; then fifo=1; fi
	printf 'stamps at SCHED_FIFO 2: %s\n' "$([ "$fifo" = 1 ] && echo yes || echo 'no (not root: spawn may read late under load)')"
	printf 'load average before: %s\n\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	runner_table "$test" "$runs" "$mode_list" "$task_list"
	if [ "$do_sweep" = 1 ]; then
		if [ ! -s "$tmp/edges" ]; then	# (the table had no 1-process row)
			: >"$tmp/runs"
			for ((i = 0; i < runs; i++)); do one_run "$build/bin/${test}_processes" 1 >>"$tmp/runs"; done
			awk '{ print $1 + $4 }' "$tmp/runs" | median >"$tmp/edges"
		fi
		echo
		sweep_table "$test" "$repeat" "$(cat "$tmp/edges")"
	fi
	printf '\nload average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
}

main "$@"
