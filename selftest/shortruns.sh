#!/usr/bin/env bash
# Every testcase's short runs, made once per build into BUILD/shortruns/ two at a time, for the
# selftests that judge them (testcases.t, titles.t) to read instead of running each binary again.
#
#   selftest/shortruns.sh BUILD      prints the cache directory; remakes it when a binary,
#                                    tests/ or this script is newer than it (make check runs it
#                                    first; a selftest run alone by prove runs it too)
#
# For each testcase and each mode (both binaries, a declared mode or not):
#   <t>.<mode>.{rc,out,err,left}     -t 2 --period-ms 100 -s 1 --warmup 0 (the exit status, stdout,
#                                    stderr, and what the run left in its private TMPDIR: ls -A)
# For each parameter the testcase declares, at its default, with its first declared mode:
#   <t>.param.<name>.{rc,out,err,left}  -s 1 --warmup 1 --period-ms 100 --param name=default
# A run whose one sample counted nothing is taken again with a 1 s sample (starved, below).
# A 100 ms sample: the kernel's dirty throttling can pause a writer for up to 200 ms and so
# empty it, and then the 1 s retry below judges the testcase (with 300 ms samples, which no
# one pause empties, the short runs took 45 s a pass, 28 s with 100 ms: 2026-12-06). No
# warmup sample: whether a testcase counts at all is the
# question, and the tasks count from the start gate on, after every prepare. Two runs at a time:
# each run's 2 tasks share the 2 cores with the other's, and a run spends its setup and teardown
# off the CPU.
set -eu

JOBS=${SB_SHORTRUNS_JOBS:-2}
new=''	# the cache being made (removed on exit unless it was moved into place)
SHORT="-t 2 --period-ms 100 -s 1 --warmup 0"
QUICK="-s 1 --warmup 1 --period-ms 100"
SHORT_AGAIN="-t 2 --period-ms 1000 -s 1 --warmup 1" QUICK_AGAIN="-s 1 --warmup 1 --period-ms 1000"

# starved OUT/KEY: 0 when that run's one sample counted nothing ("no progress", exit 1). On a
# starved machine (others' builds, a writeback pause of a loaded disk: pwrite2 at 300 ms once) that
# says nothing about the testcase, so the run is taken again with a 1 s sample before it is judged.
starved() { [ "$(cat "$1.rc")" = 1 ] && grep -q 'no progress' "$1.err"; }

# one_run OUT KEY BIN ARGS...: BIN's run with a private TMPDIR, its results as OUT/KEY.*
one_run() {
	local out=$1 key=$2 base rc
	shift 2
	base=$(mktemp -d)	# where the testcases' files went before: TMPDIR's filesystem
	rc=0
	env -u SCALEBENCH_TMPDIR TMPDIR="$base" "$@" </dev/null >"$out/$key.out" 2>"$out/$key.err" || rc=$?
	ls -A "$base" >"$out/$key.left"
	rm -rf -- "$base"
	echo "$rc" >"$out/$key.rc"
}

# job BUILD OUT LINE: one tab-separated job line of job_lines
job() {
	local build=$1 out=$2 kind t m p def
	IFS=$'\t' read -r kind t m p def <<<"$3"
	case $kind in
	mode)
		# shellcheck disable=SC2086
		one_run "$out" "$t.$m" "$build/bin/${t}_$m" $SHORT
		if starved "$out/$t.$m"; then
			# shellcheck disable=SC2086
			one_run "$out" "$t.$m" "$build/bin/${t}_$m" $SHORT_AGAIN
		fi
		;;
	param)
		# shellcheck disable=SC2086
		one_run "$out" "$t.param.$p" "$build/bin/${t}_$m" $QUICK --param "$p=$def"
		if starved "$out/$t.param.$p"; then
			# shellcheck disable=SC2086
			one_run "$out" "$t.param.$p" "$build/bin/${t}_$m" $QUICK_AGAIN --param "$p=$def"
		fi
		;;
	esac
}

# job_lines BUILD: "mode T M" for both binaries of each testcase, "param T M NAME DEFAULT" for each
# parameter (tab-separated); the runs with parameters first, they are the most
job_lines() {
	local build=$1 src t m modes info
	for src in tests/*.c; do
		t=$(basename "$src" .c)
		for m in processes threads; do
			[ -x "$build/bin/${t}_$m" ] && printf 'mode\t%s\t%s\n' "$t" "$m"
		done
		m=processes
		[ -x "$build/bin/${t}_$m" ] || m=threads
		[ -x "$build/bin/${t}_$m" ] || continue
		info=$("$build/bin/${t}_$m" --info) || continue
		modes=$(printf '%s\n' "$info" | sed -n 's/^modes=//p')
		m=${modes%%,*}
		[ -x "$build/bin/${t}_$m" ] || continue
		printf '%s\n' "$info" | sed -n 's/^param=//p' |
			awk -F'\t' -v t="$t" -v m="$m" '$1 != "" { printf "param\t%s\t%s\t%s\t%s\n", t, m, $1, $2 }'
	done
}

# stale CACHE BUILD: 0 when CACHE is missing or older than a binary, a testcase source or this script
stale() {
	[ -f "$1/done" ] || return 0
	# the binaries themselves: lkp.t's runtest.py writes <t>.title files into the same directory
	[ -n "$(find "$2/bin" \( -name '*_processes' -o -name '*_threads' \) -newer "$1/done" -print -quit \
		2>/dev/null)$(find tests "$SELF" -newer "$1/done" -print -quit 2>/dev/null)" ]
}

main() {
	if [ "${1-}" = --job ]; then
		job "$2" "$3" "$4"
		return
	fi
	local build=${1:-build} cache
	cd "$(dirname "$SELF")/.."
	[ -d "$build/bin" ] || { echo "shortruns.sh: $build/bin: no build (run make first)" >&2; exit 3; }
	cache=$build/shortruns
	# One maker at a time: a second selftest waits for the first one's cache.
	exec 9>"$build/.shortruns.lock"
	flock 9
	if stale "$cache" "$build"; then
		new=$(mktemp -d "$build/.shortruns.XXXXXX")
		trap 'rm -rf -- "${new:?}"' EXIT
		job_lines "$build" | xargs -d '\n' -n 1 -P "$JOBS" "$SELF" --job "$build" "$new"
		touch "$new/done"
		rm -rf -- "$cache"
		mv -T -- "$new" "$cache"
		trap - EXIT
	fi
	printf '%s\n' "$cache"
}

SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
main "$@"
