#!/usr/bin/env bash
# sb-bisect --kernel: the boot path of a step (a stand-in for vm/boot.sh picks the testcase's speed by the image it is given), ends on one image refused; with a real test kernel (make check-vm), one image at both ends refused as no difference.
# sb-san: skip: runtest.sh --kernel's host side with a stand-in boot (the C it runs is tested by bisect_repo.t and bisect_decide.t)
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-bisect" "$SB_BUILD/libscalebench.a" "$SB_BUILD/obj/runner/mode_processes.o" \
	"$SB_BUILD/obj/runner/mode_threads.o" "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"
SB=$PWD
case $SB_BUILD in /*) BB=$SB_BUILD ;; *) BB=$PWD/$SB_BUILD ;; esac
bisect=$BB/bin/sb-bisect
export SB_MACHINE_BUSY_PCT=101 SB_MACHINE_PROBE_MS=10 SB_MACHINE_REFERENCE_MS=0 SB_MACHINE_STEADY_MS=200 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
shape=(paceop --mode processes --points 1 --duration 0.3 --warmup 0.2 --period-ms 100 --repeat 3)

# paceop built twice: an operation every 100 us ($T/fast) and every 110 us ($T/slow), clock-paced
paceop() {	# paceop DIR PERIOD_NS
	mkdir -p "$1"
	cat >"$1/paceop.c" <<EOC
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>
#include "testcase.h"
char *testcase_description = "clock-paced operations";
void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct timespec next;
	int e;

	(void)nr;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		next.tv_nsec += $2;
		if (next.tv_nsec >= 1000000000L) { next.tv_sec++; next.tv_nsec -= 1000000000L; }
		while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)) == EINTR)
			;
		if (e)
			sb_fatalx("clock_nanosleep: error %d", e);
		sb_count(iterations);
	}
}
EOC
	local m hwloc
	read -ra hwloc <<<"$(pkg-config --libs hwloc)"
	for m in processes threads; do
		"${CC:-cc}" -std=gnu11 -O2 -pthread -Irunner/include -o "$1/paceop_$m" "$1/paceop.c" \
			"$BB/obj/runner/mode_$m.o" "$BB/libscalebench.a" "${hwloc[@]}" -lm || return 1
	done
}
if ! paceop "$T/fast" 100000 || ! paceop "$T/slow" 110000; then echo "Bail out! cannot build paceop"; exit 1; fi

# The stand-in: logs each boot's image and what it holds, and runs the guest's command on the host
# with the testcase binaries the image stands for (an image holding "slow": the slow ones).
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
if [ "$check" = 1 ]; then printf 'kernel=%s\nrelease=stub\naccel=tcg\ncpus=1\n' "$kernel"; exit 0; fi
speed=fast
if grep -q slow "$kernel"; then speed=slow; fi
printf '%s %s\n' "$kernel" "$speed" >>"$STUB_LOG"
: >"$console"
for i in "${!cmd[@]}"; do
	case ${cmd[i]} in SB_TESTS_DIR=*) cmd[i]=SB_TESTS_DIR=$STUB_BINS/$speed ;; esac
done
SB_VM=qemu SB_VM_ACCEL=tcg SB_VM_CPUS=1 SB_VM_MEM=1024 SB_VM_FS=9p SB_VM_TOPOLOGY=stub SB_VM_IMAGE=$kernel \
	SB_VM_HOST_KERNEL=host SB_VM_HOST_CPU=cpu exec "${cmd[@]}"
STUB
chmod +x "$T/boot"
export SB_VM_BOOT=$T/boot STUB_LOG=$T/log STUB_BINS=$T SB_TESTS_DIR=$T/fast
: >"$T/log"

# a kernel tree of three commits: the image the build makes is fast at 1, slow from 2 on
git init -q "$T/repo"
cd "$T/repo" || exit 1
printf 'bzImage\n' >.gitignore
for i in 1 2 3; do
	if [ "$i" = 1 ]; then echo fast >image; else echo slow >image; fi
	git add -A && git commit -q --allow-empty -m "commit $i"
done
sha() { git log --all --format=%H --grep="^commit $1\$"; }
common=(--kernel "$T/repo/bzImage" --build 'cp image bzImage' --results "$T/res" --runtest "$SB/runtest.sh")

git checkout -q "$(sha 1)"
rc=0; "$bisect" measure "${common[@]}" -- "${shape[@]}" >"$T/good" 2>"$T/err" || rc=$?
is "$rc" 0 "measure the good end in a (stand-in) VM: exit 0"
[ "$rc" = 0 ] || diag_file "$T/err"
is "$(tail -n 1 "$T/log")" "$T/repo/bzImage fast" "the end's sweep booted the image its build made"
"$bisect" measure "${common[@]}" -- "${shape[@]}" >"$T/good2" 2>>"$T/err"
git checkout -q "$(sha 3)"
"$bisect" measure "${common[@]}" -- "${shape[@]}" >"$T/bad" 2>>"$T/err"
is "$(tail -n 1 "$T/log")" "$T/repo/bzImage slow" "the bad end booted the slow image"
boots=$(wc -l <"$T/log")

# one image at both ends: no difference, exit 128, nothing booted
git checkout -q "$(sha 2)"
rc=0; "$bisect" "${common[@]}" --good "$(cat "$T/good")" --bad "$(cat "$T/good2")" --point processes:1 \
	>/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "the same image at both ends: exit 128"
like "$(cat "$T/err")" "no difference: at processes:1" "refused as no difference"
is "$(wc -l <"$T/log")" "$boots" "no boot for a refused bisect"

# the bisect: commit 2 is the first bad one; its step boots the image it built
git bisect start "$(sha 3)" "$(sha 1)" >/dev/null
# --drift 0: this checks the boot path; the fixture is clock-paced, so its level holds from one
# sweep to the next and there is no drift to learn (under a loaded CI pool the steps' own spread
# would otherwise stop the bisect, rightly: bisect_decide.t and bisect_repo.t test that rule)
rc=0; git bisect run "$bisect" "${common[@]}" --good "$(cat "$T/good")" --bad "$(cat "$T/bad")" \
	--point processes:1 --drift 0 >"$T/run" 2>&1 || rc=$?
is "$rc" 0 "git bisect run sb-bisect --kernel: exit 0"
[ "$rc" = 0 ] || diag_file "$T/run"
like "$(cat "$T/run")" "$(sha 2) is the first bad commit" "commit 2 is the first bad commit"
like "$(sed -n "$((boots + 1)),\$p" "$T/log" | tr '\n' ' ')" "^($T/repo/bzImage slow )+$" \
	"the step booted the image built at commit 2 (the boot path was taken)"
like "$(cat "$T/run")" "bad after [0-9]+ runs" "and the sequential test called it bad"
git bisect reset >/dev/null 2>&1

skip2() { tap_n=$((tap_n + 2)); echo "ok $((tap_n - 1)) # skip $1"; echo "ok $tap_n # skip $1"; }
# ---- a real kernel (make check-vm): the test kernel at both ends is no difference ----
unset SB_VM_BOOT SB_TESTS_DIR
if [ "${SB_CHECK_VM-}" != 1 ]; then
	skip2 "boots a real kernel under QEMU: run by 'make check-vm'"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	skip2 "qemu-system-x86 is not installed ('make deps')"
elif ! kernel=$(cd "$SB" && vm/test-kernel.sh 2>/dev/null); then
	skip2 "no test kernel: 'make test-kernel' installs one"
else
	real=(getppid1 --mode processes --points 1 --duration 1 --warmup 0 --repeat 3)
	a=$("$bisect" measure --kernel "$kernel" --results "$T/vm" --runtest "$SB/runtest.sh" -- "${real[@]}" 2>"$T/err")
	b=$("$bisect" measure --kernel "$kernel" --results "$T/vm" --runtest "$SB/runtest.sh" -- "${real[@]}" 2>>"$T/err")
	# (a step's --kernel needs a --build; the ends are checked before it runs)
	rc=0; "$bisect" --kernel "$kernel" --build true --results "$T/vm" --runtest "$SB/runtest.sh" --good "$a" \
		--bad "$b" --point processes:1 >/dev/null 2>"$T/err" || rc=$?
	is "$rc" 128 "the test kernel at both ends: exit 128"
	like "$(cat "$T/err")" "no difference" "refused as no difference"
fi
cd "$SB" || exit 1
done_testing
