#!/usr/bin/env bash
# runtest.sh --points topology and sb-topology on synthetic topologies (HWLOC_SYNTHETIC).
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"

# 2 packages, 4 NUMA nodes, 16 cores, 32 PUs, no caches
TWO_SOCKETS="pack:2 numa:2 core:4 pu:2"
# the same with an L3 shared by 6 cores: 2 per NUMA node
WITH_L3="pack:2 numa:2 l3:2 core:6 pu:2"

topo() {	# topo SYNTHETIC KEY
	HWLOC_SYNTHETIC=$1 "$SB_BUILD/bin/sb-topology" | sed -n "s/^$2=//p"
}

is "$(topo "$TWO_SOCKETS" topology)" "packages=2 numa=4 cores=16 pus=32" "sb-topology: counts"
is "$(topo "$TWO_SOCKETS" cores_per_numa),$(topo "$TWO_SOCKETS" cores_per_package),$(topo "$TWO_SOCKETS" cores_per_llc)" \
	"4,8,0" "sb-topology: cores per NUMA node, package, LLC (0: no cache)"
is "$(topo "$TWO_SOCKETS" topology_points)" "1,4,8,12,16" \
	"topology points: 1, each NUMA node's worth (4 8 12 16), each package's (8 16), 3/4 (12), all"
is "$(topo "$TWO_SOCKETS" topology_points_pus)" "1,8,16,24,32" "the same in PUs"
is "$(topo "$WITH_L3" cores_per_llc)" 6 "sb-topology: cores under the first last-level cache"
is "$(topo "$WITH_L3" topology_points)" "1,6,12,24,36,48" "with an L3: its 6 cores join the points"
like "$(topo "$TWO_SOCKETS" hwloc_version)" '^[0-9]+\.[0-9]+' "hwloc version"

points() {	# points SYNTHETIC ARGS...: the points --dry-run prints
	local s=$1
	shift
	HWLOC_SYNTHETIC=$s ./runtest.sh getppid1 --dry-run "$@" 2>/dev/null | sed -n 's/^  points: *//p'
}
is "$(points "$TWO_SOCKETS" --points topology)" "1,4,8,12,16 (5)" "--points topology on 2 packages / 4 NUMA nodes"
is "$(points "$TWO_SOCKETS" --points topology --smt)" "1,8,16,24,32 (5)" "--points topology --smt counts PUs"
is "$(points "$TWO_SOCKETS" --points all)" "$(seq -s, 1 16) (16)" "--points all, default --max-procs: the cores"
is "$(points "$TWO_SOCKETS")" "1,2,4,8,12,16 (6)" "default (auto): 1, 2, the powers of two and the topology points to the cores"
like "$(HWLOC_SYNTHETIC=$TWO_SOCKETS ./runtest.sh getppid1 --dry-run 2>/dev/null | sed -n 's/^  seeds: *//p')" \
	'^1 \(1\), 2 \(2\), 4 \(NUMA node\), 8 \(package\), 12 \(3 NUMA nodes\), 16 \(all cores\)$' "auto: each seed's reason"
is "$(points "$TWO_SOCKETS" --smt --step 8)" "1,8,16,24,32 (5)" "--smt: up to the PUs"
like "$(HWLOC_SYNTHETIC=$TWO_SOCKETS ./runtest.sh getppid1 --dry-run --points topology --placement spread 2>/dev/null |
	sed -n '/task pu core/{n;n;p}')" '^ +1 16 8 2 1$' "--dry-run shows the placement: spread puts task 1 on the other package"

# a real sweep on a small synthetic machine (binding is a no-op without HWLOC_THISSYSTEM=1)
rc=0
HWLOC_SYNTHETIC="pack:2 numa:2 core:1 pu:1" ./runtest.sh getppid1 --points topology --mode processes \
	--duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "sweep on a synthetic topology exits 0"
[ "$rc" = 0 ] || diag_file "$T/err"
run=$(cat "$T/out")
is "$(meta "$run/meta" points)" 1,2,3,4 "meta points: the topology's"
is "$(meta "$run/meta" topology)" "packages=2 numa=4 cores=4 pus=4" "meta topology: the synthetic one"
is "$(col "$run/summary.csv" tasks | tr '\n' ' ')" "0 1 2 3 4 " "a summary row per point"

# sb-topology --cores N: what vm/boot.sh pins vCPUs to: one PU a core, by package then core
is "$(HWLOC_SYNTHETIC="$TWO_SOCKETS" "$SB_BUILD/bin/sb-topology" --cores 10 | tr '\n' ' ')" \
	"0 0 2 0 4 0 6 0 8 0 10 0 12 0 14 0 16 1 18 1 " "--cores 10 on 2x16: CPU and package of the first 10 cores"
is "$(HWLOC_SYNTHETIC="$TWO_SOCKETS" "$SB_BUILD/bin/sb-topology" --cores 100 | wc -l | tr -d ' ')" 16 \
	"--cores beyond the machine: every core once"
rc=0
"$SB_BUILD/bin/sb-topology" --cores 0 >/dev/null 2>&1 || rc=$?
is "$rc" 2 "--cores 0: exit 2"

done_testing
