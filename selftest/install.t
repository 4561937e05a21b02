#!/usr/bin/env bash
# make install into a temporary DESTDIR with PREFIX=/usr: the layout, man pages that render, --version on
# every command, and a sweep, a compare and runtest.py run from there; a testcase built out of the tree
# with the installed pkg-config files; GNU's lower-case directory variables; make uninstall leaves
# nothing; CPPFLAGS, LDLIBS, make clean BUILD=.
# sb-san: skip: build-aux/install.sh and the installed drivers' paths: shell (the sweep it runs: runtest_sweep.t)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
run make -s install BUILD="$B" DESTDIR="$dest" PREFIX=/usr
is "$rc" 0 "make install DESTDIR=... PREFIX=/usr exits 0${err:+: $(printf '%s' "$err" | tail -n 3 | tr '\n' ' ')}"
bin=$dest/usr/bin libexec=$dest/usr/libexec/scalebench
for f in "$bin/scalebench-runtest" "$bin/scalebench-compare" "$bin/sb-compare" "$bin/sb-summary" \
	"$bin/sb-topology" "$bin/sb-profile" "$bin/sb-bisect" "$bin/sb-history" "$bin/sb-machine" "$libexec/unix1_processes" "$libexec/unix1_threads" "$libexec/runtest.py" \
	"$libexec/sb-options" "$dest/usr/share/scalebench/plot/plot.py" "$dest/usr/share/scalebench/plot/flame.py"; do
	[ -x "$f" ]
	ok $? "installed and executable: ${f#"$dest"}"
done
[ ! -e "$bin/sb-options" ]
ok $? "the internal sb-options is not in BINDIR (it is in LIBEXECDIR/scalebench)"
[ -f "$dest/usr/share/scalebench/plot/scaling.gp" ]
ok $? "plot scripts in DATADIR/scalebench/plot"
[ -f "$dest/usr/share/scalebench/profile/record.sh" ] && [ -x "$dest/usr/share/scalebench/vm/boot.sh" ] && [ -f "$dest/usr/share/scalebench/vm/init" ]
ok $? "profile/ and vm/ in DATADIR/scalebench (runtest.sh sources and runs them from there)"
missing=''
for f in sweep/*.sh; do
	[ -f "$dest/usr/share/scalebench/$f" ] || missing="$missing $f"
done
is "$missing" "" "sweep/*.sh in DATADIR/scalebench (runtest.sh sources its phases from there)"
is "$(cd "$dest/usr/share/scalebench" && find . -name '*.[ch]' | tr '\n' ' ')" "" \
	"no C source in DATADIR/scalebench (sweep/'s and vm/'s helpers are installed built)"
for t in sb-sweepargs sb-workdir sb-vmboot; do
	[ -x "$libexec/$t" ] && [ ! -e "$bin/$t" ]
	ok $? "the internal $t is in LIBEXECDIR/scalebench only"
done
is "$(find "$dest" -name '*_processes' -o -name '*_threads' | grep -v "^$libexec/" | head -n 1)" "" \
	"every testcase binary is under LIBEXECDIR/scalebench"

# man pages: every one installed, and groff finds nothing to warn about
for f in man/*.1 man/*.3; do
	s=${f##*.}
	[ -f "$dest/usr/share/man/man$s/${f##*/}" ]
	ok $? "man page installed: man$s/${f##*/}"
	if command -v groff >/dev/null; then
		run groff -man -ww -z "$f"
		is "$rc:$err" "0:" "$f renders without a warning"
	else
		skip "$f: no groff to render it (make deps installs groff-base)"
	fi
done
for f in "$bin"/*; do
	[ -f "$dest/usr/share/man/man1/${f##*/}.1" ]
	ok $? "${f##*/} (in BINDIR) has a man page"
done
[ -f "$dest/usr/share/man/man3/scalebench-testcase.3" ]
ok $? "the testcase API has a section 3 man page"

