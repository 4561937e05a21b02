#!/usr/bin/env bash
# Every testcase's title survives lkp-tests' parser: no ':' in any --info description, and the
# `testcase:` line of a real run (descriptions may be built in testcase_prepare) splits into two fields;
# every will-it-scale testcase (selftest/data/wis_testcases: its names) is built and runs in both modes.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each binary's short run (-t 2, a 100 ms sample), made once per build and shared with testcases.t.
if ! cache=$(selftest/shortruns.sh "$B"); then
	echo "Bail out! selftest/shortruns.sh $B failed"
	exit 1
fi

shopt -s nullglob
for src in tests/*.c; do
	t=$(basename "$src" .c)
	for m in processes threads; do
		bin=$B/bin/${t}_$m
		if [ ! -x "$bin" ] && ! linux_only; then
			skip "$t $m: not in this build (a Linux-only testcase, SB_OS=${SB_OS-})"
			continue
		fi
		run "$bin" --info
		modes=$(printf '%s\n' "$out" | sed -n 's/^modes=//p')
		desc=$(printf '%s\n' "$out" | sed -n 's/^description=//p')
		like "$desc" '^[^:]+$' "$t $m: --info description is non-empty and has no ':'"
		rc=$(<"$cache/$t.$m.rc") out=$(<"$cache/$t.$m.out") err=$(<"$cache/$t.$m.err")
		line=$(printf '%s\n' "$out" | grep '^testcase:' | head -n 1)
		if [ -z "$line" ] && [ "$rc" -eq 2 ] && ! printf ',%s,' "$modes" | grep -q ",$m,"; then
			skip "$t $m: the testcase declares only $modes (not a will-it-scale testcase)"
			continue
		fi
		if [ -z "$line" ] && [ "$rc" -eq 3 ]; then
			skip "$t $m: this machine refuses it: $(printf '%s' "$err" | head -n 1)"
			continue
		fi
		fields=$(printf '%s\n' "$line" | awk -F: '{ print NF }')
		is "$fields" 2 "$t $m: the testcase: line splits on ':' into exactly two fields ('$line')"
	done
done
# Both binaries of every will-it-scale testcase run (lkp's jobs use either mode of any of them).
while read -r t; do
	if [ ! -x "$B/bin/${t}_processes" ] && [ ! -x "$B/bin/${t}_threads" ] && ! linux_only; then
		skip "$t: not in this build (a Linux-only testcase, SB_OS=${SB_OS-})"
		continue
	fi
	run "$B/bin/${t}_processes" --info
	like "$out" '^modes=processes,threads$' "$t (will-it-scale's) declares both modes"
	for m in processes threads; do
		[ -x "$B/bin/${t}_$m" ]
		ok $? "$t: $B/bin/${t}_$m is built"
		run "$B/bin/${t}_$m" --check -t 2
		is "$rc" 0 "$t $m: --check accepts it (the binary does not refuse)"
	done
done <selftest/data/wis_testcases
# runtest.sh runs a testcase the way it is meant by default, with a note; --mode all runs both.
run ./runtest.sh tlb_flush1 --dry-run --max-procs 1
like "$out" '^  modes: +threads$' "runtest.sh: tlb_flush1 runs as threads by default"
like "$err" '^note: tlb_flush1 runs as threads only by default: the other way .*no TLB shootdown' "with a note saying why"
run ./runtest.sh tlb_flush1 --mode all --dry-run --max-procs 1
like "$out" '^  modes: +processes,threads$' "runtest.sh --mode all: tlb_flush1 runs both ways"
run ./runtest.sh brk2 --mode threads --dry-run --max-procs 1
like "$out" '^  modes: +threads$' "runtest.sh --mode threads: brk2 runs as threads when asked"
plan "$_n"
exit "$_failed"
