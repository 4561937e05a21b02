#!/bin/bash
# compare.sh: ministat for files of numbers, or scalebench run comparison (docs/COMPARE.md).
# Builds the C tool (make) when it is missing or older than its sources, then runs it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# make install rewrites the next line (build-aux/install.sh): then the sb-compare beside it runs.
SB_INSTALL=''
if [ "${1-}" = --version ]; then
	if [ -n "$SB_INSTALL" ]; then v=$sb_version g=$sb_git; else
		v=$(sed -n 1p "$here/VERSION" 2>/dev/null) || v=''
		g=$(sh "$here/build-aux/version.sh" "$here" | sed -n 's/^#define SB_GIT_REVISION "\(.*\)"$/\1/p')
	fi
	printf 'compare.sh (scalebench) %s git %s\n' "${v:-unknown}" "${g:-unknown}"
	exit 0
fi
# exec -a: the tool's --help and usage errors name the command the user ran
if [ -n "$SB_INSTALL" ]; then exec -a "$(basename "$0")" "$here/sb-compare" "$@"; fi
build=${SB_BUILD:-build}
tool=sb-compare
# --profile BASE NEW: the profiles of the points both runs profiled (sb-profile compare)
if [ "${1-}" = --profile ]; then tool=sb-profile; shift; set -- compare "$@"; fi
case $build in
/*) bin=$build/bin/$tool ;;
*) bin=$here/$build/bin/$tool ;;
esac

# Stale as make sees it: the Makefile names the tool's sources (analysis/), once.
stale() {
	[ -x "$bin" ] || return 0
	command -v make >/dev/null 2>&1 || return 1
	! make -q -C "$here" BUILD="$build" "$build/bin/$tool" >/dev/null 2>&1
}

if stale; then
	if ! command -v make >/dev/null 2>&1; then
		echo "compare.sh: cannot build $bin: make is not installed (try 'make deps')" >&2
		exit 3
	fi
	# The target as the Makefile spells it ($(BUILD)/bin/sb-%), relative or absolute like
	# SB_BUILD. make's own output goes to stderr: stdout is the report, maybe appended to a CI summary.
	if ! make -s -C "$here" BUILD="$build" "$build/bin/$tool" >&2; then
		echo "compare.sh: cannot build $bin: make failed (see above; 'make deps' installs what is missing)" >&2
		exit 3
	fi
fi
if [ "$tool" = sb-compare ]; then exec -a "$(basename "$0")" "$bin" "$@"; fi
exec "$bin" "$@"
