#!/usr/bin/env bash
# runtest.sh's rounds: the recorded round order (alternate, --seed), the stopping rule (--precision, --min-runs, --max-runs, budgets), --repeat, the plan.
# sb-san: skip: its subject is runtest.sh's rounds (shell); sb-plan's C runs under the sanitizers in analysis_plan.t and the runner's in runner_*.t
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads" \
	"$SB_BUILD/selftest/paced_processes" "$SB_BUILD/selftest/paced_threads"

# The paced fixture counts at a rate fixed for a run: its --param rate times
# (1 + spread% * u), u drawn from (seed, the run's index in the state file).
# Its runs differ only as much as told, whatever the machine's load.
R=$T/r
ONE=(--duration 0.2 --warmup 0.1 --period-ms 100 --quiet --results "$R")	# a warmup sample: the tasks have started
paced() {	# paced ARGS...: a sweep of the paced fixture -> rc, run
	rc=0
	SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh paced "${ONE[@]}" "$@" >"$T/out" 2>"$T/err" || rc=$?
	run=$(cat "$T/out")
	[ "$rc" = 0 ] || diag_file "$T/err"
}
runs_of() {	# runs_of RUNDIR: "MODE:TASKS=RUNS ..." from samples.csv
	awk -F, 'NR > 1 && !seen[$1 ":" $2 ":" $3]++ { n[$1 ":" $2]++ }
		END { for (k in n) print k "=" n[k] }' "$1/samples.csv" | sort | tr '\n' ' '
}
values() { "$SB_BUILD/bin/sb-summary" --point "$1" --values "$run"; }

# The coverage sweep (checked below) runs beside the others from the start, in its own results:
# the paced fixture counts at the rate its parameters fix, whatever else runs.
SB_TESTS_DIR=$SB_BUILD/selftest ./runtest.sh paced "${ONE[@]}" --results "$T/rcov" --points 1,2,3,4,5 \
	--mode processes --param rate=100000 --param spread=20 --param seed=3 --param state="$T/state4" --repeat 3 \
	>"$T/cov.out" 2>"$T/cov.err" &
covpid=$!

# ---- the order: alternate by default, recorded in meta's schedule ----
paced --points 1,2 --repeat 2
is "$rc" 0 "--repeat 2 sweep exits 0"
is "$(runs_of "$run")" "processes:1=2 processes:2=2 threads:1=2 threads:2=2 " "--repeat 2: exactly 2 runs a point"
is "$(meta "$run/meta" schedule)" \
	"processes:1,threads:1,processes:2,threads:2 threads:2,processes:2,threads:1,processes:1" \
	"round 1 in the sweep's order, round 2 backwards"
is "$(meta "$run/meta" order):$(meta "$run/meta" seed):$(meta "$run/meta" repeat)" "alternate::2" "meta: order, seed, repeat"
is "$(meta "$run/meta" min_runs):$(meta "$run/meta" max_runs):$(meta "$run/meta" precision):$(meta "$run/meta" budget)" \
	"2:2::" "meta: exactly 2 runs, no target, no budget"
like "$(meta "$run/meta" late_warnings)" '^[0-9]+$' "meta: late_warnings counted"
is "$(awk -F, 'NR > 1 { print $3 }' "$run/samples.csv" | sort -u | tr '\n' ' ')" "1 2 " "samples.csv's run column: 1 and 2"

