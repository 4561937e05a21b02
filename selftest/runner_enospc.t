#!/usr/bin/env bash
# A runner whose private directory fills up keeps the cause: exit 3, ENOSPC and the path, in the runner's
# one line and in runtest.sh's meta; a results disk too small for the plan is refused (a small tmpfs; root only).
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/read1_processes" "$SB_BUILD/bin/read1_threads" "$SB_BUILD/bin/write1_processes"
private_bins "$SB_BUILD/bin" read1 write1
export SB_TESTS_DIR=$T/bin
M=$T/mnt
mkdir -p "$M"
if ! mount -t tmpfs -o size=256k tmpfs "$M" 2>"$T/mount.err"; then
	ok 0 "# SKIP cannot mount a small tmpfs to fill ($(tail -n 1 "$T/mount.err"))"
	done_testing
	exit
fi
trap 'umount "$M" 2>/dev/null; rm -rf -- "$T"' EXIT

# read1: each task fills a 1 MB file in the private directory: 256 KB cannot hold it.
for m in processes threads; do
	rc=0
	TMPDIR=$M "$T/bin/read1_$m" -t 2 --period-ms 100 -s 2 --warmup 0 >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 3 "$m: a full TMPDIR is an environment error: exit 3"
	like "$(grep -v warning: "$T/err")" "^read1_$m: task [01]: write $M/scalebench\.[^/]+/task[01]: No space left on device$" \
		"$m: one line with the path and the reason"
	is "$(ls -A "$M")" "" "$m: and its directory is removed"
done

# write1 unlinks its file and its message names no path: the runner adds the full directory's.
rc=0
TMPDIR=$M "$T/bin/write1_processes" -t 1 --period-ms 100 -s 2 --warmup 0 >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "write1: a full TMPDIR: exit 3"
like "$(grep -v warning: "$T/err")" "^write1_processes: task 0: write: No space left on device \\(in $M/scalebench\\.[^/]+, on [^)]+\\)$" \
	"write1: the message names the directory that is full and its filesystem"
is "$(ls -A "$M")" "" "write1: and its directory is removed"

# runtest.sh: the runner's line reaches meta's error, the sweep exits 3.
rc=0
SCALEBENCH_TMPDIR=$M ./runtest.sh read1 --points 2 --mode processes --duration 0.2 --warmup 0 \
	--period-ms 100 --quiet --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "runtest.sh: a runner out of space exits 3"
run=$T/r/read1/$(readlink "$T/r/read1/latest")
is "$(meta "$run/meta" status)" failed "meta says failed"
like "$(meta "$run/meta" error)" "^read1_processes: task [01]: write $M/scalebench\.[^/]+/task[01]: No space left on device$" \
	"meta's error keeps the cause and the path"
like "$(cat "$T/err")" "No space left on device" "and the sweep says it on stderr"
is "$(ls -A "$M")" "" "nothing left in the full directory"

# runtest.sh: results on a disk too small for the plan's files: exit 3 before anything runs.
rc=0
./runtest.sh read1 --points 1,2 --duration 100 --period-ms 1 --warmup 0 --quiet \
	--results "$M/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "results with less room than the run's files: exit 3"
like "$(cat "$T/err")" "^runtest\.sh: the results directory $M/r/read1 has [0-9]+ KB free; this run writes about [0-9]+ KB$" \
	"one line with the room and the need"
is "$(ls -A "$M/r/read1")" "" "and no run directory"

# The room sb-rundir create keeps for the final meta (64 KB) counts too: with 48 KB free a tiny
# sweep's files fit, its run directory does not (it used to pass the check, then fail at meta).
rm -rf -- "${M:?}/r"
free=$(df -Pk "$M" | awk 'NR == 2 { print $4 }')
dd if=/dev/zero of="$M/fill" bs=4k count=$(((free - 48) / 4)) 2>/dev/null
rc=0
./runtest.sh read1 --points 1 --mode processes --repeat 1 --duration 0.1 --period-ms 50 --warmup 0 \
	--quiet --no-history --results "$M/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "48 KB free, less than a run directory's reserve: exit 3"
like "$(cat "$T/err")" "^runtest\.sh: the results directory $M/r/read1 has [0-9]+ KB free; this run writes about [0-9]+ KB$" \
	"refused by the check before anything runs, in its one line"
is "$(ls -A "$M/r/read1")" "" "and no run directory"
rm -f -- "$M/fill"
done_testing
