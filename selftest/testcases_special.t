#!/usr/bin/env bash
# What testcases.t's generic runs cannot see: refusals that name their reason, a non-default
# parameter, --param dir left empty, fallocate1's tmpfs rule, read3/read4 naming the filesystem
# that refuses O_DIRECT.
. "$(dirname "$0")/lib.sh"
short="-t 2 --period-ms 100 -s 2 --warmup 1"
tmp=$(mktemp -d)
shm=
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT
dir=$tmp/dir
mkdir "$dir"

# tc BIN ARGS...: run a testcase binary; files it makes without --param dir go under $tmp
tc() { run env -u SCALEBENCH_TMPDIR TMPDIR="$tmp" "$@" </dev/null; }

# avg_ok NAME: the last run exited 0 and its average is above 0
avg_ok() {
	local avg
	is "$rc" 0 "$1 exits 0${err:+ ($err)}"
	avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
	[ -n "$avg" ] && [ "$avg" -gt 0 ]
	ok $? "$1: average ${avg:-missing} > 0"
}

# A testcase meaningful one way only: the other binary refuses, and says which way it runs.
tc "$B/bin/brk2_threads" $short
is "$rc" 2 "brk2_threads refuses to run (processes only)"
like "$err" "runs as processes only" "brk2_threads says it runs as processes only"
# The TLB tests need the partner in the task's mm.
for t in tlb_flush1 tlb_flush2 tlb_flush3; do
	tc "$B/bin/${t}_processes" $short
	is "$rc" 2 "${t}_processes refuses to run (threads only)"
	like "$err" "runs as threads only" "${t}_processes says it runs as threads only"
done

# posix_semaphore1's will-it-scale variant: one semaphore per task.
tc "$B/bin/posix_semaphore1_threads" $short --param shared=0
avg_ok "posix_semaphore1 threads shared=0"
like "$out" "^testcase:.*per task" "and its description says so"

# Files go under --param dir, in a private directory that is gone afterwards.
for t in open1 open2 poll2 page_fault3 fallocate2; do
	tc "$B/bin/${t}_threads" $short --param dir="$dir"
	avg_ok "$t threads in --param dir"
	is "$(ls -A "$dir")" "" "$t leaves nothing in the directory"
done

# fallocate1 measures tmpfs: a tmpfs --param dir is used, anything else is refused by name.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && shm=$(mktemp -d /dev/shm/sbtest.XXXXXX); then
	tc "$B/bin/fallocate1_processes" $short --param dir="$shm"
	avg_ok "fallocate1 in a tmpfs --param dir"
	is "$(ls -A "$shm")" "" "fallocate1 leaves nothing in the tmpfs directory"
else
	for i in 1 2 3; do skip "no tmpfs at /dev/shm"; done
fi
if [ "$(stat -f -c %T "$dir")" != tmpfs ]; then
	tc "$B/bin/fallocate1_processes" $short --param dir="$dir"
	is "$rc" 1 "fallocate1 refuses a directory that is not on tmpfs"
	like "$err" "is on .*, not tmpfs" "naming the filesystem"
	is "$(ls -A "$dir")" "" "and leaves nothing behind"
else
	for i in 1 2 3; do skip "the test directory is on tmpfs"; done
fi

# odirect_refused NAME FS: the last run failed (exit 1) naming FS as refusing O_DIRECT
odirect_refused() {
	is "$rc" 1 "$1 exits 1 where O_DIRECT is refused"
	like "$err" "O_DIRECT not supported on $2 at " "$1 names the filesystem ($2)"
}

# tmpfs refuses O_DIRECT before Linux 6.6; newer kernels accept it, and then there is nothing to test.
if [ -n "$shm" ]; then
	if dd if=/dev/zero of="$shm/probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
		skip "this kernel's tmpfs accepts O_DIRECT"
		skip "this kernel's tmpfs accepts O_DIRECT"
	else
		rm -f "$shm/probe"
		tc "$B/bin/read3_processes" $short --param dir="$shm"
		odirect_refused "read3 on tmpfs" tmpfs
	fi
else
	skip "no tmpfs at /dev/shm"
	skip "no tmpfs at /dev/shm"
fi

# ramfs refuses O_DIRECT on every kernel; mount one in a private mount namespace (root only).
# read3 is refused when it creates its file, read4 when a task opens the shared one.
ram=$tmp/ramfs
mkdir "$ram"
if unshare -m sh -c 'mount -t ramfs ramfs "$1"' sh "$ram" 2>/dev/null; then
	for t in read3_processes read4_threads; do
		tc unshare -m sh -c 'mount -t ramfs ramfs "$1" && exec "$2" -t 2 --period-ms 100 -s 2 \
			--warmup 1 --param dir="$1"' sh "$ram" "$B/bin/$t"
		odirect_refused "$t on ramfs" ramfs
	done
else
	for i in 1 2 3 4; do skip "cannot mount a ramfs here (needs root and unshare)"; done
fi

plan "$_n"
exit "$_failed"
