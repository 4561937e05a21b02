#!/usr/bin/env bash
# make install into a temporary DESTDIR with PREFIX=/usr: the layout, man pages that render, --version on
# every command, and a sweep, a compare and runtest.py run from there; CPPFLAGS, LDLIBS, make clean BUILD=.
# sb-san: skip: build-aux/install.sh and the installed drivers' paths: shell (the sweep it runs: runtest_sweep.t)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
run make -s install BUILD="$B" DESTDIR="$dest" PREFIX=/usr
is "$rc" 0 "make install DESTDIR=... PREFIX=/usr exits 0${err:+: $(printf '%s' "$err" | tail -n 3 | tr '\n' ' ')}"
bin=$dest/usr/bin libexec=$dest/usr/libexec/scalebench
for f in "$bin/scalebench-runtest" "$bin/scalebench-compare" "$bin/sb-compare" "$bin/sb-summary" \
	"$bin/sb-topology" "$libexec/unix1_processes" "$libexec/unix1_threads" "$libexec/runtest.py"; do
	[ -x "$f" ]
	ok $? "installed and executable: ${f#"$dest"}"
done
[ -f "$dest/usr/share/scalebench/plot/plot.py" ]
ok $? "plot scripts in DATADIR/scalebench/plot"
[ -f "$dest/usr/share/scalebench/profile/record.sh" ] && [ -x "$dest/usr/share/scalebench/vm/boot.sh" ] && [ -f "$dest/usr/share/scalebench/vm/init" ]
ok $? "profile/ and vm/ in DATADIR/scalebench (runtest.sh sources and runs them from there)"
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
for p in scalebench-runtest scalebench-compare sb-compare sb-summary sb-topology; do
	[ -f "$dest/usr/share/man/man1/$p.1" ]
	ok $? "$p has a man page"
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

# A sweep from an unrelated directory: results under ./results there; then a compare of two sweeps.
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

# Distribution flags reach every compile and link; make clean removes the BUILD it is given.
run make -n -B BUILD="$tmp/b" CPPFLAGS=-DSB_CPPFLAGS_SEEN LDLIBS=-lsb_ldlibs_seen "$tmp/b/bin/null1_processes"
like "$(printf '%s\n' "$out" | grep -- ' -c ' | grep -vc -- -DSB_CPPFLAGS_SEEN)" '^0$' "CPPFLAGS is in every compile"
like "$(printf '%s\n' "$out" | grep -- "-o $tmp/b/bin/null1_processes")" '-lsb_ldlibs_seen' "LDLIBS is in the link"
run make --no-print-directory -n clean BUILD="$tmp/b"
is "$out" "rm -rf -- '$tmp/b'" "make clean BUILD=dir removes that directory only"
plan "$_n"
exit "$_failed"
