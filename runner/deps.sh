#!/bin/sh
# make deps: install what scalebench needs with the system's package manager, or say what to install.
set -eu

apt_pkgs="gcc libc6-dev make pkg-config libhwloc-dev perl gnuplot-nox python3 util-linux procps ministat linux-perf python3-yaml jq groff-base"
dnf_pkgs="gcc make pkgconf-pkg-config hwloc-devel perl-Test-Harness gnuplot python3 util-linux procps-ng perf python3-pyyaml jq groff-base"
# VM runs (runtest.sh --kernel): QEMU (with virtiofsd on Debian 12), a static busybox, cpio
apt_pkgs="$apt_pkgs qemu-system-x86 busybox-static cpio xz-utils"
dnf_pkgs="$dnf_pkgs qemu-system-x86-core busybox cpio xz virtiofsd"
# make test-kernel: a small Debian kernel for the VM selftest (its 9p/virtiofs drivers are modules)
apt_test_kernel="linux-image-cloud-amd64"
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

if [ "${1-}" = test-kernel ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "make test-kernel: needs apt-get (Debian, Ubuntu); elsewhere set SB_TEST_KERNEL to a bzImage" >&2
		exit 3
	fi
	as_root apt-get update -q
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $apt_test_kernel
	exit 0
fi

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
	echo "  hwloc with its headers (2.x), gnuplot, python3, perl's prove, perf (for --profile); e.g. on Debian: $apt_pkgs" >&2
	exit 3
fi
