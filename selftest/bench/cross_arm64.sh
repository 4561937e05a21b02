#!/usr/bin/env bash
# The arm64 build test: Debian's cross compiler and arm64 hwloc and SQLite, then make dist-bin for
# aarch64 into a build directory of its own; checks that every binary is an aarch64 ELF and times
# each step. Not run by make check (a minute of package installs and a whole build); root, Debian.
#   selftest/bench/cross_arm64.sh [--keep-packages]
# Without --keep-packages the packages it installed (and only those: the difference of dpkg's list
# before and after) and the arm64 architecture are removed afterwards, so that later apt-get
# updates fetch no arm64 lists and nothing else on the machine changes.
set -eu

PROG=cross_arm64.sh
BUILD_DIR=build-arm64
keep=0

die() { echo "$PROG: $2" >&2; exit "$1"; }

# timed LABEL CMD...: run CMD, print its wall time on stderr (CMD's own output may be sent away)
timed() {
	local label=$1 start
	shift
	start=$(date +%s%N)
	"$@"
	printf '%-28s %6.1f s\n' "$label" "$((($(date +%s%N) - start) / 1000000))e-3" >&2
}

installed() { dpkg-query -W -f='${binary:Package}\n' | sort; }

# undo BEFORE-LIST: purge what is installed now and was not then (libc6:arm64 is "essential" to
# apt, hence --allow-remove-essential: the list holds new arm64 and cross packages only, never
# one that another process installed meanwhile)
undo() {
	local pk
	pk=$(installed | comm -13 "$1" - | grep -E ':arm64$|aarch64|arm64-cross|cross-base' | tr '\n' ' ')
	# shellcheck disable=SC2086
	[ -z "$pk" ] || apt-get purge -y -q --allow-remove-essential $pk >/dev/null
	dpkg --remove-architecture arm64
	apt-get update -q >/dev/null
}

main() {
	[ "${1-}" = --keep-packages ] && keep=1
	[ "$(id -u)" = 0 ] || die 3 "needs root (apt-get, dpkg --add-architecture)"
	command -v apt-get >/dev/null 2>&1 || die 3 "needs apt-get (Debian)"
	cd "$(dirname "$0")/../.."
	before=$(mktemp)
	trap 'rm -f "$before"' EXIT
	installed >"$before"
	timed "add arm64, apt-get update" sh -c 'dpkg --add-architecture arm64 && apt-get update -q >/dev/null'
	timed "install the cross tools" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends gcc-aarch64-linux-gnu libhwloc-dev:arm64 libsqlite3-dev:arm64 >/dev/null
	timed "make dist-bin (aarch64)" env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
		make -s -j"$(nproc)" dist-bin CC=aarch64-linux-gnu-gcc BUILD="$BUILD_DIR" >/dev/null
	bad=0
	for f in "$BUILD_DIR"/bin/*; do
		case $(file -b "$f") in
		*"ELF 64-bit"*"ARM aarch64"*) ;;
		*ELF*) echo "$PROG: $f is not an aarch64 binary: $(file -b "$f")" >&2; bad=1 ;;
		esac
	done
	ls -l "$BUILD_DIR"/scalebench-bin-aarch64.tar.gz
	if [ "$keep" = 0 ]; then timed "remove what it installed" undo "$before"; fi
	[ "$bad" = 0 ] || exit 1
	echo "$PROG: every binary of $BUILD_DIR/bin is aarch64"
}

main "$@"
