#!/bin/sh
# make install-lkp: fills the directory lkp-tests runs will-it-scale from: testcase binaries and runtest.py at its top.
#   build-aux/install-lkp.sh BUILD DIR
#
# DIR gets every <test>_processes and <test>_threads, runtest.py and runalltests
# at its top (lkp's run checks `ls *"<test>_"*` there and calls ./runtest.py),
# and scalebench's driver and tools under DIR/scalebench/. make install lays
# the parts out (build-aux/install.sh, in a staging directory); its copies find
# each other by relative paths, so the tree works wherever it is unpacked.
set -eu

die() { echo "make install-lkp: $*" >&2; exit "$1"; }

stage=''
cleanup() { if [ -n "$stage" ]; then rm -rf -- "$stage"; fi; }

main() {
	build=$1 dest=$2
	[ -n "$dest" ] || die 2 "DESTDIR=DIR: the will-it-scale directory to fill (lkp-tests: \$benchmark_path)"
	case $dest in /*) ;; *) dest=$PWD/$dest ;; esac
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT TERM HUP
	stage=$(mktemp -d) || die 3 "cannot make a staging directory (TMPDIR)"
	# libexec is LIBEXECDIR/scalebench: the top of the tree; the rest below it.
	top=/lkp/scalebench
	DESTDIR=$stage LIBEXECDIR=/lkp BINDIR=$top/scalebench/bin DATADIR=$top/scalebench/share \
		MANDIR=$top/scalebench/share/man sh build-aux/install.sh "$build" || exit $?
	install -m 755 runalltests "$stage$top/"
	mkdir -p -- "$dest" || die 3 "cannot make $dest"
	cp -R -- "$stage$top/." "$dest/" || die 3 "cannot copy into $dest"
}

main "$@"
