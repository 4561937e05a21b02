#!/usr/bin/env bash
# compare refuses runs from different machines (host, cpu_model, topology, hwloc_version, placement,
# and a VM run's host_name, host_cpu, host_topology differ: exit 2 naming the keys) unless --force, and
# then marks them in every format.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=selftest/data/compare/results/unix1
machine='cpu_model=AMD EPYC 7763
topology=packages=2 numa=2 cores=128 pus=256
hwloc_version=2.9.0
placement=cores'
# mkrun NAME FROM EDIT: a copy of fixture run FROM, with the machine's keys and sed EDIT on its meta
mkrun() {
	mkdir -p "$tmp/r/$1"
	cp "$R/$2/samples.csv" "$tmp/r/$1/"
	{ cat "$R/$2/meta"; printf '%s\n' "$machine"; } | sed "$3" >"$tmp/r/$1/meta"
}
mkrun base base-20260101T000000 's/^host=.*/host=box1/'
mkrun same new-20260102T000000 's/^host=.*/host=box1/'
mkrun other new-20260102T000000 's/^host=.*/host=box2/; s/^cpu_model=.*/cpu_model=Intel Xeon 8480/; s/^topology=.*/topology=packages=1 numa=1 cores=56 pus=112/'
mkrun placed new-20260102T000000 's/^host=.*/host=box1/; s/^placement=.*/placement=spread/'
mkrun hwloc new-20260102T000000 's/^host=.*/host=box1/; s/^hwloc_version=.*/hwloc_version=2.10.0/'
mkrun old new-20260102T000000 's/^host=.*/host=box1/; /^cpu_model=/d'

# VM runs (runtest.sh --kernel): every guest is host=scalebench-guest with QEMU's CPU and topology;
# the host_* keys are the machine QEMU ran on
# vm NAME CPU TOPOLOGY: the sed edit of a VM run's meta on that host
vm() { printf 's/^host=.*/host=scalebench-guest/; $a host_name=%s\\nhost_cpu=%s\\nhost_topology=%s' "$1" "$2" "$3"; }
mkrun vmbase base-20260101T000000 "$(vm runner1 'AMD EPYC 7763' 'packages=1 numa=1 cores=2 pus=4')"
mkrun vmsame new-20260102T000000 "$(vm runner1 'AMD EPYC 7763' 'packages=1 numa=1 cores=2 pus=4')"
mkrun vmother new-20260102T000000 "$(vm runner2 'AMD EPYC 7763' 'packages=1 numa=1 cores=2 pus=4')"
mkrun vmcpu new-20260102T000000 "$(vm runner1 'Intel Xeon 8370C' 'packages=1 numa=1 cores=4 pus=8')"
run ./compare.sh "$tmp/r/vmbase" "$tmp/r/vmsame"
is "$rc" 1 "two VM runs on one host: compared"
run ./compare.sh "$tmp/r/vmbase" "$tmp/r/vmother"
is "$rc:$(printf '%s' "$err" | grep -o "machines: [a-z_, ]* differ")" "2:machines: host_name differ" \
	"two VM runs on two hosts (both host=scalebench-guest): refused, naming host_name"
run ./compare.sh "$tmp/r/vmbase" "$tmp/r/vmcpu"
is "$rc:$(printf '%s' "$err" | grep -o "machines: [a-z_, ]* differ")" "2:machines: host_cpu, host_topology differ" \
	"another host CPU and topology under one host name: refused"

run ./compare.sh "$tmp/r/base" "$tmp/r/same"
is "$rc" 1 "the same machine: compared (the planted regression exits 1)"
run ./compare.sh "$tmp/r/base" "$tmp/r/other"
is "$rc" 2 "another host, CPU model and topology: refused (exit 2)"
like "$err" 'different machines: host, cpu_model, topology differ; --force compares them anyway' "naming the keys that differ"
is "$out" "" "and nothing on stdout"
for k in placed:placement hwloc:hwloc_version; do
	run ./compare.sh "$tmp/r/base" "$tmp/r/${k%%:*}"
	is "$rc:$(printf '%s' "$err" | grep -o "machines: [a-z_, ]* differ")" "2:machines: ${k#*:} differ" "a different ${k#*:} alone is refused"
done
run ./compare.sh "$tmp/r/base" "$tmp/r/old"
is "$rc" 1 "a key absent from one meta (an older run) does not refuse"

run ./compare.sh --force "$tmp/r/base" "$tmp/r/other"
is "$rc" 1 "with --force: compared (exit 1: the regression)"
like "$out" 'DIFFERENT MACHINE than base: host, cpu_model, topology differ \(compared with --force\)' "text marks it"
run ./compare.sh --force --format markdown "$tmp/r/base" "$tmp/r/other"
like "$out" '^\*\*Different machine\*\* \(compared with --force\): .* differs from base in host, cpu_model, topology\.$' "markdown marks it"
run ./compare.sh --force --format csv "$tmp/r/base" "$tmp/r/other"
# the machine column is followed by the gate's (issue 24): the quoted keys, then those
like "$(printf '%s\n' "$out" | head -n 1)" ',machine,p_value,' "csv has a machine column"
is "$(printf '%s\n' "$out" | sed 1d | grep -vc ',"host, cpu_model, topology",[^"]*$')" 0 "every csv row names the keys that differ"
run ./compare.sh --format csv "$tmp/r/base" "$tmp/r/same"
is "$(printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "machine") c = i; next }
	$c != "same"' | wc -l)" 0 "same machine: every csv row says same"
run ./compare.sh --force --point processes:2 "$tmp/r/base" "$tmp/r/other"
like "$out" '^DIFFERENT MACHINE \(compared with --force\)' "--point marks it too"

# The system checks (meta's system, runtest.sh's short form) differ: a note, not a refusal.
sys_base='governor=performance turbo=off smt=on aslr=on thp=madvise swap=off isolated=none prio=fifo vm=none load=0.10 others=0'
sys_new='governor=powersave turbo=on smt=on aslr=off thp=madvise swap=off isolated=none prio=fifo vm=none load=2.50 others=3'
mkrun sbase base-20260101T000000 "s/^host=.*/host=box1/; \$a system=$sys_base"
mkrun ssame new-20260102T000000 "s/^host=.*/host=box1/; \$a system=$sys_base"
mkrun sother new-20260102T000000 "s/^host=.*/host=box1/; \$a system=$sys_new"
mkrun svm new-20260102T000000 "s/^host=.*/host=box1/; \$a system=${sys_base/vm=none/vm=kvm}"
run ./compare.sh "$tmp/r/sbase" "$tmp/r/sother"
is "$rc" 1 "different system settings: compared, not refused (exit 1: the regression)"
like "$out" 'Note: base and new were measured with different system settings \(base/new: governor performance/powersave, turbo off/on\): part of a difference may be the machine' \
	"a note names the governor and turbo that differ (not load, aslr or others)"
run ./compare.sh "$tmp/r/sbase" "$tmp/r/svm"
like "$out" 'different system settings \(base/new: vm none/kvm\)' "a VM on one side is noted"
run ./compare.sh "$tmp/r/sbase" "$tmp/r/ssame"
unlike "$out" 'different system settings' "the same settings: no note"
run ./compare.sh "$tmp/r/base" "$tmp/r/sother"
unlike "$out" 'different system settings' "a side without a system check (an older run): no note"
run ./compare.sh --format markdown "$tmp/r/sbase" "$tmp/r/sother"
like "$out" '> \*\*Note:\*\* base and new were measured with different system settings' "markdown notes it too"

plan "$_n"
exit "$_failed"
