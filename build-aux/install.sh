#!/bin/sh
# make install / uninstall: copies a build into DESTDIR + the directory variables, the drivers rewritten to find it.
#   build-aux/install.sh BUILD          make install (make passes DESTDIR, PREFIX, BINDIR, LIBEXECDIR,
#   build-aux/install.sh --uninstall    DATADIR, MANDIR, INCLUDEDIR, LIBDIR, HWLOC_LIBS in the environment)
set -eu

die() { echo "make install: $*" >&2; exit 3; }

# relpath FROM TO: TO (absolute) relative to the directory FROM (absolute), e.g. /usr/bin /usr/libexec/x -> ../libexec/x
relpath() {
	from=$(printf '%s' "$1" | sed 's#//*#/#g; s#/$##') to=$(printf '%s' "$2" | sed 's#//*#/#g; s#/$##')
	up=''
	while :; do
		case $to/ in
		"$from"/*) break ;;
		esac
		from=${from%/*} up=../$up
	done
	rest=${to#"$from"} rest=${rest#/}
	rel=$(printf '%s' "${up}${rest}" | sed 's#/$##')
	printf '%s' "${rel:-.}"
}

# sq TEXT: TEXT in single quotes for a shell or Python line
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# pyq TEXT: TEXT as a Python string literal
pyq() { printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')"; }

# configure SRC DEST LINE: SRC with its SB_INSTALL line replaced by LINE, mode 755
configure() {
	awk -v line="$3" '!done && /^SB_INSTALL *= *(''|None)/ { print line; done = 1; next } { print }
		END { if (!done) exit 1 }' "$1" >"$2.tmp" || { rm -f "$2.tmp"; die "$1 has no SB_INSTALL line"; }
	chmod 755 "$2.tmp"
	mv -f "$2.tmp" "$2"
}

# Commands that are no user's: runtest.sh's and vm/boot.sh's helpers (in LIBEXECDIR/scalebench).
INTERNAL='sb-options sb-sweepargs sb-vmboot sb-workdir'

# tool_names: the sb-* tools, from their sources (sweep/, vm/, machine/, analysis/cmd_*.c), one a line
tool_names() {
	for f in sweep/cmd_*.c vm/cmd_*.c machine/cmd_*.c analysis/cmd_*.c; do
		[ -f "$f" ] || continue
		n=${f##*/cmd_} n=sb-${n%.c}
		printf '%s\n' "$n"
	done
}

internal() { case " $INTERNAL " in *" $1 "*) return 0 ;; esac; return 1; }

# pc MODE: the pkg-config file of the harness linked for MODE (processes or threads)
pc() {
	cat <<EOF
prefix=$PREFIX
includedir=$INCLUDEDIR
libdir=$LIBDIR

Name: scalebench-$1
Description: scalebench's testcase harness, tasks as $1 (a testcase.h testcase becomes a runner)
Version: $version
Cflags: -I\${includedir}/scalebench -pthread
Libs: -L\${libdir} -lscalebench-$1 -pthread -Wl,-z,now ${HWLOC_LIBS:-} -lm
EOF
}

# put MODE FILE DIR: install FILE into DIR (under DESTDIR) through a temporary name
put() {
	install -m "$1" "$2" "$d$3/.${2##*/}.tmp"
	mv -f "$d$3/.${2##*/}.tmp" "$d$3/${2##*/}"
}

# write FILE: standard input into FILE (under DESTDIR) through a temporary name
write() {
	cat >"$d$1.tmp"
	chmod 644 "$d$1.tmp"
	mv -f "$d$1.tmp" "$d$1"
}

