#!/usr/bin/env bash
# runtest.sh --kernel for real: a Debian kernel boots under QEMU (TCG here) for one short point; the panic path; pinning; a lost share; SIGINT, SIGTERM, SIGKILL leave no QEMU.
# Slow (about 2-4 minutes under TCG): runs from 'make check-vm' (SB_CHECK_VM=1), skips in 'make check'.
# sb-san: skip: skips in make check (make check-vm runs it)
. "$(dirname "$0")/runtest_lib.sh"

skip_all() { echo "1..0 # skip $1"; exit 0; }
[ "${SB_CHECK_VM-}" = 1 ] || skip_all "boots a VM: run by 'make check-vm'"
command -v qemu-system-x86_64 >/dev/null || skip_all "qemu-system-x86 is not installed ('make deps')"
kernel=$(vm/test-kernel.sh) || skip_all "no test kernel: 'make test-kernel' installs one"
release=$(. vm/kernel.sh && kernel_release "$kernel")
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"
mkdir -p "$T/tmp"
export TMPDIR=$T/tmp	# every QEMU and virtiofsd of this test has $T in its command line
left() { pgrep -f -- "$T/tmp" | tr '\n' ' '; }
sweep=(getppid1 --mode processes --points 1 --duration 1 --warmup 0)

# ---- one point in the guest ----
s0=$SECONDS
rc=0
./runtest.sh "${sweep[@]}" --kernel "$kernel" --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
echo "# one point in the guest: $((SECONDS - s0)) s"
is "$rc" 0 "the sweep in the guest: exit 0"
d=$(cat "$T/out")
is "$(meta "$d/meta" status)" complete "meta: status=complete"
is "$(meta "$d/meta" guest_kernel_release)" "$release" "meta: the guest's release, from uname -r inside"
like "$(meta "$d/meta" kernel)" "$release" "meta: kernel is the guest's"
like "$(meta "$d/meta" guest_kernel_version)" '^#' "meta: the guest's version string"
like "$(meta "$d/meta" vm_accel),$(meta "$d/meta" vm_cpus),$(meta "$d/meta" vm)" '^(kvm|tcg),1,qemu$' "meta: accelerator, 1 vCPU for 1 task, vm=qemu"
is "$(meta "$d/meta" host_kernel)" "$(uname -srvm)" "meta: the host's kernel"
is "$(awk -F, '$1 == 1 { print ($2 > 0) }' "$d/summary.csv")" 1 "summary.csv has the point"
ok "$(grep -q 'sb-vm: running the command' "$d/console.log"; echo $?)" "console.log is the guest's console"
if [ "$(meta "$d/meta" vm_accel)" = tcg ]; then
	like "$(grep 'getppid1  processes' "$T/err")" 'TCG: emulated' "TCG: the progress line says so"
else
	ok 0 "KVM: no TCG warning needed"
fi
is "$(left)" "" "no QEMU or virtiofsd left"

# ---- a kernel command line that panics ----
s0=$SECONDS
rc=0
./runtest.sh "${sweep[@]}" --kernel "$kernel" --vm-append rdinit=/nonexistent --results "$T/p" >"$T/out" 2>"$T/err" || rc=$?
echo "# the panic path: $((SECONDS - s0)) s"
is "$rc" 1 "a guest that panics: exit 1"
d=$(cat "$T/out")
is "$(meta "$d/meta" status)" failed "meta: status=failed"
like "$(meta "$d/meta" error)" 'panicked' "meta: the error says the kernel panicked"
ok "$(grep -q 'Kernel panic' "$d/console.log"; echo $?)" "console.log holds the panic"
is "$(left)" "" "no QEMU or virtiofsd left"

# ---- vm/boot.sh alone: vCPUs pinned one-to-one, the guest's topology, a share lost under the command ----
n=$(vm/boot.sh --kernel "$kernel" --check | sed -n 's/^cpus=//p')	# the host's cores
pins=$(vm/boot.sh --kernel "$kernel" --check | sed -n 's/^topology=.*pinned to host CPUs //p')
mkdir -p "$T/share"
vm/boot.sh --quiet --kernel "$kernel" --cpus "$n" --share "$T/share" --console "$T/share.console" -- \
	sh -c "nproc >$T/share/nproc.tmp && mv $T/share/nproc.tmp $T/share/nproc; sleep 4; echo written >$T/share/f; umount $T/share" \
	>"$T/out" 2>"$T/err" &
bpid=$!
for ((i = 0; i < 3000; i++)); do [ -s "$T/share/nproc" ] || ! kill -0 "$bpid" 2>/dev/null && break; nap 0.1; done
is "$(cat "$T/share/nproc" 2>/dev/null)" "$n" "the guest has one vCPU per host core ($n)"
got=''
qpid=$(pgrep -f -- "$T/tmp/.*initramfs" | head -n 1)
for ((i = 0; i < n; i++)); do	# QEMU names its vCPU threads "CPU i/TCG" or "CPU i/KVM" (debug-threads)
	for task in /proc/"$qpid"/task/*; do
		case $(cat "$task/comm" 2>/dev/null) in
		"CPU $i/"*) got="$got${got:+,}$(taskset -c -p "${task##*/}" | sed 's/.*: //')" ;;
		esac
	done
done
is "$got" "$pins" "vCPU i runs on host CPU i of the plan only ($pins)"
rc=0
wait "$bpid" || rc=$?
is "$rc" 1 "a share unmounted under the command: exit 1"
like "$(cat "$T/err")" "the share $T/share was lost" "the error names the share"
is "$(cat "$T/share/f")" written "what the guest wrote to the share is on the host"
ok "$(grep -q 'was lost' "$T/share.console"; echo $?)" "--console keeps the console"
is "$(left)" "" "no QEMU or virtiofsd left"

# ---- SIGINT (as from a terminal), SIGTERM, SIGKILL of runtest.sh while the guest boots ----
for sig in INT TERM KILL; do
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		./runtest.sh "${sweep[@]}" --kernel "$kernel" --results "$T/$sig" >"$T/out" 2>"$T/err" &
	pid=$!
	for ((i = 0; i < 600; i++)); do	# until QEMU runs
		if pgrep -f -- "$T/tmp/.*initramfs" >/dev/null; then break; fi
		nap 0.1
	done
	sleep 2
	kill -"$sig" "$pid"
	rc=0
	{ wait "$pid" || rc=$?; } 2>/dev/null	# (bash's "Killed" line)
	if [ "$sig" = KILL ]; then is "$rc" 137 "SIGKILL: killed"; else is "$rc" 130 "SIG$sig: exit 130"; fi
	for ((i = 0; i < 100; i++)); do	# SIGKILL: vm/boot.sh finishes after its parent
		[ -n "$(left)" ] || break
		nap 0.1
	done
	is "$(left)" "" "$sig: no QEMU or virtiofsd left"
	d=$(ls -d "$T/$sig"/getppid1/*-*)
	is "$(meta "$d/meta" status)" interrupted "$sig: meta says interrupted"
done
done_testing
