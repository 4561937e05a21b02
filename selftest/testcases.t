#!/usr/bin/env bash
# Every tests/*.c: runs and counts in each mode it declares, takes its parameters, rejects bad ones;
# the rmlock and alloc_free2 self-checks; the private directory is gone after a run, a crash, SIGINT.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every run's private directory goes under $base (TMPDIR), which must be empty after each run.
base=$tmp/base
mkdir "$base"
# Longer than the kernel's longest dirty-throttling pause (200 ms): one pause cannot empty the sample
# (the same as selftest/shortruns.sh's).
short="-t 2 --period-ms 300 -s 1 --warmup 1"
quick="-s 1 --warmup 1 --period-ms 100"
LLONG_MAX=9223372036854775807
LLONG_MIN=-9223372036854775808

# tc BIN ARGS...: run a testcase binary with its files under $base
tc() { run env -u SCALEBENCH_TMPDIR TMPDIR="$base" "$@" </dev/null; }
clean_base() { find "$base" -mindepth 1 -delete; }
# flat TEXT: on one line, for a TAP description
flat() { printf '%s' "$1" | head -n 3 | tr '\n' ' '; }

# The short runs of every testcase, made once per build (selftest/shortruns.sh, two at a time) and
# shared with titles.t: <t>.<mode>.* and <t>.param.<name>.* hold rc, out, err and left (the files
# a run left in its private TMPDIR).
if ! cache=$(selftest/shortruns.sh "$B"); then
	echo "Bail out! selftest/shortruns.sh $B failed"
	exit 1
fi
# cached KEY: rc, out, err of that short run, as run() sets them; left: what it left behind
cached() {
	rc=$(<"$cache/$1.rc") out=$(<"$cache/$1.out") err=$(<"$cache/$1.err")
	left=$(<"$cache/$1.left")
}

# counts NAME: the last run exited 0 and its average is above 0
counts() {
	local avg
	avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
	if [ "$rc" -eq 0 ] && [ -n "$avg" ] && [ "$avg" -gt 0 ]; then
		ok 0 "$1: exit 0, average $avg > 0"
	else
		ok 1 "$1: exit $rc, average '${avg}' (want 0 and > 0): $(flat "$err")"
	fi
	is "$(ls -A "$base")" "" "$1 leaves no files behind"
	clean_base
}
# counts_left NAME: counts for a cached run (its files were listed in $left)
counts_left() {
	local avg
	avg=$(printf '%s\n' "$out" | sed -n 's/^average://p')
	if [ "$rc" -eq 0 ] && [ -n "$avg" ] && [ "$avg" -gt 0 ]; then
		ok 0 "$1: exit 0, average $avg > 0"
	else
		ok 1 "$1: exit $rc, average '${avg}' (want 0 and > 0): $(flat "$err")"
	fi
	is "$left" "" "$1 leaves no files behind"
}

# The machine, not the testcase, may be unable to run it (exit 3, or a filesystem that refuses).
env_refused() {
	[ "$rc" -eq 3 ] || { [ "$rc" -eq 1 ] && printf '%s' "$err" | grep -q 'not supported'; }
}

