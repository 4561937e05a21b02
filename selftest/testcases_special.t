#!/usr/bin/env bash
# What testcases.t's generic runs cannot see: refusals that name their reason, a non-default
# parameter, --param dir left empty, fallocate1's tmpfs rule, read3/read4 naming the filesystem
# that refuses O_DIRECT, alloc_free3's and unix5's parameters, limits and full receivers.
. "$(dirname "$0")/lib.sh"
short="-t 2 --period-ms 100 -s 2 --warmup 1"
tmp=$(mktemp -d)
shm=
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT
dir=$tmp/dir
mkdir "$dir"

# tc BIN ARGS...: run a testcase binary; files it makes without --param dir go under $tmp
# A 100 ms sample can count nothing on a starved machine (load in the tens on
# 2 cores): that says nothing about the testcase, so such a run is taken again
# with 1 s samples (the later options win) before it is judged.
tc() {
	run env -u SCALEBENCH_TMPDIR TMPDIR="$tmp" "$@" </dev/null
	case $rc:$err in
	1:*"no progress"*) run env -u SCALEBENCH_TMPDIR TMPDIR="$tmp" "$@" -s 1 --warmup 1 --period-ms 1000 </dev/null ;;
	esac
}

# avg_ok NAME: the last run exited 0 and its average is above 0
avg_ok() {
	local avg
	is "$rc" 0 "$1 exits 0${err:+ ($err)}"
	avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
	[ -n "$avg" ] && [ "$avg" -gt 0 ]
	ok $? "$1: average ${avg:-missing} > 0"
}

# A will-it-scale testcase meant one way still runs the other way (will-it-scale's do), and says
# once on stderr what it measures then; --info names the way it is meant.
tc "$B/bin/brk2_threads" $short
avg_ok "brk2_threads runs (meant as processes)"
is "$(printf '%s\n' "$err" | grep -c 'note: as threads this measures something other')" 1 \
	"brk2_threads says once what it measures as threads"
run "$B/bin/brk2_threads" --info
like "$out" "^meant=processes" "brk2 --info: meant=processes"
like "$out" "^modes=processes,threads" "brk2 --info: both modes"
if linux_only; then
	for t in tlb_flush1 tlb_flush2 tlb_flush3; do
		tc "$B/bin/${t}_processes" $short
		avg_ok "${t}_processes runs without a partner (meant as threads)"
		is "$(printf '%s\n' "$err" | grep -c 'note: as processes this measures something other.*no TLB shootdown')" 1 \
			"${t}_processes says once that no shootdown is measured"
		tc "$B/bin/${t}_threads" $short
		unlike "$err" "note: as" "${t}_threads (its meant way) has no note"
	done
else
	skip "tlb_flush1-3: Linux-only testcases, not in this build (SB_OS=${SB_OS-})"
fi
# A testcase that cannot run one way at all (not a will-it-scale one) still refuses.
tc "$B/bin/alloc_free2_processes" $short
is "$rc" 2 "alloc_free2_processes refuses to run (threads only)"
like "$err" "runs as threads only" "alloc_free2_processes says it runs as threads only"

# posix_semaphore1's will-it-scale variant: one semaphore per task.
tc "$B/bin/posix_semaphore1_threads" $short --param shared=0
avg_ok "posix_semaphore1 threads shared=0"
like "$out" "^testcase:.*per task" "and its description says so"

# Files go under --param dir, in a private directory that is gone afterwards.
for t in open1 open2 poll2 page_fault3 $(linux_only && echo fallocate2); do
	tc "$B/bin/${t}_threads" $short --param dir="$dir"
	avg_ok "$t threads in --param dir"
	is "$(ls -A "$dir")" "" "$t leaves nothing in the directory"
done

