#!/usr/bin/env bash
# runner_layout.t: no calling circle between the harness's objects, api_tmpdir.o only in testcases that use it, sb-machine outside the harness.
# sb-san: skip: which objects reference which: nm over the build, no C run
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/fallocate1_processes" "$SB_BUILD/bin/sb-machine"
command -v nm >/dev/null 2>&1 && command -v tsort >/dev/null 2>&1 && command -v join >/dev/null 2>&1 ||
	{ echo "1..0 # skip nm, tsort or join missing"; exit 0; }

# edges OBJ_DIR: "used user" lines, one an object that references a global another one defines
edges() {
	local o
	for o in "$1"/*.o; do nm --defined-only -g "$o" | awk -v o="${o##*/}" 'NF == 3 { print $3, o }'; done |
		LC_ALL=C sort >"$T/defs"
	for o in "$1"/*.o; do nm -u "$o" | awk -v o="${o##*/}" '{ print $NF, o }'; done | LC_ALL=C sort >"$T/uses"
	LC_ALL=C join "$T/uses" "$T/defs" | awk '$2 != $3 { print $3, $2 }' | sort -u
}

edges "$SB_BUILD/obj/runner" >"$T/runner.edges"
[ -s "$T/runner.edges" ]
ok $? "the harness's objects reference each other (the graph is not empty)"
rc=0
tsort "$T/runner.edges" >/dev/null 2>"$T/tsort.err" || rc=$?
is "$rc:$(tr '\n' ' ' <"$T/tsort.err")" "0:" "runner/: no object calls into one that calls back (no circle; tsort)"
grep -q '^api.o api_tmpdir.o$' "$T/runner.edges"
ok $? "api_tmpdir.o calls into api.o (sb_fatalx)..."
! grep -q '^api_tmpdir.o api.o$' "$T/runner.edges"
ok $? "...and api.o references nothing of api_tmpdir.o (a hook it registers)"

# The linker takes api_tmpdir.o only for a testcase that uses sb_tmpdir().
is "$(nm "$SB_BUILD/bin/getppid1_processes" | grep -cE ' [TtDd] (sb_tmpdir|sb_param_dir)$' || true)" 0 \
	"getppid1: no private directory code, no dir parameter"
is "$(nm "$SB_BUILD/bin/fallocate1_processes" | grep -cE ' [TtDd] (sb_tmpdir|sb_param_dir)$' || true)" 2 \
	"fallocate1 (uses sb_tmpdir): both linked"
like "$("$SB_BUILD/bin/fallocate1_processes" --info 2>&1 || true)" $'(^|\n)param=dir\t' "fallocate1 has the dir parameter"

# runner/ holds only what a testcase links (issue 48): each harness object defines a function that
# some testcase binary has (the linker takes an archive's object only when it is used), and no
# tool's main or script is there (the sweep's and VM's helpers are in sweep/ and vm/).
nm --defined-only "$SB_BUILD"/bin/*_processes "$SB_BUILD"/bin/*_threads |
	awk '$2 == "T" { print $3 }' | LC_ALL=C sort -u >"$T/linked"
unused=''
for f in runner/*.c; do
	o=$SB_BUILD/obj/runner/$(basename "$f" .c).o
	case $f in runner/os_*) [ -f "$o" ] || continue ;; esac	# another OS's layer
	nm --defined-only -g "$o" | awk '$2 == "T" { print $3 }' | LC_ALL=C sort >"$T/defs.one"
	[ -n "$(LC_ALL=C comm -12 "$T/linked" "$T/defs.one")" ] || unused+=" $f"
done
is "$unused" "" "runner/: every harness file is linked into a testcase"
is "$(cd runner && ls | grep -v -e '\.[ch]$' -e '^include$' | tr '\n' ' ')" "" "runner/: C and include/ only (no script)"
is "$(ls runner/cmd_*.c 2>/dev/null | wc -l)" 0 "runner/: no tool's main"

# The machine's administration is not the harness: no testcase links it.
is "$(ls runner/syscheck.c runner/tune.c runner/cmd_machine.c 2>/dev/null | wc -l)" 0 "runner/ holds no machine administration"
is "$(nm "$SB_BUILD/bin/getppid1_processes" | grep -cE ' T (sb_syscheck|sb_tune_apply|sb_tune_restore)$' || true)" 0 \
	"a testcase links no system check or --tune"
is "$(nm "$SB_BUILD/bin/sb-machine" | grep -cE ' T (sb_syscheck|sb_tune_apply|sb_tune_restore)$')" 3 "sb-machine has them"
edges "$SB_BUILD/obj/machine" >"$T/machine.edges"
tsort "$T/machine.edges" >/dev/null 2>&1
ok $? "machine/: no circle"

done_testing
