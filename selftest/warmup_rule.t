#!/usr/bin/env bash
# The --warmup auto rule on fixed series of rates (selftest/unit/warmup.c): where the warmup ends, to the sample.
# runner_start.t runs it on a clock-paced fixture, where a late task can move the end; here no clock decides.
. "$(dirname "$0")/lib.sh"
U=$B/selftest/unit_warmup
plan 14

# ends PERIOD_MS MIN_S MAX_S RATE...: the warmup samples the rule took (or "more after N"), each
# of PERIOD_MS (--warmup-period-ms PERIOD_MS)
ends() {
	local p=$1 lo=$2 hi=$3
	shift 3
	printf '%s\n' "$@" | "$U" "$p" "$lo" "$hi"
}

# ends_default PERIOD_MS MIN_S MAX_S RATE...: the same with the runner's default warmup period:
# "N x MS ms"
ends_default() {
	local p=$1 lo=$2 hi=$3
	shift 3
	printf '%s\n' "$@" | "$U" "$p" "$lo" "$hi" 0
}

# A ramp of 3 samples, then flat: the window of 3 is first flat at sample 6.
is "$(ends 1000 0 30 200 500 800 1000 1000 1000 1000)" 6 "a ramp then a flat rate: the warmup ends at the third flat sample"
# 2% of the mean is the edge: 98, 100, 102 (mean 100) settle; 104 among 100s (2.6% off) does not.
is "$(ends 1000 0 30 98 100 102)" 3 "rates within 2% of their mean settle"
is "$(ends 1000 0 30 96 100 104 100 100 100)" 6 "a rate 2.6% off the mean keeps the warmup on until it leaves the window"
# Nothing counted is not settled: a stall is the stall timeout's business.
is "$(ends 1000 0 30 0 0 0 5 5 5)" 6 "three samples of 0 are not a settled rate"
# The minimum: at least 3 samples (the window) and at least MIN_S seconds.
is "$(ends 1000 0 30 7 7 7 7)" 3 "--warmup-min 0 still takes the window of 3 samples"
is "$(ends 400 2 30 7 7 7 7 7 7 7 7)" 5 "--warmup-min 2 at 400 ms: 5 samples (2 s rounded up), though flat from the start"
# The cap wins over the minimum and over a rate that never settles.
is "$(ends 400 0 1 1 2 3 4 5 6)" 3 "--warmup-max 1 at 400 ms caps a rising rate at 3 samples"
is "$(ends 1000 5 2 7 7 7 7 7 7)" 2 "--warmup-max 2 below --warmup-min 5: the cap wins (2 samples)"
is "$(ends 1000 0 30 1 2 3)" "more after 3" "a rising rate asks for more samples"
# The default: judged on 50 ms samples, or on the period when that is shorter (issue 35).
is "$(ends_default 500 0 1 7 7 7 7)" "3 x 50 ms" "at --period-ms 500 the rule judges 50 ms samples: a flat rate leaves after 0.15 s"
is "$(ends_default 500 0 1 $(seq 1 25))" "20 x 50 ms" "--warmup-max 1 caps 50 ms samples at 20"
is "$(ends_default 20 0 1 7 7 7 7)" "3 x 20 ms" "a period shorter than 50 ms is the warmup's too"
is "$(ends_default 500 1 5 $(seq 1 21 | sed 's/.*/7/'))" "20 x 50 ms" "--warmup-min 1 in 50 ms samples: 20 of them"
run "$U" 0 0 30
is "$rc" 2 "a period of 0 is refused"
exit $_failed
