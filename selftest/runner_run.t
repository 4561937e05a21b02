#!/usr/bin/env bash
# The first testcases run in both modes, text and CSV are well formed, tasks are pinned before they start.
. "$(dirname "$0")/lib.sh"
first="null1 getppid1 pipe1 unix1 context_switch1 lock2"
plan 69

for t in $first; do
	for m in processes threads; do
		for n in 1 2; do
			run "$B/bin/${t}_$m" -t $n --period-ms 100 -s 3 --warmup 1
			is "$rc" 0 "$t $m -t $n exits 0${err:+ ($err)}"
			avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
			[ -n "$avg" ] && [ "$avg" -gt 0 ]
			ok $? "$t $m -t $n: average $avg > 0"
		done
	done
done

# Text output keeps will-it-scale's lines, in its order.
run "$B/bin/getppid1_processes" -t 2 --period-ms 100 -s 3 --warmup 2
shape=$(printf '%s\n' "$out" | sed -E 's/[0-9]+/N/g' | tr '\n' '|')
is "$shape" "testcase:getppid|warmup|min:N max:N total:N|min:N max:N total:N|measurement|min:N max:N total:N|min:N max:N total:N|min:N max:N total:N|average:N|" "text output has will-it-scale's shape"
# average is the mean of the measured totals (rounded each way, so allow 2)
calc=$(printf '%s\n' "$out" | awk -F'total:' '/^measurement/ { m = 1; next } m && /total:/ { s += $2; n++ } END { printf "%d", s / n }')
got=$(printf '%s\n' "$out" | sed -n 's/^average://p')
[ $((calc - got)) -le 2 ] && [ $((got - calc)) -le 2 ]
ok $? "average ($got) is the mean of the measured samples ($calc)"

# CSV: header and one row per sample, warmup marked.
for m in processes threads; do
	run "$B/bin/getppid1_$m" -t 2 --period-ms 100 -s 3 --warmup 1 --format csv
	is "$rc" 0 "csv $m exits 0"
	is "$(printf '%s\n' "$out" | head -1)" "phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms" "csv $m header"
	is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1,2 | tr '\n' ' ')" "warmup,1 measure,1 measure,2 measure,3 " "csv $m: 1 warmup and 3 measured rows"
	# ops_per_s is ops over the sample's real length; min <= max; idle within 0..100
	bad=$(printf '%s\n' "$out" | sed 1d | awk -F, '{
		r = $4 / $3; if (r - $5 > $5 * 1e-4 || $5 - r > $5 * 1e-4) print "rate " NR
		if ($6 > $7) print "min>max " NR
		if ($6 * 2 > $5 + 1) print "min*tasks>total " NR
		if ($8 != "" && ($8 < 0 || $8 > 100)) print "idle " NR
		if ($9 != "" && ($9 < 0 || $9 > 100)) print "idle_all " NR }')
	is "$bad" "" "csv $m: rates are ops/elapsed, min <= max, idle in 0..100"
done

# -v adds per-task rates.
run "$B/bin/null1_processes" -t 2 --period-ms 100 -s 1 --warmup 0 -v
like "$out" "^tasks:[0-9]+ [0-9]+$" "-v prints one rate per task"
run "$B/bin/null1_processes" -t 2 --period-ms 100 -s 1 --warmup 0 -v --format csv
like "$(printf '%s\n' "$out" | head -1)" ",task_0,task_1$" "-v --format csv adds a column per task"

# Every task is bound to its one PU before testcase() runs (placement cores/pus).
for m in processes threads; do
	run "$B/selftest/affinity_$m" -t 2 --period-ms 100 -s 1 --warmup 0
	is "$rc" 0 "$m: tasks are pinned before testcase()${err:+ ($err)}"
done

# Oversubscribed: 8 tasks on this machine's cores still run, with one warning.
ncores=$("$B/bin/null1_processes" --print-placement -t 1 >/dev/null 2>&1; nproc)
run "$B/bin/getppid1_processes" -t $((ncores * 4)) --period-ms 100 -s 1 --warmup 0
is "$rc" 0 "$((ncores * 4)) tasks on $ncores CPUs run"
like "$err" "^getppid1_processes: oversubscribed: $((ncores * 4)) tasks on [0-9]+ cores$" "with one warning"

# Idle accounting: one spinning task keeps its own CPU busy (idle_pct near 0),
# and the machine-wide figure cannot exceed the share of the other CPUs.
ncpu=$(nproc)
run "$B/bin/null1_processes" -t 1 --period-ms 300 -s 3 --warmup 1 --format csv
if linux_only; then
	bad=$(printf '%s\n' "$out" | awk -F, -v n="$ncpu" 'NR > 2 {
		if ($8 == "" || $8 > 20) print "idle_pct " $8
		if ($9 == "" || $9 > 100 * (n - 1) / n + 10) print "idle_all_pct " $9 }')
	is "$bad" "" "idle: the task's CPU is busy, the machine at most $(( 100 * (ncpu - 1) / ncpu ))% idle"
else
	# The generic OS layer has no CPU times: both idle columns are empty, never 0 (docs/PORTING.md).
	bad=$(printf '%s\n' "$out" | awk -F, 'NR > 1 && ($8 != "" || $9 != "") { print NR ": " $8 "," $9 }')
	is "$bad" "" "idle: empty in every row where the OS gives no CPU times (SB_OS=${SB_OS-})"
fi

# 96 tasks on a small machine: oversubscribed, and still measured in both modes.
for m in processes threads; do
	run "$B/bin/context_switch1_$m" -t 96 --period-ms 250 -s 2 --warmup 1
	is "$rc" 0 "96 tasks with partners, $m, run${err:+ ($(printf '%s' "$err" | head -1))}"
	like "$out" "^average:[1-9][0-9]*$" "96 tasks, $m: an average"
done
