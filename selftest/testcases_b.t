#!/usr/bin/env bash
# The will-it-scale set, part B (pread..write1): each testcase runs in every mode it declares and counts,
# leaves no files behind, and read3/read4 name the filesystem that refuses O_DIRECT.
. "$(dirname "$0")/lib.sh"
tests="pread1 pread2 pread3 pwrite1 pwrite2 pwrite3 pthread_mutex1 pthread_mutex2 pthread_mutex3
	pthread_mutex4 pthread_mutex5 read1 read2 read3 read4 readseek1 readseek2 readseek3 writeseek1
	writeseek2 writeseek3 sched_yield signal1 tlb_flush1 tlb_flush2 tlb_flush3 unlink1 unlink2 write1"
short="-t 2 --period-ms 100 -s 2 --warmup 1"
tmp=$(mktemp -d)
shm=
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT
# Every run's private directory goes under $base, which must be empty after each run.
base=$tmp/base
mkdir "$base"

# avg_ok NAME: the last run exited 0 and its average is above 0
avg_ok() {
	local avg
	is "$rc" 0 "$1 exits 0${err:+ ($err)}"
	avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
	[ -n "$avg" ] && [ "$avg" -gt 0 ]
	ok $? "$1: average ${avg:-missing} > 0"
	is "$(ls -A "$base")" "" "$1 leaves no files behind"
}

for t in $tests; do
	# The modes come from the testcase itself (SB_MODES), so a declared restriction is honoured.
	run "$B/bin/${t}_threads" --info
	modes=$(printf '%s\n' "$out" | sed -n 's/^modes=//p' | tr ',' ' ')
	like "$modes" "^(processes|threads)" "$t --info names its modes"
	for m in $modes; do
		run env -u SCALEBENCH_TMPDIR TMPDIR="$base" "$B/bin/${t}_$m" $short
		avg_ok "$t $m -t 2"
	done
done

# The TLB tests need the partner in the task's mm: threads only, and the processes binary refuses.
for t in tlb_flush1 tlb_flush2 tlb_flush3; do
	run "$B/bin/${t}_processes" $short
	is "$rc" 2 "${t}_processes refuses to run (threads only)"
done

# odirect_refused NAME FS: the last run failed (exit 1) naming FS as refusing O_DIRECT
odirect_refused() {
	is "$rc" 1 "$1 exits 1 where O_DIRECT is refused"
	like "$err" "O_DIRECT not supported on $2 at " "$1 names the filesystem ($2)"
}

# tmpfs refuses O_DIRECT before Linux 6.6; newer kernels accept it, and then there is nothing to test.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && shm=$(mktemp -d /dev/shm/sbtest.XXXXXX); then
	if dd if=/dev/zero of="$shm/probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
		skip "this kernel's tmpfs accepts O_DIRECT"
		skip "this kernel's tmpfs accepts O_DIRECT"
	else
		rm -f "$shm/probe"
		run "$B/bin/read3_processes" $short --param dir="$shm"
		odirect_refused "read3 on tmpfs" tmpfs
	fi
else
	skip "no tmpfs at /dev/shm"
	skip "no tmpfs at /dev/shm"
fi

# ramfs refuses O_DIRECT on every kernel; mount one in a private mount namespace (root only).
ram=$tmp/ramfs
mkdir "$ram"
if unshare -m sh -c 'mount -t ramfs ramfs "$1"' sh "$ram" 2>/dev/null; then
	for t in read3_processes read4_threads; do
		run unshare -m sh -c 'mount -t ramfs ramfs "$1" && exec "$2" -t 2 --period-ms 100 -s 2 \
			--warmup 1 --param dir="$1"' sh "$ram" "$B/bin/$t"
		odirect_refused "$t on ramfs" ramfs
	done
else
	for i in 1 2 3 4; do skip "cannot mount a ramfs here (needs root and unshare)"; done
fi

plan "$_n"
exit "$_failed"