# ---- --seed: each round a shuffle of the documented generator ----
expected_schedule() {	# expected_schedule SEED ROUNDS POINT...: the order docs/RUNTEST.md describes
	local seed=$1 rounds=$2 r i j x t out='' s
	local -a o
	shift 2
	for ((r = 1; r <= rounds; r++)); do
		o=("$@")
		x=$(((seed * 1000 + r) % 2147483648))
		for ((i = ${#o[@]} - 1; i > 0; i--)); do
			x=$(((x * 1103515245 + 12345) % 2147483648))
			j=$(((x / 65536) % (i + 1)))
			t=${o[i]} o[i]=${o[j]} o[j]=$t
		done
		s=$(IFS=,; printf '%s' "${o[*]}")
		out="$out${out:+ }$s"
	done
	printf '%s\n' "$out"
}
POINTS4="processes:1 threads:1 processes:2 threads:2"
paced --points 1,2 --repeat 3 --seed 7
first=$(meta "$run/meta" schedule)
is "$first" "$(expected_schedule 7 3 $POINTS4)" "--seed 7: each round shuffled as documented"
is "$(meta "$run/meta" order):$(meta "$run/meta" seed)" "shuffle:7" "meta: order=shuffle, seed=7"
paced --points 1,2 --repeat 3 --seed 7
is "$(meta "$run/meta" schedule)" "$first" "--seed 7 again: the same order"
paced --points 1,2 --repeat 3 --seed 8
is "$(meta "$run/meta" schedule)" "$(expected_schedule 8 3 $POINTS4)" "--seed 8: its own order"
ok "$([ "$(meta "$run/meta" schedule)" != "$first" ]; echo $?)" "--seed 8 differs from --seed 7"
is "$(runs_of "$run")" "processes:1=3 processes:2=3 threads:1=3 threads:2=3 " "every round has every point"

# ---- the stopping rule ----
# identical runs: the target is met at --min-runs (50%: what the scheduling of
# a sleeping task on a loaded machine adds to 200 ms samples stays well below)
paced --points 1,2 --mode processes --param spread=0 --precision 50 --min-runs 3 --max-runs 6
is "$rc" 0 "sweep to a met target exits 0"
is "$(runs_of "$run")" "processes:1=3 processes:2=3 " "target met: each point stops at --min-runs"
is "$(meta "$run/meta" unmet)" "" "meta: no point short of the target"
is "$(meta "$run/meta" precision):$(meta "$run/meta" min_runs):$(meta "$run/meta" max_runs):$(meta "$run/meta" repeat)" \
	"50:3:6:" "meta: precision, min_runs, max_runs; repeat empty"
like "$(values processes:2)" '^3 [0-9.]+ ([0-9]|[1-4][0-9])\.[0-9]+$' "precision reached: 3 runs, within 50%"

# runs 60% apart: a 0.1% target is never met, --max-runs stops the point
state=$T/state1
paced --points 1 --mode processes --param spread=60 --param state="$state" --precision 0.1 --min-runs 2 --max-runs 4
is "$(runs_of "$run")" "processes:1=4 " "target not met: the point stops at --max-runs"
is "$(meta "$run/meta" unmet)" "processes:1" "meta: unmet names it"
like "$(values processes:1)" '^4 ' "--values: 4 runs"
is "$(cat "$state")" 4 "the fixture ran 4 times"

# the point budget: after --min-runs, no run that would not fit
paced --points 1,2 --mode processes --param spread=60 --param state="$T/state2" --precision 0.1 --min-runs 2 \
	--max-runs 10 --point-budget 0.001
is "$(runs_of "$run")" "processes:1=2 processes:2=2 " "--point-budget spent: --min-runs only"
is "$(meta "$run/meta" unmet)" "processes:1 processes:2" "meta: both short of the target"
is "$(meta "$run/meta" point_budget)" 0.001 "meta: point_budget"

# the sweep's budget, the same way
paced --points 1,2 --mode processes --param spread=60 --param state="$T/state3" --precision 0.1 --min-runs 2 \
	--max-runs 10 --budget 0.001
is "$(runs_of "$run")" "processes:1=2 processes:2=2 " "--budget spent: --min-runs only"
is "$(meta "$run/meta" budget)" 0.001 "meta: budget"

# coverage: 5 points of 3 runs with rates drawn 20% apart; the 95% interval
# across runs holds the distribution's centre (rate x tasks) at most points
rc=0
wait "$covpid" || rc=$?
run=$(cat "$T/cov.out")
[ "$rc" = 0 ] || diag_file "$T/cov.err"
covered=0
for n in 1 2 3 4 5; do
	if values "processes:$n" | awk -v c=$((100000 * n)) '{ h = $2 * $3 / 100; exit !($2 - h <= c && c <= $2 + h) }'; then
		covered=$((covered + 1))
	fi
done
ok "$([ "$covered" -ge 4 ]; echo $?)" "the intervals across runs hold the true rate at $covered of 5 points"

# ---- sampler lateness: a runner that warns (the paced fixture behind a wrapper) ----
case $SB_BUILD in /*) fix=$SB_BUILD/selftest ;; *) fix=$PWD/$SB_BUILD/selftest ;; esac
mkdir -p "$T/late"
for m in processes threads; do
	printf '#!/bin/sh\ncase " $* " in *" --run "*) echo "paced_%s: warning: sampler woke up to 12.0 ms late (12.0%% of the period)" >&2 ;; esac\nexec "%s/paced_%s" "$@"\n' \
		"$m" "$fix" "$m" >"$T/late/paced_$m"
	chmod +x "$T/late/paced_$m"
done
rc=0
SB_TESTS_DIR=$T/late ./runtest.sh paced --points 1,2 --mode processes --repeat 2 --duration 0.2 --warmup 0.2 \
	--period-ms 200 --results "$R" >"$T/out" 2>"$T/err" || rc=$?
run=$(cat "$T/out")
is "$rc:$(meta "$run/meta" late_warnings)" "0:4" "meta: late_warnings counts the 4 runs that warned"
is "$(grep -c 'sampler woke up' "$T/err")" 1 "the warning is shown once"

# ---- options that contradict each other, bad values ----
rejected() {	# rejected SUBSTRING ARGS...
	local want=$1 rc=0
	shift
	./runtest.sh getppid1 --results "$R" "$@" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc:$(grep -cF -- "$want" "$T/err")" "2:1" "exit 2 naming the problem: $*"
}
rejected "--repeat 3 is exactly 3 runs a point: it cannot be combined with --precision" --repeat 3 --precision 5
rejected "--repeat 2 is exactly 2 runs a point" --repeat 2 --budget 10
rejected "--min-runs 5 is more than --max-runs 4" --min-runs 5 --max-runs 4
rejected "--precision: '0' must be more than 0" --precision 0
rejected "--precision: 'x' is not a number of percent" --precision x
rejected "--seed: '-1' is not a whole number" --seed -1
rejected "--point-budget: '1s' is not a number of seconds" --point-budget 1s

# ---- the plan: --dry-run bounds the adaptive sweep by its budget ----
plan() { ./runtest.sh getppid1 --points 1,2 --dry-run "$@" 2>&1; }
out=$(plan)
like "$(grep 'each run:' <<<"$out")" 'each run: +(1 s|steady-state \(at most 1 s\)) warmup \+ 1 s measured in 500 ms samples$' \
	"default run: steady-state warmup (1 s where the runner has none) + 1 s measured"
like "$(grep 'runs:' <<<"$out")" 'runs: +3 to 10 a point, until the 95% interval is within \+-2% \(at most 30 s a point\)$' \
	"default stopping rule"
like "$(grep 'order:' <<<"$out")" 'each round in the other direction' "default order"
# a run: its warmup's window (0.15 s) to its cap (1 s), 1 s measured, 0.15 s around it; 4.375 s a point
is "$(grep 'estimated:' <<<"$out")" "estimated: 12 to 40 runner runs, 16s to 18s (budget 18s)" \
	"estimate: 3 runs of 1.3 s a point at least, at most the budget of 4.375 s a point"
is "$(plan --repeat 2 | grep 'estimated:')" "estimated: 8 runner runs, about 11s" "--repeat 2: exactly 8 runs"
is "$(plan --budget 60 --point-budget 12 | grep 'estimated:')" "estimated: 12 to 40 runner runs, 16s to 48s (budget 1m)" \
	"estimate: bounded by --point-budget when it is the smaller"
out=$(plan --quick)
like "$(grep 'each run:' <<<"$out")" '0\.5 s warmup \+ 0\.5 s measured in 250 ms samples$' "--quick: short runs"
like "$(grep 'runs:' <<<"$out")" 'exactly 2 a point$' "--quick: 2 runs a point"
like "$(plan --seed 4 | grep 'order:')" 'shuffled with seed 4' "--seed in the plan"

done_testing
