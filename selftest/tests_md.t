#!/usr/bin/env bash
# docs/TESTS.md is exactly what tests/gen_tests_md.sh makes from today's sources, and every testcase has the header it parses.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
for src in tests/*.c; do
	t=$(basename "$src" .c)
	like "$(sed -n 1p "$src")" "^/\* $t: [^ ]" "$src line 1: '/* $t: <what it measures>'"
	like "$(sed -n 2p "$src")" '^ \* Stresses: .+\. \*/$' "$src line 2: ' * Stresses: <kernel path>. */'"
done

run env SB_BUILD="$B" tests/gen_tests_md.sh "$tmp/TESTS.md"
is "$rc" 0 "tests/gen_tests_md.sh runs${err:+: $(printf '%s' "$err" | tr '\n' ' ')}"
if [ "$rc" -eq 0 ]; then
	diff -u docs/TESTS.md "$tmp/TESTS.md" >"$tmp/diff" 2>&1
	ok $? "docs/TESTS.md is current (else run: make && tests/gen_tests_md.sh)"
	[ -s "$tmp/diff" ] && sed 's/^/# /' "$tmp/diff" | head -n 40
	# Every testcase has its section, so a lost one cannot pass as "identical".
	for src in tests/*.c; do
		t=$(basename "$src" .c)
		grep -qx "## $t" "$tmp/TESTS.md"
		ok $? "the generated file has a section for $t"
	done
fi
echo "1..$_n"
exit "$_failed"
