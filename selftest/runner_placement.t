#!/usr/bin/env bash
# Placement on synthetic topologies: exact task -> PU lists for cores, pus and spread.
. "$(dirname "$0")/lib.sh"
bin=$B/bin/null1_processes
plan 26

# PU column of --print-placement, as one line
pus() { "$bin" --print-placement "$@" 2>/dev/null | awk 'NR > 1 { printf "%s%s", s, $2; s = "," }'; }

# 2 packages x 2 NUMA nodes x 4 cores x 2 PUs: 16 cores, 32 PUs, PU os index = logical.
export HWLOC_SYNTHETIC="pack:2 numa:2 core:4 pu:2"
is "$(pus -t 8 --placement cores)" "0,2,4,6,8,10,12,14" "cores: one task per core, first PU of each, in order"
is "$(pus -t 8 -m)" "0,1,2,3,4,5,6,7" "-m: hardware threads in order (siblings first)"
is "$(pus -t 8 --placement pus)" "0,1,2,3,4,5,6,7" "--placement pus is -m"
# spread: hwloc_distrib picks 8 of the 16 cores evenly, then consecutive
# tasks alternate packages, then NUMA nodes.
is "$(pus -t 8 --placement spread)" "0,16,8,24,4,20,12,28" "spread: 8 tasks across packages and NUMA nodes"
is "$(pus -t 2 --placement spread)" "0,16" "spread: 2 tasks on the two packages"
is "$(pus -t 4 --placement spread)" "0,16,8,24" "spread: 4 tasks, one per NUMA node"
is "$("$bin" --print-placement -t 2 --placement spread | sed -n 3p)" "1 16 8 2 1" "spread: task 1 is on core 8, NUMA node 2, package 1"
is "$(pus -t 3 -n)" "-,-,-" "none: no binding"
is "$(pus -t 2 --cpus 4-11)" "4,6" "--cpus restricts the places to those PUs"

run "$bin" --print-placement -t 18
like "$err" "^null1_processes: oversubscribed: 18 tasks on 16 cores$" "18 tasks on 16 cores warns once"
is "$(printf '%s\n' "$out" | awk 'NR == 18 || NR == 19 { printf "%s ", $2 }')" "0 2 " "and wraps around to the first cores"

# A 96-core machine: 2 packages x 2 NUMA x 24 cores x 2 PUs.
export HWLOC_SYNTHETIC="pack:2 numa:2 core:24 pu:2"
is "$(pus -t 96 | awk -F, '{ print $1, $2, $48, $96 }')" "0 2 94 190" "96 cores: task i on PU 2i"
is "$(pus -t 4 --placement spread)" "0,96,48,144" "96 cores, spread: one task per NUMA node, packages alternating"
is "$(pus -t 6 --placement spread)" "0,96,48,144,24,120" "96 cores, spread 6: 3 per package, 2+1 per NUMA pair"
run "$bin" --print-placement -t 97
like "$err" "oversubscribed: 97 tasks on 96 cores" "97 tasks on 96 cores warns"

export HWLOC_SYNTHETIC="bogus:3"
run "$bin" --print-placement
is "$rc" 2 "an invalid HWLOC_SYNTHETIC exits 2"
like "$err" "HWLOC_SYNTHETIC='bogus:3' is not a valid synthetic topology" "and says so"

# --cpus and HWLOC_XMLFILE mistakes are input errors, named.
unset HWLOC_SYNTHETIC
run "$bin" --print-placement --cpus x
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "--cpus with a malformed list exits 2 in one line"
like "$err" "--cpus: 'x' is not a CPU list like 0-3,8 \(this machine has [0-9,-]+\)" "and shows the machine's PUs"
run "$bin" --print-placement --cpus 0-100000
is "$rc" 2 "--cpus naming PUs the machine lacks exits 2"
like "$err" "names PUs this machine does not have" "and says so"
run env HWLOC_XMLFILE=/nonexistent.xml "$bin" --print-placement
is "$rc" 2 "an unreadable HWLOC_XMLFILE exits 2"
like "$err" "HWLOC_XMLFILE='/nonexistent.xml' cannot be loaded" "and names it"
run "$bin" --print-placement -n --cpus 0 -t 2
is "$(printf '%s\n' "$out" | sed 1d | tr '\n' ';')" "0 - - - -;1 - - - -;" "-n with --cpus: no per-task PU"
# The affinity fixture fails unless its task is bound to exactly one CPU.
run "$B/selftest/affinity_processes" -n --cpus 0 -t 2 -s 1 --warmup 0 --period-ms 100
is "$rc" 0 "-n --cpus 0: every task is still confined to CPU 0${err:+ ($err)}"
if [ "$(nproc)" -gt 1 ]; then
	run "$B/selftest/affinity_processes" -n -t 1 -s 1 --warmup 0 --period-ms 100
	is "$rc" 1 "(without --cpus, -n leaves the task unbound and the fixture says so)"
else
	skip "one CPU: cannot tell bound from unbound"
fi
