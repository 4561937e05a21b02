#!/usr/bin/env bash
# Every testcase's title survives lkp-tests' parser: no ':' in any --info description, and the
# `testcase:` line of a real run (descriptions may be built in testcase_prepare) splits into two fields.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
for src in tests/*.c; do
	t=$(basename "$src" .c)
	for m in processes threads; do
		bin=$B/bin/${t}_$m
		if [ ! -x "$bin" ]; then
			skip "$t $m: not built on this system"
			continue
		fi
		run "$bin" --info
		modes=$(printf '%s\n' "$out" | sed -n 's/^modes=//p')
		desc=$(printf '%s\n' "$out" | sed -n 's/^description=//p')
		like "$desc" '^[^:]+$' "$t $m: --info description is non-empty and has no ':'"
		run env TMPDIR="$tmp" "$bin" -t 1 -s 1 --warmup 0 --period-ms 20 </dev/null
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
plan "$_n"
exit "$_failed"
