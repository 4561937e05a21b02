#!/usr/bin/env bash
# The start and the sampler: a first sample the CPUs can deliver, late_ms, the sampler's raised priority, --warmup auto, --timing.
. "$(dirname "$0")/lib.sh"
F=$B/selftest
plan 25
ncpu=$(nproc)

# rate COLUMN ROW: a field of a --format csv row (1 = the first sample)
field() { printf '%s\n' "$out" | sed 1d | sed -n "${2}p" | cut -d, -f"$1"; }

# ---- the first sample: never more than the CPUs can do ----
# The ceiling: the best of a few samples of one task alone on one CPU, times
# the CPUs, or (on a shared machine one task gets a smaller share of its CPU
# than 256 get of the machine) the best later sample of the same run, which
# the first-sample bug does not touch: whichever is higher, times 3 for slack.
# The bug this guards against (a baseline taken after the starved runner got
# the CPU back) gave 6 to 9 times the ceiling.
for m in processes threads; do
	run "$B/bin/null1_$m" -t 1 --cpus 0 --period-ms 200 -s 3 --warmup 0 --format csv
	one=$(printf '%s\n' "$out" | sed 1d | cut -d, -f5 | sort -g | tail -1)
	worst=0 fails=0 over=''
	for i in 1 2 3; do
		run "$B/bin/null1_$m" -t 256 --period-ms 100 -s 3 --warmup 0 --stall-timeout 10 --format samples
		[ "$rc" -eq 0 ] || fails=$((fails + 1))
		over=$over$(printf '%s\n' "$out" | sed 1d | cut -d, -f8 | awk -v one="$one" -v n="$ncpu" '
			NR == 1 { first = $1; next }
			{ if ($1 > best) best = $1 }
			END { c = one * n; if (best > c) c = best; c *= 3
			      if (!(first > 0 && first <= c)) printf "first %.0f > ceiling %.0f; ", first, c }')
	done
	is "$fails" 0 "$m: 256 tasks, --warmup 0, three runs exit 0"
	is "$over" "" "$m: 256 tasks' first sample is within the CPUs' ceiling (1 task on 1 CPU x $ncpu, or the later samples; x 3)"
done

# ---- late_ms: the sampler's wake-up lateness, in every row ----
run "$B/bin/getppid1_processes" -t 2 --period-ms 100 -s 3 --warmup 1 --format csv
is "$(printf '%s\n' "$out" | head -1 | awk -F, '{ print $NF }')" "late_ms" "late_ms is the last column"
bad=$(printf '%s\n' "$out" | sed 1d | awk -F, '$NF !~ /^[0-9]+\.[0-9][0-9][0-9]$/ { print NR ": " $NF }')
is "$bad" "" "late_ms is a non-negative number of ms in every row"
like "$(printf '%s\n' "$err" | grep -c 'sampler woke up' || true)" "^[01]$" "the lateness warning comes once at most"

# ---- the sampler's priority is raised, the tasks' is not ----
# ps CLS: FF (SCHED_FIFO) or TS; NI: the nice value ("-" for real-time).
for m in processes threads; do
	if [ "$(id -u)" -ne 0 ] || ! linux_only; then
		skip "$m: priorities (needs root and the Linux OS layer)"; skip "$m: priorities (needs root and the Linux OS layer)"
		continue
	fi
	d=$(mktemp -d)
	# -s 0: it samples until the SIGTERM below, however long a loaded machine makes the polls
	(exec "$B/bin/null1_$m" -t 2 --period-ms 100 -s 0 --warmup 0 >/dev/null 2>&1) &
	rpid=$!
	tasks=''
	for i in $(seq 1 50); do
		tasks=$(pgrep -P "$rpid" | tr '\n' ' ')
		[ -n "$tasks" ] && [ "$(ps -o cls= -p "$rpid" | tr -d ' ')" = FF ] && break
		nap 0.1
	done
	runner=$(ps -o cls= -p "$rpid" | tr -d ' ')
	# every thread of every task process (threads mode: the task threads); polled, not slept
	# for: a task drops the runner's class as it starts, however late the machine lets it
	task_classes() {
		mine=$(for t in $tasks; do ps -L -o cls=,ni= -p "$t"; done | awk '{ print $1 "/" $2 }' | sort -u | tr '\n' ' ')
		[ "$mine" = "TS/0 " ]
	}
	wait_until 10 task_classes || true
	kill -TERM "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
	rm -rf "$d"
	is "$runner" "FF" "$m: the sampler runs SCHED_FIFO while sampling"
	is "$mine" "TS/0 " "$m: every task (thread) runs at the default policy and nice"
done

# ---- an unprivileged runner: no real-time class, the tasks open the gate as a tree ----
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	tmp=$(mktemp -d)
	for m in processes threads; do
		cp "$B/bin/null1_$m" "$tmp/"
		chmod 755 "$tmp" "$tmp/null1_$m"
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$tmp/null1_$m" -t 16 -s 1 --warmup 0 --period-ms 2000 --timing
		is "$rc" 0 "$m: unprivileged, 16 tasks run${err:+ ($(printf '%s' "$err" | tail -1))}"
		like "$err" "timing: tasks=16 .* all_started_s=[0-9.]+ started=16 " "$m: unprivileged, every task passed the gate (woken as a tree)"
	done
	rm -rf "$tmp"
else
	for i in 1 2 3 4; do skip "needs root and setpriv"; done
fi

# ---- --warmup auto: ends once the rate has settled ----
# Where the rule ends a warmup, to the sample, is warmup_rule.t's (fixed series, no clock). Here the
# runner applies it to a live rate (settle: paced by the clock, a ramp for settle_ms, then flat), and
# asserts only what no timing can change: at least the window of 3 samples, at most the cap (15 s:
# 30 samples). Where it ends on a live rate, quiet and beside busy loops, is measured by
# selftest/bench/warmup_live.sh (docs/SELFTEST.md), not asserted: a starved task moves it. These
# give --warmup-period-ms the measured period, for round counts; the default (50 ms) is last.
warmups() { printf '%s\n' "$out" | sed 1d | grep -c '^warmup,' || true; }
run "$F/settle_processes" -t 2 --period-ms 500 --warmup-period-ms 500 -s 1 --warmup auto --warmup-min 0 --warmup-max 15 --param settle_ms=1500 --format csv
w=$(warmups)
is "$rc" 0 "--warmup auto runs${err:+ ($err)}"
[ "$w" -ge 3 ] && [ "$w" -le 30 ]
ok $? "a live ramp of 1.5 s at 500 ms samples: between the window and the cap ($w samples; 6 on a quiet machine)"
run "$F/settle_processes" -t 1 --period-ms 400 --warmup-period-ms 400 -s 1 --warmup auto --warmup-max 1 --param settle_ms=100000 --format csv
is "$(warmups)" 3 "--warmup-max 1 caps a rate that never settles at 1 s (3 samples of 400 ms)"
run "$F/settle_processes" -t 1 --period-ms 400 --warmup-period-ms 400 -s 1 --warmup auto --warmup-min 2 --param settle_ms=0 --format csv
w=$(warmups)
[ "$w" -ge 5 ]
ok $? "--warmup-min 2: a flat rate still warms up 2 s (5 samples of 400 ms, got $w)"
run "$F/settle_processes" -t 1 --period-ms 100 -s 2 --warmup 4 --param settle_ms=0 --format csv
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1,2 | tr '\n' ' ')" \
	"warmup,1 warmup,2 warmup,3 warmup,4 measure,1 measure,2 " "--warmup 4 is exactly 4 warmup samples"