shopt -s nullglob
for src in tests/*.c; do
	t=$(basename "$src" .c)
	bin=$B/bin/${t}_processes
	[ -x "$bin" ] || bin=$B/bin/${t}_threads
	if [ ! -x "$bin" ] && ! linux_only; then
		skip "$t: not in this build (a Linux-only testcase, SB_OS=${SB_OS-})"
		continue
	fi
	run "$bin" --info
	modes=$(printf '%s\n' "$out" | sed -n 's/^modes=//p' | tr ',' ' ')
	# Tabs to \037: IFS whitespace would merge an empty default (dir's) away.
	params=$(printf '%s\n' "$out" | sed -n 's/^param=//p' | tr '\t' '\037')
	like "$modes" '^(processes|threads)' "$t: --info names its modes"
	[ -n "$modes" ] || continue

	for m in $modes; do
		cached "$t.$m"
		if env_refused; then
			skip "$t $m: this machine refuses: $(flat "$err")"
			skip "$t $m: no run, no files"
			continue
		fi
		counts_left "$t $m -t 2"
	done
	for m in processes threads; do
		case " $modes " in
		*" $m "*) ;;
		*)
			cached "$t.$m"
			is "$rc" 2 "$t: the $m binary refuses to run (exit 2): not a declared mode"
			;;
		esac
	done
	m=${modes%% *}
	bin=$B/bin/${t}_$m

	# Each declared parameter at its default is accepted; bad values are usage errors.
	while IFS=$'\037' read -r p def kind _; do
		[ -n "$p" ] || continue
		# (a sample that counted nothing on a starved machine was taken again with 1 s: shortruns.sh)
		cached "$t.param.$p"
		if env_refused; then
			skip "$t: --param $p=$def: this machine refuses"
		else
			is "$rc" 0 "$t: --param $p=$def (its default) is accepted${err:+: $(flat "$err")}"
		fi
		case $kind in
		int*)
			range=${kind#int }
			lo=${range%%..*} hi=${range##*..}
			tc "$bin" $quick --param "$p=x$def"
			is "$rc" 2 "$t: --param $p=x$def (not a number) is rejected with exit 2"
			if [ "$hi" != "$LLONG_MAX" ]; then
				bad=$((hi + 1))
			elif [ "$lo" != "$LLONG_MIN" ]; then
				bad=$((lo - 1))
			else
				bad=99999999999999999999
			fi
			tc "$bin" $quick --param "$p=$bad"
			is "$rc" 2 "$t: --param $p=$bad (out of $range) is rejected with exit 2"
			;;
		string)
			if [ "$p" = dir ]; then
				tc "$bin" $quick --param "dir=$tmp/no/such/dir"
				is "$rc" 2 "$t: --param dir= a missing directory is rejected with exit 2"
			fi
			;;
		esac
	done <<EOF
$params
EOF
	tc "$bin" $quick --param no_such_parameter=1
	is "$rc" 2 "$t: an unknown parameter is rejected with exit 2"
	like "$err" "unknown parameter 'no_such_parameter'" "$t: and named"
done

# bg KEY BIN ARGS...: BIN's run in the background, its files under a TMPDIR of its own; bg_done
# KEY (after wait) sets rc, out, err and left like cached. Two at a time (2 tasks each, 2 cores).
bg() {
	local k=$1
	shift
	mkdir -p "$tmp/$k.base"
	(
		env -u SCALEBENCH_TMPDIR TMPDIR="$tmp/$k.base" "$@" </dev/null >"$tmp/$k.out" 2>"$tmp/$k.err"
		echo $? >"$tmp/$k.rc"
	) &
}
bg_done() {
	rc=$(<"$tmp/$1.rc") out=$(<"$tmp/$1.out") err=$(<"$tmp/$1.err")
	left=$(ls -A "$tmp/$1.base")
}

# The rmlock's writer excludes readers: the checker counts overlaps and fails on the first.
for m in processes threads; do
	bg "rm1.$m" "$B/bin/lockhook_rmlock_$m" -t 2 --period-ms 100 -s 3 --warmup 1 \
		--param check=1 --param write_every=10
done
wait
for m in processes threads; do
	# A lock whose readers ignore the writer must be caught, or the checker proves nothing.
	bg "rm2.$m" "$B/bin/lockhook_rmlock_$m" -t 2 --period-ms 100 -s 30 --warmup 0 \
		--param check=2 --param write_every=10
done
wait
for m in processes threads; do
	bg_done "rm1.$m"
	counts_left "lockhook_rmlock $m check=1 write_every=10 (no overlap)"
	bg_done "rm2.$m"
	is "$rc" 1 "lockhook_rmlock $m check=2: a broken lock fails the run"
	like "$err" "overlap: 1 writer\(s\) and [1-9][0-9]* reader\(s\)" "lockhook_rmlock $m check=2: overlap reported"
done

# alloc_free2 frees every buffer it allocated: exact checkpoints, and a deliberate leak is caught.
bg af1 "$B/bin/alloc_free2_threads" -t 2 --period-ms 100 -s 8 --warmup 1 --param check=1
bg af2 "$B/bin/alloc_free2_threads" -t 2 --period-ms 100 -s 50 --warmup 0 --param check=2
wait
bg_done af1
counts_left "alloc_free2 check=1"
passed=$(printf '%s\n' "$err" | sed -n 's/^alloc_free2: accounting check passed \([0-9]*\) times$/\1/p')
[ -n "$passed" ] && [ "$passed" -gt 0 ]
ok $? "alloc_free2 check=1: the accounting check ran and passed (${passed:-no} checkpoints)"
bg_done af2
is "$rc" 1 "alloc_free2 check=2: a leaked buffer fails the run"
like "$err" "leak: [0-9]+ buffers allocated and not freed, only [0-9]+ in the queues" \
	"alloc_free2 check=2: the leak is reported"

# The private directory is gone after a normal run, a crashed task and SIGINT (lock2 makes a file).
# start_bg MODE DIR: lock2 until interrupted, in the background; waits for samples. Sets pid, kids.
start_bg() {
	local i
	rm -f "$tmp/bg.out" "$tmp/bg.err"	# (the poll below must not read an earlier run's samples)
	"$B/bin/lock2_$1" -t 2 --period-ms 100 --warmup 0 -s 0 --param dir="$2" \
		>"$tmp/bg.out" 2>"$tmp/bg.err" &
	pid=$!
	kids=
	for i in $(seq 1 200); do
		grep -qs '^min:' "$tmp/bg.out" && kids=$(pgrep -P "$pid" | tr '\n' ' ') && [ -n "$kids" ] &&
			[ -n "$(ls -A "$2")" ] && return 0
		nap 0.05
	done
	return 1
}
# finish NAME: wait for the runner; sets rc and err; checks no task outlived it
finish() {
	local k left=
	wait "$pid"
	rc=$?
	err=$(cat "$tmp/bg.err")
	for k in $kids; do
		kill -0 "$k" 2>/dev/null && left="$left $k"
	done
	is "$left" "" "$1: no task process outlives the runner"
}
for m in processes threads; do
	d=$(mktemp -d "$tmp/dir.XXXXXX")
	run "$B/bin/lock2_$m" $short --param dir="$d"
	counts "lock2 $m in --param dir"
	is "$(ls -A "$d")" "" "lock2 $m: the directory is empty after a normal run"

	if start_bg "$m" "$d"; then
		set -- $kids
		kill -SEGV "$1"
		finish "lock2 $m crash"
		is "$rc" 1 "lock2 $m: a task killed by SIGSEGV fails the run"
		like "$err" "signal 11" "lock2 $m: the runner names the signal"
	else
		kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		ok 1 "lock2 $m: the run did not start: $(flat "$(cat "$tmp/bg.err")")"
		skip "no run"; skip "no run"
	fi
	is "$(ls -A "$d")" "" "lock2 $m: the directory is empty after a crash"

	if start_bg "$m" "$d"; then
		kill -INT "$pid"
		finish "lock2 $m SIGINT"
		is "$rc" 130 "lock2 $m: SIGINT to the runner exits 130"
	else
		kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		ok 1 "lock2 $m: the run did not start: $(flat "$(cat "$tmp/bg.err")")"
		skip "no run"
	fi
	is "$(ls -A "$d")" "" "lock2 $m: the directory is empty after SIGINT"
done

echo "1..$_n"
exit "$_failed"