# --version everywhere (every installed command, none listed here): scalebench's VERSION and the
# revision make baked in, after the command's name (the drivers' as their messages give it: runtest.sh)
want=$(sed -n 1p VERSION)
for c in "$bin"/* "$libexec"/*; do
	[ -f "$c" ] && [ -x "$c" ] || continue
	name=${c##*/}
	case $name in scalebench-*) name=${name#scalebench-}.sh ;; esac
	run "$c" --version
	like "$rc:$out" "^0:$name \(scalebench\) $want git ([0-9a-f]{12}(-dirty)?|unknown)$" "--version of ${c#"$dest"}"
done

# --help names the command as installed (and prints no printf escapes)
run "$bin/scalebench-runtest" --help
like "$(printf '%s\n' "$out" | head -n 1)" '^usage: scalebench-runtest TEST' "scalebench-runtest --help says scalebench-runtest"
run "$bin/scalebench-runtest" --no-such-option
like "$err" '\(see scalebench-runtest --help\)' "and so does its usage error"
for c in scalebench-compare sb-compare; do
	run "$bin/$c" --help
	like "$(printf '%s\n' "$out" | head -n 1)" "^usage: $c " "$c --help says $c"
	unlike "$out" '%%' "$c --help has no literal %%"
done

# A sweep from an unrelated directory: results under ./results there (--stall-timeout: a runner option,
# read from the internal sb-options in LIBEXECDIR); then a compare of two sweeps.
work=$tmp/work
mkdir "$work"
sweep() { (cd "$work" && "$bin/scalebench-runtest" getppid1 --points 1 --duration 0.3 --period-ms 100 --warmup 0 \
	--mode processes --repeat 3 --quiet); }
run sweep
is "$rc" 0 "the installed scalebench-runtest runs a sweep${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
like "$out" '^results/getppid1/' "and prints the run directory under ./results"
[ -f "$work/$out/summary.csv" ]
ok $? "the run is written in the current directory"
first=$out
run sweep
second=$out
run sh -c 'cd "$1" && "$2" "$3" "$4"' sh "$work" "$bin/scalebench-compare" "$first" "$second"
like "$rc" '^[01]$' "the installed scalebench-compare compares the two runs (exit 0 or 1, got $rc: $(printf '%s' "$err" | head -n 1))"
like "$out" 'getppid1' "naming the testcase"

# runtest.py, run as lkp-tests runs it: in the directory of the installed binaries
run sh -c 'cd "$1" && SB_RUNTEST_OPTIONS="--warmup 0 --repeat 3 --period-ms 100 --duration 0.3" python3 ./runtest.py getppid1 1 process 0 0 1' sh "$libexec"
is "$rc" 0 "the installed runtest.py runs${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
like "$(printf '%s\n' "$out" | sed -n 3p)" '^1,[1-9][0-9]*,[0-9.]+,0,0\.00,[1-9][0-9]*$' "and prints will-it-scale's row for 1 task"
is "$(cat "$libexec/getppid1.title" 2>/dev/null)" "$("$libexec/getppid1_processes" --info | sed -n 's/^description=//p')" \
	"and writes getppid1.title"

# A testcase out of the tree: testcase.h and a harness library found by pkg-config, one per mode.
if command -v pkg-config >/dev/null; then
	cat >"$tmp/mytest.c" <<'EOF'
/* An out-of-tree testcase: says which mode it was linked with. */
#include <stdio.h>
#include "testcase.h"
char *testcase_description = "out-of-tree fixture";
void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	fprintf(stderr, "threads_mode=%d\n", sb_threads_mode());
}
void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;)
		sb_count(iterations);
}
EOF
	pcenv() { PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_LIBDIR="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" "$@"; }
	for pm in scalebench:0 scalebench-processes:0 scalebench-threads:1; do
		p=${pm%:*}
		flags=$(pcenv pkg-config --cflags --libs "$p" 2>&1)
		ok $? "pkg-config finds the installed $p.pc: $flags"
		run sh -c 'cd "$1" && cc -Wall -Wextra -o "$2" mytest.c $3' sh "$tmp" "mytest-$p" "$flags"
		is "$rc:$err" "0:" "cc mytest.c \$(pkg-config --cflags --libs $p) builds a testcase out of the tree"
		run "$tmp/mytest-$p" -t 1 -s 1 --warmup 0 --period-ms 100
		is "$rc" 0 "and it runs"
		like "$out" 'average:[1-9][0-9]*' "counting (will-it-scale's average line)"
		like "$err" "threads_mode=${pm#*:}" "in the mode $p links"
	done