run "$F/settle_processes" -t 1 --period-ms 100 -s 1 --param settle_ms=0 --format csv
[ "$(warmups)" -ge 3 ]
ok $? "the default is --warmup auto (at least the 3 samples the rule looks at)"
# The default warmup period (50 ms) at --period-ms 500: warmup rows short, measured rows 500 ms
# (the shortest warmup row, so that a late wake-up or two cannot fail it)
run "$F/settle_processes" -t 1 --period-ms 500 -s 2 --param settle_ms=0 --format samples
is "$(printf '%s\n' "$out" | awk -F, 'NR > 1 && $4 == "warmup" && (w == "" || $6 < w) { w = $6 }
	NR > 1 && $4 == "measure" && $6 >= 0.45 { m++ } END { print (w != "" && w < 0.45) ":" m }')" "1:2" \
	"--warmup auto judges 50 ms samples by default; the measured ones keep --period-ms"
run "$B/bin/null1_processes" --check --warmup soon
is "$rc:$err" "2:null1_processes: --warmup: 'soon' is neither a whole number nor auto" "--warmup soon is a usage error, in one line"

# ---- --timing: one line, every phase ----
for m in processes threads; do
	run "$B/bin/null1_$m" -t 4 --period-ms 100 -s 1 --warmup 0 --timing
	like "$err" "^null1_$m: timing: tasks=4 spawned_s=[0-9.]+ ready_s=[0-9.]+ open_s=[0-9.]+ all_started_s=([0-9.]+|-) started=[0-4] teardown_s=[0-9.]+$" "$m: --timing prints the start and teardown"
done
