#!/bin/sh
# make deps: install what scalebench needs with the system's package manager, or say what to install.
set -eu

apt_pkgs="gcc libc6-dev make pkg-config libhwloc-dev perl gnuplot-nox python3 util-linux procps ministat python3-yaml jq groff-base"
dnf_pkgs="gcc make pkgconf-pkg-config hwloc-devel perl-Test-Harness gnuplot python3 util-linux procps-ng python3-pyyaml jq groff-base"
pkg_pkgs="hwloc2 gmake pkgconf gnuplot-lite python3 perl5"

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "make deps: not root and no sudo; run as root: $*" >&2
		exit 3
	fi
}

if command -v apt-get >/dev/null 2>&1; then
	as_root apt-get update -q
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $apt_pkgs
elif command -v dnf >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	as_root dnf install -y $dnf_pkgs
elif command -v pkg >/dev/null 2>&1 && [ "$(uname -s)" = FreeBSD ]; then
	# shellcheck disable=SC2086
	as_root pkg install -y $pkg_pkgs
else
	echo "make deps: no apt-get, dnf or pkg here; install: a C11 compiler, GNU make, pkg-config," >&2
	echo "  hwloc with its headers (2.x), gnuplot, python3, perl's prove; e.g. on Debian: $apt_pkgs" >&2
	exit 3
fi
