#!/usr/bin/env bash
# analysis_layout.t: harness and analysis apart: the analysis tools link no hwloc, the testcases no analysis code.
# sb-san: skip: which objects link what: nm over the build, no C run
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-compare" "$SB_BUILD/bin/pipe1_processes" "$SB_BUILD/bin/pipe1_threads"

for t in sb-compare sb-summary; do
	b=$SB_BUILD/bin/$t
	if command -v ldd >/dev/null 2>&1; then
		[[ $(ldd "$b" 2>&1) != *hwloc* ]]
		ok $? "$t: links no libhwloc"
	fi
	is "$(nm "$b" 2>/dev/null | grep -c 'hwloc_' || true)" 0 "$t: no hwloc symbol"
done
for m in processes threads; do
	b=$SB_BUILD/bin/pipe1_$m
	is "$(nm "$b" | grep -cE ' [TtDdBbRr] (sb_stats|sb_student_t|sb_tdiff|sb_ministat|sb_run_load|sb_compare_runs)' || true)" 0 \
		"pipe1_$m: no analysis code linked"
done

# The run directory has one home (issue 48): its loader and its writer in analysis/rundir/, sb-rundir's
# main in analysis/cmd_rundir.c, nothing of it in io/.
is "$(ls -d analysis/*/*rundir* analysis/*rundir* 2>/dev/null | grep -v -e '^analysis/rundir/' -e '^analysis/rundir$' \
	-e '^analysis/cmd_rundir\.c$' | tr '\n' ' ')" "" "analysis/: run directory code in rundir/ only"
is "$(grep -l '^int sb_run_load(' analysis/*.c analysis/*/*.c | tr '\n' ' ')" "analysis/rundir/rundir.c " \
	"the loader (sb_run_load) is rundir/'s"

# Without hwloc the analysis tools still build (a CI job that only compares).
rc=0
make -s -j2 -C . BUILD="$T/nohwloc" HWLOC_OK=no PKG_CONFIG=false analysis >"$T/make.log" 2>&1 || rc=$?
is "$rc" 0 "make analysis builds without hwloc"
[ -x "$T/nohwloc/bin/sb-compare" ] && [ -x "$T/nohwloc/bin/sb-summary" ]
ok $? "make analysis: sb-compare and sb-summary"

# compare.sh asks make whether sb-compare is stale: up to date, it does not rebuild.
rc=0
make -q BUILD="$T/nohwloc" HWLOC_OK=no "$T/nohwloc/bin/sb-compare" || rc=$?
is "$rc" 0 "make -q: sb-compare is up to date after its build"
touch -d '2000-01-01' "$T/nohwloc/bin/sb-compare"
rc=0
make -q BUILD="$T/nohwloc" HWLOC_OK=no "$T/nohwloc/bin/sb-compare" || rc=$?
is "$rc" 1 "make -q: an sb-compare older than its sources is stale"
SB_BUILD="$T/nohwloc" ./compare.sh --help >/dev/null 2>&1
[ "$T/nohwloc/bin/sb-compare" -nt analysis/stat/stats.c ]
ok $? "compare.sh rebuilt the stale sb-compare"

# make keeps pkg-config's answers in BUILD/probes.mk once hwloc is found: a second make asks
# nothing (runtest.sh makes before every sweep); another PKG_CONFIG asks again.
mkdir -p "$T/probes/b"
printf '#!/bin/sh\necho x >>"%s/probes/count"\nexec pkg-config "$@"\n' "$T" >"$T/probes/pc"
chmod +x "$T/probes/pc"
probes() { rm -f "$T/probes/count"; make -s BUILD="$T/probes/b" PKG_CONFIG="$1" help >/dev/null 2>&1; cat "$T/probes/count" 2>/dev/null | wc -l; }
if command -v pkg-config >/dev/null && pkg-config --exists hwloc; then
	is "$(probes "$T/probes/pc")" 4 "make: pkg-config asked four things the first time"
	is "$(probes "$T/probes/pc")" 0 "and nothing the next time (BUILD/probes.mk)"
	ln -s pc "$T/probes/pc2"
	is "$(probes "$T/probes/pc2")" 4 "another PKG_CONFIG: asked again"
else
	skip "pkg-config with hwloc needed"
fi

# includes written with their folder (issue 48): an analysis header of another folder is named
# "folder/x.h" (the include path is analysis/ itself), so a reader sees where it lives and no
# per-folder -I can hide two headers of one name
bare=
for f in analysis/*.c analysis/*/*.[ch] machine/*.[ch]; do
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' "$f"); do
		[ -e "$(dirname "$f")/$h" ] && continue
		set -- analysis/*/"$h"
		[ -e "$1" ] && bare="$bare $f:$h"
	done
done
is "$bare" "" "an analysis header of another folder is included with its folder"
is "$(make -s -pn 2>/dev/null | sed -n 's/^ANALYSIS_CFLAGS := //p' | grep -o -- '-Ianalysis/[a-z]*' | tr '\n' ' ')" "" \
	"the Makefile gives analysis/ no per-folder -I"

done_testing
