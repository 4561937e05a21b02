#!/usr/bin/env bash
# alloc_free2 under AddressSanitizer: no use-after-free or double free while buffers change tasks.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
if ! printf 'int main(void) { return 0; }\n' | "$cc" -fsanitize=address -x c -o "$tmp/probe" - \
	>/dev/null 2>&1 || ! "$tmp/probe" >/dev/null 2>&1; then
	echo "1..0 # SKIP $cc cannot build and run with -fsanitize=address"
	exit 0
fi
plan 5
bld=$tmp/build
# A private build directory (not $B): a parallel make check must not clash with it.
run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j2 SAN=address BUILD="$bld" "$bld/bin/alloc_free2_threads"
is "$rc" 0 "make SAN=address builds alloc_free2_threads${err:+: $(printf '%s' "$err" | tail -n 3 | tr '\n' ' ')}"
# 3 s, not 0.5: a check comes every 16,384 operations a task, which a loaded machine under ASan
# did not reach in 0.5 s ("passed 0 times")
run "$bld/bin/alloc_free2_threads" -t 2 --period-ms 100 -s 30 --warmup 1 --param check=1
is "$rc" 0 "alloc_free2 under ASan with check=1 exits 0"
unlike "$err" "AddressSanitizer" "ASan reports nothing"
like "$out" "^average:[1-9]" "it counted"
like "$err" "accounting check passed [1-9][0-9]* times" "and the accounting check passed"
exit "$_failed"
