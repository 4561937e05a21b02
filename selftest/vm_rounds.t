#!/usr/bin/env bash
# runtest.sh --kernel, host side, with a stand-in for vm/boot.sh that runs the guest's command on the host: rounds alternate, rows merge, meta, failure.
# sb-san: skip: runtest.sh --kernel's host side with a stand-in boot: shell
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads" "$SB_BUILD/bin/sb-compare"
private_bins "$SB_BUILD/bin" getppid1
export SB_TESTS_DIR=$T/bin

# The stand-in: --check prints a plan; a "boot" logs the kernel, leaves a
# console, then runs the command with the environment vm/boot.sh gives a guest.
cat >"$T/boot" <<'STUB'
#!/usr/bin/env bash
set -eu
kernel='' console='' check=0 cmd=()
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1; shift ;;
	--kernel) kernel=$2; shift 2 ;;
	--console) console=$2; shift 2 ;;
	--) shift; cmd=("$@"); break ;;
	*) shift 2 ;;
	esac
done
if [ "$check" = 1 ]; then printf 'kernel=%s\nrelease=stub-%s\naccel=tcg\ncpus=1\n' "$kernel" "${kernel##*/}"; exit 0; fi
printf '%s\n' "${kernel##*/}" >>"$STUB_LOG"
printf 'console of %s\n' "${kernel##*/}" >"$console"
if [ -n "${STUB_TERM_AT-}" ] && [ "$(wc -l <"$STUB_LOG")" = "$STUB_TERM_AT" ]; then
	kill -TERM "$PPID"	# runtest.sh, as a user would, during this "boot"
	sleep 0.5
	exit 130
fi
if [ -n "${STUB_FAIL-}" ]; then echo "vm/boot.sh: the guest kernel panicked: stub" >&2; exit 1; fi
SB_VM=qemu SB_VM_ACCEL=tcg SB_VM_CPUS=1 SB_VM_MEM=1024 SB_VM_FS=9p SB_VM_TOPOLOGY=stub SB_VM_IMAGE=$kernel \
	SB_VM_HOST_KERNEL=host SB_VM_HOST_CPU=cpu exec "${cmd[@]}"
STUB
chmod +x "$T/boot"
export SB_VM_BOOT=$T/boot STUB_LOG=$T/log
: >"$T/k1" && : >"$T/k2"
sweep=(getppid1 --mode processes --points 1 --duration 0.2 --warmup 0 --period-ms 100)

# ---- two kernels, three rounds ----
rc=0
./runtest.sh "${sweep[@]}" --repeat 3 --kernel "$T/k1" --kernel "$T/k2" --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "two kernels: exit 0"
is "$(tr '\n' ' ' <"$T/log")" "k1 k2 k1 k2 k1 k2 " "the boots alternate between the kernels, one per kernel a round"
mapfile -t runs <"$T/out"
is "${#runs[@]}" 2 "one run directory per kernel on stdout"
like "${runs[0]##*/}" '^stub-k1-[0-9]{8}T[0-9]{6}$' "the first is named after kernel 1's release"
like "${runs[1]##*/}" '^stub-k2-' "the second after kernel 2's"
for i in 0 1; do
	d=${runs[i]}
	is "$(awk -F, 'NR > 1 && $4 == "measure" { print $3 }' "$d/samples.csv" | sort -u | tr '\n' ' ')" "1 2 3 " \
		"kernel $((i + 1)): the rounds are runs 1, 2 and 3 of the point"
	is "$(meta "$d/meta" status),$(meta "$d/meta" repeat),$(meta "$d/meta" vm),$(meta "$d/meta" vm_accel)" \
		"complete,3,qemu,tcg" "kernel $((i + 1)): meta status, runs, vm, vm_accel"
	is "$(meta "$d/meta" vm_image)" "$T/k$((i + 1))" "kernel $((i + 1)): meta names the image"
	is "$(meta "$d/meta" guest_kernel_release)" "$(uname -r)" "kernel $((i + 1)): the release as uname -r said it inside"
	like "$(meta "$d/meta" host_command)" "--kernel $T/k1 --kernel $T/k2" "kernel $((i + 1)): the host's command line"
	is "$(meta "$d/meta" host_name)|$(meta "$d/meta" host_kernel)|$(meta "$d/meta" host_topology)" \
		"$(uname -n)|$(uname -srvm)|$("$SB_BUILD/bin/sb-topology" | sed -n 's/^topology=//p')" \
		"kernel $((i + 1)): the host's name, kernel and topology (not the guest's)"
	like "$(meta "$d/meta" host_cpu)" '.' "kernel $((i + 1)): the host's CPU"
	like "$(meta "$d/meta" host_system)" '^governor=[a-z]+ turbo=' "kernel $((i + 1)): the host's system check"
	like "$(meta "$d/meta" host_lock)" '^held \(' "kernel $((i + 1)): the host held the machine lock"
	is "$(cat "$d/console.log")" "console of k$((i + 1))" "kernel $((i + 1)): console.log of its last boot"
	is "$(col "$d/summary.csv" processes_n | tail -n 1)" 3 "kernel $((i + 1)): summary.csv counts 3 runs"
