#!/bin/sh
# make deps: install what scalebench needs with the system's package manager, or say what to install.
#   build-aux/deps.sh [test-kernel]
# Required packages build and run the sweep: one that cannot be installed fails (exit 3). Optional
# ones (perf, QEMU, gnuplot, ministat, the selftests' helpers) are tried after them, and one that
# cannot be installed is a warning naming it and what goes without it: a hosted CI runner (Ubuntu:
# no linux-perf, perf is linux-tools-*) still builds and measures.
# Testing: SB_OS_RELEASE names the os-release file (default /etc/os-release).
set -eu

# Debian and Ubuntu
apt_required="gcc libc6-dev make pkg-config libhwloc-dev libsqlite3-dev perl python3 util-linux procps git"
apt_optional="gnuplot-nox ministat python3-yaml jq groff-base"
# selftest/lava_testdef.t: LAVA's own Python (its packages are fetched by apt-get download) and
# selftest/kcidb.t's schema check
apt_lava="python3-voluptuous python3-requests python3-pexpect python3-jsonschema"
# VM runs (runtest.sh --kernel): QEMU, a static busybox, cpio, xz
apt_vm="qemu-system-x86 busybox-static cpio xz-utils"
# perf: Debian's linux-perf; Ubuntu's perf is a wrapper (linux-tools-common) around the
# kernel's own build (linux-tools-$(uname -r); linux-tools-generic for the generic kernel)
apt_perf_debian="linux-perf"
apt_perf_ubuntu="linux-tools-common linux-tools-generic"
# make test-kernel: a small Debian kernel for the VM selftest (its 9p/virtiofs drivers are modules)
apt_test_kernel="linux-image-cloud-amd64"
# Fedora
dnf_required="gcc make pkgconf-pkg-config hwloc-devel sqlite-devel perl-Test-Harness python3 util-linux procps-ng git"
dnf_optional="gnuplot perf python3-pyyaml jq groff-base qemu-system-x86-core busybox cpio xz virtiofsd"
# FreeBSD (no VM runs, no perf)
pkg_required="hwloc2 gmake pkgconf python3 perl5 sqlite3 git"
pkg_optional="gnuplot-lite"

# what_for PACKAGE: what goes without it, for the warning
what_for() {
	case $1 in
	linux-perf | linux-tools-* | perf) echo "perf: runtest.sh --profile" ;;
	gnuplot*) echo "gnuplot: make plot" ;;
	ministat) echo "FreeBSD's ministat: selftest/compare_ministat.t's cross-check" ;;
	python3-yaml | python3-pyyaml | jq) echo "selftest/ci_yaml.t and export.t's JSON checks" ;;
	python3-voluptuous | python3-requests | python3-pexpect) echo "selftest/lava_testdef.t (LAVA's code)" ;;
	python3-jsonschema) echo "selftest/kcidb.t's check against KCIDB's schema" ;;
	groff-base) echo "man page checks in selftest/install.t" ;;
	qemu-* | busybox* | cpio | xz* | virtiofsd) echo "VM runs: runtest.sh --kernel" ;;
	*) echo "an optional feature" ;;
	esac
}

warn() { echo "make deps: warning: $*" >&2; }

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

# distro_id: ID and ID_LIKE of os-release, blank-separated (e.g. "ubuntu debian")
distro_id() {
	f=${SB_OS_RELEASE:-/etc/os-release}
	[ -r "$f" ] || return 0
	sed -n 's/^ID=//p; s/^ID_LIKE=//p' "$f" | tr -d '"' | tr '\n' ' '
}

# optional INSTALLER PACKAGE...: all at once, else one by one (one unknown package fails a whole
# apt-get or dnf line); a package that will not install is a warning
optional() {
	inst=$1
	shift
	[ $# -gt 0 ] || return 0
	echo "make deps: optional packages: $*" >&2
	if $inst "$@" >/dev/null 2>&1; then return 0; fi
	for p in "$@"; do
		# shellcheck disable=SC2086
		$inst "$p" >/dev/null 2>&1 || warn "optional package '$p' could not be installed (without it: $(what_for "$p"))"
	done
}

# required INSTALLER PACKAGE...: all of them, or exit 3
required() {
	inst=$1
	shift
	if ! $inst "$@"; then
		echo "make deps: the required packages could not be installed (see above): $*" >&2
		exit 3
	fi
}

apt_install() { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"; }
dnf_install() { as_root dnf install -y "$@"; }
pkg_install() { as_root pkg install -y "$@"; }

deps_apt() {
	case " $(distro_id) " in
	*" ubuntu "*) perf="$apt_perf_ubuntu linux-tools-$(uname -r)" ;;
	*) perf=$apt_perf_debian ;;
	esac
	as_root apt-get update -q || { echo "make deps: apt-get update failed" >&2; exit 3; }
	# shellcheck disable=SC2086
	required apt_install $apt_required
	# shellcheck disable=SC2086
	optional apt_install $apt_optional $apt_lava $perf $apt_vm
}

main() {
	if [ "${1-}" = test-kernel ]; then
		if ! command -v apt-get >/dev/null 2>&1; then
			echo "make test-kernel: needs apt-get (Debian, Ubuntu); elsewhere set SB_TEST_KERNEL to a bzImage" >&2
			exit 3
		fi
		as_root apt-get update -q
		# shellcheck disable=SC2086
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $apt_test_kernel
		exit 0
	fi
	if command -v apt-get >/dev/null 2>&1; then
		deps_apt
	elif command -v dnf >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		required dnf_install $dnf_required
		# shellcheck disable=SC2086
		optional dnf_install $dnf_optional
	elif command -v pkg >/dev/null 2>&1 && [ "$(uname -s)" = FreeBSD ]; then
		# shellcheck disable=SC2086
		required pkg_install $pkg_required
		# shellcheck disable=SC2086
		optional pkg_install $pkg_optional
	else
		echo "make deps: no apt-get, dnf or pkg here; install: a C11 compiler, GNU make, pkg-config," >&2
		echo "  hwloc with its headers (2.x), python3, perl's prove; optional: gnuplot, perf (for --profile)," >&2
		echo "  QEMU, busybox, cpio, xz (VM runs); e.g. on Debian: $apt_required $apt_optional $apt_perf_debian $apt_vm" >&2
		exit 3
	fi
}

main "$@"
