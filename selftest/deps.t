#!/usr/bin/env bash
# make deps (build-aux/deps.sh) with a fake apt-get or dnf on PATH: the required packages in one line that
# must succeed, perf from linux-perf on Debian and linux-tools-* on Ubuntu, an optional package that will
# not install is a warning naming it (exit 0), a required one exit 3; sudo when not root.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A PATH of the few tools deps.sh needs, plus the fakes: never the machine's own apt-get or dnf.
mkdir "$tmp/bin"
for t in sh env sed tr cat grep uname; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
# fake id: not root, so deps.sh goes through the fake sudo, which logs and runs
printf '#!/bin/sh\necho 1000\n' >"$tmp/bin/id"
printf '#!/bin/sh\necho "sudo $*" >>"$FAKE_LOG"\nexec "$@"\n' >"$tmp/bin/sudo"
# fake installer: logs its command line; fails (like apt-get and dnf) when any package named is in FAKE_MISSING
fake() {
	cat >"$tmp/bin/$1" <<'FAKE'
#!/bin/sh
echo "${0##*/} $*" >>"$FAKE_LOG"
for a in "$@"; do
	for m in $FAKE_MISSING; do
		if [ "$a" = "$m" ]; then echo "E: Unable to locate package $a" >&2; exit 100; fi
	done
done
exit 0
FAKE
	chmod 755 "$tmp/bin/$1" "$tmp/bin/id" "$tmp/bin/sudo"
}
# deps OS_ID MISSING: run deps.sh as on that distribution with those packages missing
deps() {
	printf 'ID=%s\n' "$1" >"$tmp/os-release"
	[ "$1" = ubuntu ] && printf 'ID_LIKE=debian\n' >>"$tmp/os-release"
	: >"$tmp/log"
	run env PATH="$tmp/bin" SB_OS_RELEASE="$tmp/os-release" FAKE_LOG="$tmp/log" FAKE_MISSING="$2" \
		"$tmp/bin/sh" build-aux/deps.sh
	log=$(cat "$tmp/log")
}
installs() { printf '%s\n' "$log" | grep "^$1 " | grep -c -- " $2\( \|$\)"; }

fake apt-get
kr=$(uname -r)
# Ubuntu (a hosted runner): no linux-perf, perf is linux-tools-*
deps ubuntu "linux-perf linux-tools-$kr ministat"
is "$rc" 0 "Ubuntu: make deps exits 0 with optional packages missing${err:+: $(printf '%s' "$err" | tail -n 1)}"
is "$(installs apt-get linux-perf)" 0 "Ubuntu: never asks for Debian's linux-perf"
like "$(installs apt-get linux-tools-common):$(installs apt-get linux-tools-generic)" '^[1-9][0-9]*:[1-9]' "Ubuntu: perf from linux-tools-common and linux-tools-generic"
like "$(installs apt-get "linux-tools-$kr")" '^[1-9]' "and linux-tools-\$(uname -r), the running kernel's"
like "$err" "warning: optional package 'linux-tools-$kr' could not be installed \(without it: perf" "a missing optional package is a warning naming it and what goes without it"
like "$err" "warning: optional package 'ministat'" "each missing one is named"
is "$(printf '%s\n' "$err" | grep -c 'warning: optional package')" 2 "and only those"
like "$(installs apt-get libhwloc-dev):$(installs apt-get qemu-system-x86):$(installs apt-get jq)" '^[1-9][0-9]*:[1-9][0-9]*:[1-9]' \
	"the rest is installed (hwloc, QEMU, jq)"
req=$(printf '%s\n' "$log" | grep '^apt-get install' | head -n 1)
like "$req" ' gcc .*libhwloc-dev' "the required packages come first, in one line"
unlike "$req" 'perf|linux-tools|qemu|gnuplot|ministat' "with nothing optional in it (one unknown name fails an apt-get line)"
like "$(printf '%s\n' "$log" | head -n 2 | tr '\n' ' ')" '^sudo apt-get update' "not root: through sudo, apt-get update first"

# Debian: linux-perf
deps debian ""
is "$rc:$err" "0:make deps: optional packages: gnuplot-nox ministat python3-yaml jq groff-base python3-voluptuous python3-requests python3-pexpect python3-jsonschema linux-perf qemu-system-x86 busybox-static cpio xz-utils" \
	"Debian: everything installs, no warning"
is "$(installs apt-get linux-perf):$(installs apt-get linux-tools-common)" "1:0" "Debian: perf is linux-perf"

# a required package that will not install fails make deps
deps debian "libhwloc-dev"
is "$rc" 3 "a required package missing: exit 3"
like "$err" 'required packages could not be installed.*libhwloc-dev' "saying which"
is "$(installs apt-get jq)" 0 "and nothing optional is tried after it"

# Fedora: dnf
rm "$tmp/bin/apt-get"
fake dnf
deps fedora "virtiofsd"
is "$rc" 0 "Fedora: make deps exits 0 without virtiofsd"
like "$(installs dnf hwloc-devel):$(installs dnf perf)" '^1:[1-9]' "Fedora: hwloc-devel, perf"
like "$err" "warning: optional package 'virtiofsd'" "its missing optional package named"
deps fedora "hwloc-devel"
is "$rc" 3 "Fedora: a required package missing: exit 3"

# nothing known: says what to install, exit 3
rm "$tmp/bin/dnf"
deps other ""
is "$rc" 3 "no apt-get, dnf or pkg: exit 3"
like "$err" 'install: a C11 compiler' "saying what to install"
plan "$_n"
exit "$_failed"