do_install() {
	build=$1
	hdr=$build/gen/sb_version.h
	[ -f "$hdr" ] || die "$hdr is missing: run make first"
	version=$(sed -n 's/^#define SB_VERSION "\(.*\)"$/\1/p' "$hdr")
	git=$(sed -n 's/^#define SB_GIT_REVISION "\(.*\)"$/\1/p' "$hdr")

	install -d "$d$BINDIR" "$d$libexec" "$d$data/plot" "$d$MANDIR/man1" "$d$MANDIR/man3" \
		"$d$INCLUDEDIR/scalebench" "$d$LIBDIR/pkgconfig"
	for f in "$build"/bin/*_processes "$build"/bin/*_threads; do
		[ -f "$f" ] && put 755 "$f" "$libexec"
	done
	for n in $(tool_names); do
		[ -f "$build/bin/$n" ] || die "$build/bin/$n is missing: run make first"
		if internal "$n"; then put 755 "$build/bin/$n" "$libexec"; else put 755 "$build/bin/$n" "$BINDIR"; fi
	done
	for f in plot/*.gp; do [ -f "$f" ] && put 644 "$f" "$data/plot"; done
	for f in plot/*.py; do [ -f "$f" ] && put 755 "$f" "$data/plot"; done
	# runtest.sh sources sweep/*.sh, profile/record.sh and machine/machine.sh and runs vm/ from the data directory
	install -d "$d$data/sweep" "$d$data/profile" "$d$data/vm" "$d$data/machine"
	for f in sweep/*.sh; do [ -f "$f" ] && put 644 "$f" "$data/sweep"; done
	for f in profile/*.sh; do [ -f "$f" ] && put 644 "$f" "$data/profile"; done
	for f in machine/*.sh; do [ -f "$f" ] && put 644 "$f" "$data/machine"; done
	for f in vm/*; do
		case $f in *.c | *.h) continue ;; esac	# sb-vmboot's source
		if [ -x "$f" ]; then put 755 "$f" "$data/vm"; elif [ -f "$f" ]; then put 644 "$f" "$data/vm"; fi
	done
	for f in man/*.1; do [ -f "$f" ] && put 644 "$f" "$MANDIR/man1"; done
	for f in man/*.3; do [ -f "$f" ] && put 644 "$f" "$MANDIR/man3"; done
	# A testcase out of the tree: testcase.h, the harness with each mode, their pkg-config files;
	# scalebench.pc is processes, will-it-scale's main mode
	for f in runner/include/*.h; do put 644 "$f" "$INCLUDEDIR/scalebench"; done
	for m in processes threads; do
		[ -f "$build/libscalebench-$m.a" ] || die "$build/libscalebench-$m.a is missing: run make install"
		put 644 "$build/libscalebench-$m.a" "$LIBDIR"
		pc "$m" | write "$LIBDIR/pkgconfig/scalebench-$m.pc"
	done
	pc processes | sed 's/^Name: scalebench-processes$/Name: scalebench/' | write "$LIBDIR/pkgconfig/scalebench.pc"

	configure runtest.sh "$d$BINDIR/scalebench-runtest" \
		"SB_INSTALL=1 sb_version=$(sq "$version") sb_git=$(sq "$git") sb_libexec=$(sq "$libexec") sb_datadir=$(sq "$data") sb_rel_libexec=$(sq "$(relpath "$BINDIR" "$libexec")") sb_rel_data=$(sq "$(relpath "$BINDIR" "$data")")"
	configure compare.sh "$d$BINDIR/scalebench-compare" \
		"SB_INSTALL=1 sb_version=$(sq "$version") sb_git=$(sq "$git")"
	configure runtest.py "$d$libexec/runtest.py" \
		"SB_INSTALL = ($(pyq "$(relpath "$libexec" "$BINDIR")/scalebench-runtest"), $(pyq "$BINDIR/scalebench-runtest"))"
}

# make uninstall: every file make install puts in a shared directory, and scalebench's own
# directories whole (LIBEXECDIR/scalebench also holds what runtest.py writes there: <test>.title)
do_uninstall() {
	for n in $(tool_names) scalebench-runtest scalebench-compare; do
		internal "$n" || rm -f "$d$BINDIR/$n"
	done
	for f in man/*.1; do rm -f "$d$MANDIR/man1/${f##*/}"; done
	for f in man/*.3; do rm -f "$d$MANDIR/man3/${f##*/}"; done
	for m in processes threads; do
		rm -f "$d$LIBDIR/libscalebench-$m.a" "$d$LIBDIR/pkgconfig/scalebench-$m.pc"
	done
	rm -f "$d$LIBDIR/pkgconfig/scalebench.pc"
	rm -rf "$d$libexec" "$d$data" "$d$INCLUDEDIR/scalebench"
}

main() {
	: "${BINDIR:?}" "${LIBEXECDIR:?}" "${DATADIR:?}" "${MANDIR:?}"
	# make passes these too (INSTALL_ENV); a caller that does not gets GNU's defaults
	PREFIX=${PREFIX:-/usr/local} INCLUDEDIR=${INCLUDEDIR:-${PREFIX:-/usr/local}/include}
	LIBDIR=${LIBDIR:-${PREFIX:-/usr/local}/lib}
	for v in "$PREFIX" "$BINDIR" "$LIBEXECDIR" "$DATADIR" "$MANDIR" "$INCLUDEDIR" "$LIBDIR"; do
		case $v in /*) ;; *) die "'$v': the directory variables must be absolute paths" ;; esac
	done
	d=${DESTDIR:-}
	libexec=$LIBEXECDIR/scalebench data=$DATADIR/scalebench
	case ${1-} in
	--uninstall) do_uninstall ;;
	*) do_install "$1" ;;
	esac
}

main "$@"