# The Linux-only testcases fallocate1, read3 and read4 (not in a make OS=generic build).
if linux_only; then
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
		is "$rc" 2 "fallocate1 refuses a directory that is not on tmpfs, before running (exit 2)"
		like "$err" "is on .*, not tmpfs" "naming the filesystem"
		is "$(ls -A "$dir")" "" "and leaves nothing behind"
	else
		for i in 1 2 3; do skip "the test directory is on tmpfs"; done
	fi

	# odirect_refused NAME FS: the last run was refused before running (exit 2), naming FS as refusing O_DIRECT
	odirect_refused() {
		is "$rc" 2 "$1 exits 2 where O_DIRECT is refused"
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
	# Both declare SB_TMPDIR_O_DIRECT: refused before anything runs.
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

else
	skip "fallocate1, read3, read4: Linux-only testcases, not in this build (SB_OS=${SB_OS-})"
fi

# alloc_free3 and unix5 (the locking threads' kernel experiments): descriptions without ':' that say what
# varies, the lone task, the peer count, full receivers, datagram sizes, descriptors, SIGINT.
# desc: the description the last run printed (testcase:<description>)
desc() { printf '%s\n' "$out" | sed -n 's/^testcase://p'; }
# no_colon NAME TEXT: TEXT is a description without ':' (parsers split testcase:<text> on it)
no_colon() { unlike "$2" ':' "$1: the description has no ':' ($2)"; }
# left_behind: private directories still under $tmp
left_behind() { ls -d "$tmp"/scalebench.* 2>/dev/null | tr '\n' ' '; }
for t in alloc_free3 unix5; do
	run "$B/bin/${t}_processes" --info
	no_colon "$t --info" "$(printf '%s\n' "$out" | sed -n 's/^description=//p')"
done
for m in processes threads; do
	tc "$B/bin/alloc_free3_$m" $short
	avg_ok "alloc_free3 $m -t 2"
	no_colon "alloc_free3 $m -t 2" "$(desc)"
	like "$(desc)" "of 2048 bytes to random other tasks" "alloc_free3 $m: the description names the size and the peers"
	tc "$B/bin/alloc_free3_$m" $short -t 1
	avg_ok "alloc_free3 $m -t 1 (a lone task sends to itself)"
	like "$(desc)" "from a lone task to itself" "alloc_free3 $m -t 1: the description says so"
done
tc "$B/bin/alloc_free3_threads" $short -t 3 --param peers=1 --param size=100
avg_ok "alloc_free3 -t 3 peers=1 size=100"
is "$(desc)" "AF_UNIX datagrams of 100 bytes to a random one of the next 1 task, each task drains its own socket" \
	"alloc_free3 peers=1: the description names the size and the one peer"
tc "$B/bin/alloc_free3_threads" $short --param peers=99
avg_ok "alloc_free3 -t 2 peers=99 (more than the others: all of them)"
like "$(desc)" "to random other tasks" "alloc_free3 peers=99: the description says all the others"
tc "$B/bin/alloc_free3_processes" $short --param size=1
avg_ok "alloc_free3 size=1"

# A lone task sending bursts of 1024 to itself overruns its own queue (Linux: max_dgram_qlen
# datagrams, or the send buffer): refused sends are noted, dropped or sent again, never a hang.
qlen=$(cat /proc/sys/net/unix/max_dgram_qlen 2>/dev/null || echo 0)
wmem=$(cat /proc/sys/net/core/wmem_default 2>/dev/null || echo 0)
if [ "$qlen" -gt 0 ] && { [ "$qlen" -lt 1000 ] || [ "$wmem" -lt 2000000 ]; }; then
	tc "$B/bin/alloc_free3_threads" $short -t 1 --param batch=1024
	avg_ok "alloc_free3 -t 1 batch=1024 full=0"
	like "$err" "^alloc_free3: over [0-9]+% of a task's sends found the receiver's queue full; those datagrams were dropped, not counted$" \
		"alloc_free3 full=0: the refused sends are noted as dropped"
	tc "$B/bin/alloc_free3_processes" $short -t 1 --param batch=1024 --param full=1
	avg_ok "alloc_free3 -t 1 batch=1024 full=1"
	like "$err" "^alloc_free3: over [0-9]+% of a task's sends found the receiver's queue full; the sender drained its own socket and sent again$" \
		"alloc_free3 full=1: the refused sends are noted as sent again"
else
	for i in 1 2 3 4 5 6; do skip "this kernel's AF_UNIX queues hold 1024 datagrams (Linux defaults expected)"; done
fi

# A datagram larger than an empty socket takes is refused up front, naming the limit.
for size in 65536 1048576; do
	tc "$B/bin/alloc_free3_threads" $short --param size=$size
	if [ "$wmem" -ge $((size + 32)) ]; then
		avg_ok "alloc_free3 size=$size (net.core.wmem_default $wmem)"
	elif [ "$wmem" -gt 0 ]; then
		is "$rc" 1 "alloc_free3 size=$size is refused (net.core.wmem_default $wmem)"
		like "$err" "size=$size: an empty AF_UNIX socket refuses a datagram that large \(its send buffer is [0-9]+ bytes" \
			"alloc_free3 size=$size: the refusal names the send buffer"
	else
		skip "no /proc/sys/net/core/wmem_default"; skip "no /proc/sys/net/core/wmem_default"
	fi
done

# Threads keep every task's sockets in one descriptor table: too few is refused before any task starts.
if sh -c 'ulimit -n 100' 2>/dev/null; then
	tc sh -c 'ulimit -n 100 && exec "$@"' sh "$B/bin/alloc_free3_threads" $short -t 8
	is "$rc" 1 "alloc_free3 threads -t 8 under ulimit -n 100 fails"
	like "$err" "8 tasks sending to 7 peers each need about [0-9]+ descriptors in one process, RLIMIT_NOFILE is 100" \
		"and says how many descriptors it needs"
	tc sh -c 'ulimit -n 100 && exec "$@"' sh "$B/bin/alloc_free3_threads" $short -t 8 --param peers=2
	avg_ok "alloc_free3 threads -t 8 peers=2 under ulimit -n 100"
else
	for i in 1 2 3 4; do skip "cannot set ulimit -n 100"; done
fi

# A --param dir too long for a socket name is refused in the runner, not by a task.
long=$tmp/$(printf '%090d' 0)
mkdir "$long"
tc "$B/bin/alloc_free3_processes" $short --param dir="$long"
is "$rc" 1 "alloc_free3 with a --param dir too long for sun_path fails"
like "$err" "testcase: a path under .* is longer than [0-9]+ bytes: use a shorter --param dir" \
	"alloc_free3: naming the limit, before any task starts"
is "$(ls -A "$long")" "" "alloc_free3: and leaves nothing in that directory"
rmdir "$long"

tc "$B/bin/unix5_processes" $short --param receivers=0
is "$rc" 2 "unix5 receivers=0 is refused with exit 2"
like "$err" "receivers: '0' is out of range \(1\.\.64\)" "unix5 receivers=0: naming the range"
for m in processes threads; do
	tc "$B/bin/unix5_$m" $short -t 1
	avg_ok "unix5 $m -t 1 (one partner drains both receivers)"
	no_colon "unix5 $m -t 1" "$(desc)"
done
tc "$B/bin/unix5_threads" $short --param receivers=5
avg_ok "unix5 -t 2 receivers=5 (fewer tasks than receivers: every one is drained)"
like "$(desc)" "one of 5 shared receivers," "unix5 receivers=5: the description names them"
tc "$B/bin/unix5_processes" $short -t 3 --param receivers=1
avg_ok "unix5 -t 3 receivers=1"
like "$(desc)" "one of 1 shared receiver," "unix5 receivers=1: the description names it"
is "$(left_behind)" "" "alloc_free3 and unix5 leave no private directory behind"

# SIGINT: exit 130, no task left, no socket file left (the directory goes with the run).
for t in alloc_free3_processes unix5_threads; do
	rm -f "$tmp/bg.out" "$tmp/bg.err"	# (the poll below must not read the other run's samples)
	env -u SCALEBENCH_TMPDIR TMPDIR="$tmp" "$B/bin/$t" -t 2 --period-ms 100 --warmup 0 -s 0 \
		>"$tmp/bg.out" 2>"$tmp/bg.err" </dev/null &
	pid=$!
	kids=
	for i in $(seq 1 200); do
		# every task and partner is in the first task's process group
		grep -qs '^min:' "$tmp/bg.out" &&
			pgid=$(ps -o pgid= -p "$(pgrep -P "$pid" | head -n 1)" | tr -d ' ') && [ -n "$pgid" ] &&
			kids=$(pgrep -g "$pgid" | tr '\n' ' ') && [ -n "$kids" ] && break
		nap 0.05
	done
	like "$kids" '[0-9]' "$t: the run started (tasks $kids)"
	kill -INT "$pid"
	wait "$pid"
	is "$?" 130 "$t: SIGINT exits 130"
	left=
	for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
	is "$left" "" "$t: no task or partner outlives SIGINT"
	is "$(left_behind)" "" "$t: nothing left after SIGINT"
done

plan "$_n"
exit "$_failed"
