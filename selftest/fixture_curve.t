#!/usr/bin/env bash
# The curve fixture: its total rate follows the chosen function of the task count, its noise is seeded.
. "$(dirname "$0")/lib.sh"
bin=$B/selftest/curve_processes
plan 9

# avg TASKS PARAM...: the run's average total ops/s (will-it-scale's average: line)
avg() {
	local n=$1
	shift
	run "$bin" -t "$n" -s 5 --warmup 1 --period-ms 100 "$@"
	printf '%s\n' "$out" | sed -n 's/^average://p'
}
# within GOT WANT: 0 when GOT is within 25% of WANT. A paced task's counter
# catches up with the clock whenever it runs, so only a task kept off the CPU
# at an end of the 500 ms window counts short (the end) or long (the start,
# caught up inside it): runs at load 20 on 2 cores were 20% off at worst;
# each shape below is 33% or more away from linear.
within() { awk -v g="$1" -v w="$2" 'BEGIN { exit !(g > 0.75 * w && g < 1.25 * w) }'; }

# noise=0 (the default): three points of three shapes, 1 to 4 tasks on any machine
got=$(avg 1 --param shape=peak6 --param rate=50000)
within "$got" 50000; ok $? "peak6, 1 task: one task's rate ($got ~ 50000)"
got=$(avg 4 --param shape=smt --param cores=2 --param rate=50000)
within "$got" 100000; ok $? "smt cores=2, 4 tasks: flat after the cores ($got ~ 100000, linear would be 200000)"
got=$(avg 3 --param shape=numa --param knee=1 --param rate=50000)
within "$got" 100000; ok $? "numa knee=1, 3 tasks: half the slope after the knee ($got ~ 100000, linear would be 150000)"

# noise: a run's total is drawn around the curve, differently in each run
a=$(avg 1 --param noise=30 --param seed=5)
b=$(avg 1 --param noise=30 --param seed=5)
c=$(avg 1 --param noise=30 --param seed=5)
like "$a $b $c" '^[0-9]+ [0-9]+ [0-9]+$' "noise=30: three runs measured"
is "$(printf '%s\n' "$a" "$b" "$c" | sort -u | wc -l)" 3 "independent runs differ ($a $b $c)"

# bad values
run "$bin" -t 1 -s 1 --warmup 0 --period-ms 100 --param shape=cubic
is "$rc" 1 "an unknown shape fails the run"
like "$err" "shape 'cubic' is not one of peak6, smt, numa, linear, plateau" "and names the shapes"
run "$bin" -t 1 -s 1 --warmup 0 --period-ms 100 --param noise=51
is "$rc" 2 "noise above 50% is a usage error"
run "$B/selftest/curve_threads" -t 2 -s 1 --warmup 0 --period-ms 100 --param shape=linear
is "$rc" 0 "the threads binary runs too${err:+ ($err)}"