else
	skip "no pkg-config: the out-of-tree testcase is not built"
fi

# make uninstall with the same variables leaves nothing behind (runtest.py's .title files included)
run make -s uninstall BUILD="$B" DESTDIR="$dest" PREFIX=/usr
is "$rc" 0 "make uninstall exits 0${err:+: $err}"
is "$(find "$dest" ! -type d | head -n 3 | tr '\n' ' ')" "" "and no file is left under DESTDIR"

# GNU's lower-case variables: prefix, and each directory on its own; the upper-case ones win
dirs() { make --no-print-directory -s -n install BUILD="$B" "$@" | grep -o "[A-Z]*DIR='[^']*'\|PREFIX='[^']*'" | tr '\n' ' '; }
like "$(dirs prefix=/opt/sb)" "PREFIX='/opt/sb' BINDIR='/opt/sb/bin' LIBEXECDIR='/opt/sb/libexec' DATADIR='/opt/sb/share' MANDIR='/opt/sb/share/man' INCLUDEDIR='/opt/sb/include' LIBDIR='/opt/sb/lib'" \
	"make install prefix=/opt/sb puts everything under /opt/sb"
like "$(dirs prefix=/usr exec_prefix=/x bindir=/b libexecdir=/le datadir=/d mandir=/m includedir=/i libdir=/l)" \
	"BINDIR='/b' LIBEXECDIR='/le' DATADIR='/d' MANDIR='/m' INCLUDEDIR='/i' LIBDIR='/l'" "bindir, libexecdir, datadir, mandir, includedir, libdir honoured"
like "$(dirs prefix=/usr exec_prefix=/x)" "BINDIR='/x/bin' LIBEXECDIR='/x/libexec' DATADIR='/usr/share'.* LIBDIR='/x/lib'" "exec_prefix moves the programs and libraries"
like "$(dirs PREFIX=/up BINDIR=/ub)" "PREFIX='/up' BINDIR='/ub' LIBEXECDIR='/up/libexec'" "the upper-case PREFIX and BINDIR still work"
run make -s install BUILD="$B" DESTDIR="$tmp/lc" prefix=/usr bindir=/usr/games
is "$rc" 0 "make install prefix=/usr bindir=/usr/games exits 0"
[ -x "$tmp/lc/usr/games/sb-summary" ] && [ -x "$tmp/lc/usr/libexec/scalebench/getppid1_processes" ] && [ ! -e "$tmp/lc/usr/local" ]
ok $? "and installs there, nothing under /usr/local"
run "$tmp/lc/usr/games/scalebench-runtest" --list
is "$rc:$(printf '%s\n' "$out" | grep -c '^getppid1 ')" "0:1" "the installed runtest finds its binaries from /usr/games"

# Distribution flags reach every compile and link; make clean removes the BUILD it is given.
run make -n -B BUILD="$tmp/b" CPPFLAGS=-DSB_CPPFLAGS_SEEN LDLIBS=-lsb_ldlibs_seen "$tmp/b/bin/null1_processes"
like "$(printf '%s\n' "$out" | grep -- ' -c ' | grep -vc -- -DSB_CPPFLAGS_SEEN)" '^0$' "CPPFLAGS is in every compile"
like "$(printf '%s\n' "$out" | grep -- "-o $tmp/b/bin/null1_processes")" '-lsb_ldlibs_seen' "LDLIBS is in the link"
run make --no-print-directory -n clean BUILD="$tmp/b"
is "$out" "rm -rf -- '$tmp/b'" "make clean BUILD=dir removes that directory only"
plan "$_n"
exit "$_failed"
