#!/usr/bin/env bash
# The will-it-scale set, part A: each testcase runs in every mode it declares and counts; file-based ones clean up.
. "$(dirname "$0")/lib.sh"
tests="brk1 brk2 dup1 eventfd1 fallocate1 fallocate2 futex1 futex2 futex3 futex4 lock1 lseek1 lseek2
	malloc1 malloc2 mmap1 mmap2 open1 open2 open3 page_fault1 page_fault2 page_fault3 poll1 poll2
	posix_semaphore1"
short="-t 2 --period-ms 100 -s 2 --warmup 1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# avg_ok NAME: the last run exited 0 and its average is above 0
avg_ok() {
	local avg
	is "$rc" 0 "$1 exits 0${err:+ ($err)}"
	avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
	[ -n "$avg" ] && [ "$avg" -gt 0 ]
	ok $? "$1: average ${avg:-missing} > 0"
}

for t in $tests; do
	# The modes come from the testcase itself (SB_MODES), so a declared restriction is honoured.
	run "$B/bin/${t}_processes" --info
	modes=$(printf '%s\n' "$out" | sed -n 's/^modes=//p' | tr ',' ' ')
	like "$modes" "^(processes|threads)" "$t --info names its modes"
	for m in $modes; do
		run "$B/bin/${t}_$m" $short
		avg_ok "$t $m -t 2"
	done
done

# brk2 is processes only; the threads binary says so and refuses.
run "$B/bin/brk2_threads" $short
is "$rc" 2 "brk2_threads refuses to run (processes only)"

# posix_semaphore1's will-it-scale variant: one semaphore per task.
run "$B/bin/posix_semaphore1_threads" $short --param shared=0
avg_ok "posix_semaphore1 threads shared=0"
like "$out" "^testcase:.*per task" "and its description says so"

# Files go under --param dir, in a private directory that is gone afterwards.
for t in open1 open2 poll2 page_fault3 fallocate2; do
	run "$B/bin/${t}_threads" $short --param dir="$dir"
	avg_ok "$t threads in --param dir"
	is "$(ls -A "$dir")" "" "$t leaves nothing in the directory"
done

# fallocate1 measures tmpfs: a tmpfs --param dir is used, anything else is refused by name.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	shm=$(mktemp -d /dev/shm/sbtest.XXXXXX)
	run "$B/bin/fallocate1_processes" $short --param dir="$shm"
	avg_ok "fallocate1 in a tmpfs --param dir"
	is "$(ls -A "$shm")" "" "fallocate1 leaves nothing in the tmpfs directory"
	rm -rf "$shm"
else
	skip "no tmpfs at /dev/shm"
	skip "no tmpfs at /dev/shm"
	skip "no tmpfs at /dev/shm"
fi
if [ "$(stat -f -c %T "$dir")" != tmpfs ]; then
	run "$B/bin/fallocate1_processes" $short --param dir="$dir"
	is "$rc" 1 "fallocate1 refuses a directory that is not on tmpfs"
	like "$err" "is on .*, not tmpfs" "naming the filesystem"
	is "$(ls -A "$dir")" "" "and leaves nothing behind"
else
	skip "the test directory is on tmpfs"
	skip "the test directory is on tmpfs"
	skip "the test directory is on tmpfs"
fi

plan "$_n"
exit "$_failed"
