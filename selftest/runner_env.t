#!/usr/bin/env bash
# Bad environment for the runner: HWLOC_XMLFILE and HWLOC_SYNTHETIC mistakes are input errors (exit 2), named, in one line.
. "$(dirname "$0")/lib.sh"
plan 20
bin=$B/bin/null1_processes
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
unset HWLOC_SYNTHETIC HWLOC_XMLFILE

echo 'not xml at all' >"$d/garbage.xml"
: >"$d/empty.xml"
head -c 300 selftest/data/topology/two-cores.xml >"$d/cut.xml"
for c in "garbage.xml:is not a valid hwloc XML topology" "empty.xml:is an empty file" \
	"cut.xml:is not a valid hwloc XML topology" ".:is a directory"; do
	f=$d/${c%%:*} why=${c#*:}
	for opt in --check --print-placement; do
		run env HWLOC_XMLFILE="$f" "$bin" $opt
		is "$rc" 2 "HWLOC_XMLFILE=${c%%:*} ($opt): exit 2"
	done
	is "$err" "null1_processes: HWLOC_XMLFILE='$f' $why${err#*$why}" "and one line naming the variable and the file: $err"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "(a single line)"
done
# a good file still works
run env HWLOC_XMLFILE=selftest/data/topology/two-cores.xml "$bin" --print-placement -t 2
is "$rc:$(printf '%s\n' "$out" | sed -n 3p)" "0:1 1 1 0 0" "a valid HWLOC_XMLFILE is used (task 1 on PU 1, core 1)"
for s in garbage "pack:2 zz:3" "pack:0"; do
	run env HWLOC_SYNTHETIC="$s" "$bin" --check
	is "$rc:$err" "2:null1_processes: HWLOC_SYNTHETIC='$s' is not a valid synthetic topology" "HWLOC_SYNTHETIC='$s': exit 2, one line naming it"
done
