#!/bin/sh
# make install: copies a build into DESTDIR + the directory variables, the drivers rewritten to find it.
#   build-aux/install.sh BUILD     (make passes DESTDIR BINDIR LIBEXECDIR DATADIR MANDIR in the environment)
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

main() {
	build=$1
	: "${BINDIR:?}" "${LIBEXECDIR:?}" "${DATADIR:?}" "${MANDIR:?}"
	for v in "$BINDIR" "$LIBEXECDIR" "$DATADIR" "$MANDIR"; do
		case $v in /*) ;; *) die "'$v': the directory variables must be absolute paths" ;; esac
	done
	d=${DESTDIR:-}
	libexec=$LIBEXECDIR/scalebench data=$DATADIR/scalebench
	hdr=$build/gen/sb_version.h
	[ -f "$hdr" ] || die "$hdr is missing: run make first"
	version=$(sed -n 's/^#define SB_VERSION "\(.*\)"$/\1/p' "$hdr")
	git=$(sed -n 's/^#define SB_GIT_REVISION "\(.*\)"$/\1/p' "$hdr")

	install -d "$d$BINDIR" "$d$libexec" "$d$data/plot" "$d$MANDIR/man1" "$d$MANDIR/man3"
	for f in "$build"/bin/*_processes "$build"/bin/*_threads; do
		[ -f "$f" ] && install -m 755 "$f" "$d$libexec/"
	done
	for f in "$build"/bin/sb-*; do
		[ -f "$f" ] && install -m 755 "$f" "$d$BINDIR/"
	done
	for f in plot/*.gp plot/*.py; do
		[ -f "$f" ] && install -m 644 "$f" "$d$data/plot/"
	done
	# runtest.sh sources profile/record.sh and machine/machine.sh and runs vm/ from the data directory
	install -d "$d$data/profile" "$d$data/vm" "$d$data/machine"
	for f in profile/*.sh; do [ -f "$f" ] && install -m 644 "$f" "$d$data/profile/"; done
	for f in machine/*.sh; do [ -f "$f" ] && install -m 644 "$f" "$d$data/machine/"; done
	for f in vm/*; do
		if [ -x "$f" ]; then install -m 755 "$f" "$d$data/vm/"; elif [ -f "$f" ]; then install -m 644 "$f" "$d$data/vm/"; fi
	done
	for f in man/*.1; do [ -f "$f" ] && install -m 644 "$f" "$d$MANDIR/man1/"; done
	for f in man/*.3; do [ -f "$f" ] && install -m 644 "$f" "$d$MANDIR/man3/"; done

	configure runtest.sh "$d$BINDIR/scalebench-runtest" \
		"SB_INSTALL=1 sb_version=$(sq "$version") sb_git=$(sq "$git") sb_libexec=$(sq "$libexec") sb_datadir=$(sq "$data") sb_rel_libexec=$(sq "$(relpath "$BINDIR" "$libexec")") sb_rel_data=$(sq "$(relpath "$BINDIR" "$data")")"
	configure compare.sh "$d$BINDIR/scalebench-compare" \
		"SB_INSTALL=1 sb_version=$(sq "$version") sb_git=$(sq "$git")"
	configure runtest.py "$d$libexec/runtest.py" \
		"SB_INSTALL = ($(pyq "$(relpath "$libexec" "$BINDIR")/scalebench-runtest"), $(pyq "$BINDIR/scalebench-runtest"))"
}

main "$@"