done
like "$(grep -c 'TCG: emulated' "$T/err")" '^[1-9]' "progress lines carry the TCG warning"
rc=0
./compare.sh "${runs[0]}" "${runs[1]}" >"$T/cmp" 2>&1 || rc=$?
is "$rc:$(grep -c 'vm_accel=tcg' "$T/cmp")" "2:1" "compare.sh refuses the TCG runs as a gate (exit 2, naming vm_accel=tcg)"
rc=0
./compare.sh --force "${runs[0]}" "${runs[1]}" >"$T/cmp" 2>&1 || rc=$?
ok "$([ "$rc" = 0 ] || [ "$rc" = 1 ]; echo $?)" "compare.sh --force compares the two runs (exit $rc)"
is "$(grep -c 'the sides are the rounds of one runtest.sh --kernel sweep: tested as pairs of rounds' "$T/cmp")" 1 \
	"and tests them as pairs of rounds (meta's vm_rounds and sweep_*: one sweep's)"

# ---- one kernel: one boot runs every run ----
: >"$T/log"
rc=0
./runtest.sh "${sweep[@]}" --repeat 2 --kernel "$T/k1" --results "$T/r1" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(tr '\n' ' ' <"$T/log")" "0:k1 " "one kernel: one boot"
d=$(cat "$T/out")
is "$(awk -F, 'NR > 1 && $4 == "measure" { print $3 }' "$d/samples.csv" | sort -u | tr '\n' ' ')" "1 2 " "its runs keep their numbers"
is "$(readlink "$T/r1/getppid1/latest")" "${d##*/}" "latest points to the host's run directory"

# ---- a guest that fails ----
rc=0
STUB_FAIL=1 ./runtest.sh "${sweep[@]}" --kernel "$T/k1" --results "$T/r2" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 1 "a failed guest: exit 1"
d=$(cat "$T/out")
is "$(meta "$d/meta" status)" failed "its meta says failed"
like "$(meta "$d/meta" error)" "status 1" "with the reason"
ok "$([ -s "$d/console.log" ]; echo $?)" "console.log is kept"
like "$(cat "$T/err")" "panicked" "the guest's failure is on stderr"

# ---- SIGTERM in round 2: what ran is kept, every run says interrupted ----
: >"$T/log"
rc=0
STUB_TERM_AT=3 ./runtest.sh "${sweep[@]}" --repeat 3 --kernel "$T/k1" --kernel "$T/k2" --results "$T/r4" \
	>"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(tr '\n' ' ' <"$T/log")" "130:k1 k2 k1 " "SIGTERM during round 2's first boot: exit 130, no boot after it"
mapfile -t runs <"$T/out"
is "$(meta "${runs[0]}/meta" status),$(meta "${runs[1]}/meta" status)" "interrupted,interrupted" "both runs say interrupted"
is "$(awk -F, 'NR > 1 && $4 == "measure" { print $3 }' "${runs[1]}/samples.csv" | sort -u | tr '\n' ' ')" "1 " \
	"round 1 of kernel 2 is kept"

# ---- --dry-run boots nothing; usage errors ----
: >"$T/log"
rc=0
./runtest.sh "${sweep[@]}" --kernel "$T/k1" --dry-run --results "$T/r3" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(cat "$T/log")" "0:" "--dry-run with --kernel: exit 0, no boot"
like "$(cat "$T/out")" "kernel 1:.*release=stub-k1" "it prints the VM plan"
ok "$([ ! -e "$T/r3/getppid1" ] || [ -z "$(ls -A "$T/r3/getppid1")" ]; echo $?)" "and makes no run directory"
rc=0
./runtest.sh "${sweep[@]}" --kernel "$T/k1" --vm-cpus 0 --results "$T/r3" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "--vm-cpus 0: exit 2"
rc=0
./runtest.sh "${sweep[@]}" --kernel >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "--kernel without a value: exit 2"
done_testing
