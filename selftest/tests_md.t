#!/usr/bin/env bash
# docs/TESTS.md is exactly what tests/gen_tests_md.sh makes from today's sources, and every testcase has the header it parses;
# the Reproduces blocks (the experiments the project started from) are rendered, malformed ones refused.
# sb-san: skip: its subject is docs/TESTS.md and the shell that makes it; the testcases it runs run under the sanitizers in testcases.t
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# upstream SRC: a will-it-scale testcase dropped in unchanged (it includes no header of
# ours, as gen_tests_md.sh tells them apart): no header comment to check, its description is listed.
upstream() { ! grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1"; }
shopt -s nullglob
# The project's testcases: in a git checkout the tracked ones (a testcase a user drops into tests/
# is theirs: wis_dropin.t), else every tests/*.c (a release tarball, a copy); gen_tests_md.sh --tracked.
srcs=(tests/*.c)
if command -v git >/dev/null 2>&1 && top=$(git rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$(pwd -P)" ]; then
	declare -A known=()
	while IFS= read -r f; do known[$f]=1; done < <(git ls-files -- tests)
	kept=()
	for src in "${srcs[@]}"; do if [ -n "${known[$src]-}" ]; then kept+=("$src"); fi; done
	srcs=("${kept[@]}")
fi
ups=()
for src in "${srcs[@]}"; do
	t=$(basename "$src" .c)
	if upstream "$src"; then
		ups+=("$t")
		continue
	fi
	like "$(sed -n 1p "$src")" "^/\* $t: [^ ]" "$src line 1: '/* $t: <what it measures>'"
	like "$(sed -n 2p "$src")" '^ \* Stresses: .+\. \*/$' "$src line 2: ' * Stresses: <kernel path>. */'"
done

if linux_only; then
	run env SB_BUILD="$B" tests/gen_tests_md.sh --tracked "$tmp/TESTS.md"
	is "$rc" 0 "tests/gen_tests_md.sh runs${err:+: $(printf '%s' "$err" | tr '\n' ' ')}"
else
	# docs/TESTS.md lists every testcase: only a build with the Linux-only ones can make it.
	skip "docs/TESTS.md is made from a Linux build (this one: SB_OS=${SB_OS-})"
	rc=1
fi
if [ "$rc" -eq 0 ]; then
	diff -u docs/TESTS.md "$tmp/TESTS.md" >"$tmp/diff" 2>&1
	ok $? "docs/TESTS.md is current (else run: make && tests/gen_tests_md.sh)"
	[ -s "$tmp/diff" ] && sed 's/^/# /' "$tmp/diff" | head -n 40
	# Every testcase has its section, so a lost one cannot pass as "identical".
	for src in "${srcs[@]}"; do
		t=$(basename "$src" .c)
		grep -qx "## $t" "$tmp/TESTS.md"
		ok $? "the generated file has a section for $t"
	done
fi
# The experiments' testcases say what they reproduce, how they differ and how to run them.
section() { awk -v h="## $1" '$0 == h { on = 1; next } /^## / { on = 0 } on' "$tmp/TESTS.md"; }
# A will-it-scale testcase taken unchanged is listed by its description, saying it has no header.
if [ "$rc" -eq 0 ]; then
	for t in "${ups[@]}"; do
		desc=$("$B/bin/${t}_processes" --info 2>/dev/null | sed -n 's/^description=//p')
		like "$(section "$t")" "^- Measures: $(printf '%s' "$desc" | sed 's/[][\\.*^$+?(){}|/]/\\&/g')$" \
			"$t (will-it-scale's file, no header comment) is listed by its description"
		like "$(section "$t")" '^- Stresses: not stated ' "$t: what it stresses is said to be unknown"
	done
fi
if [ "$rc" -eq 0 ]; then
	like "$(section alloc_free3)" '^- Reproduces: the FreeBSD UMA cross-domain free experiment' "alloc_free3 names the experiment"
	like "$(section alloc_free3)" '^- Differs from the original: ' "alloc_free3 says how it differs"
	like "$(section alloc_free3)" '^- Run as the original: `\./runtest\.sh alloc_free3 --points topology --placement spread`$' \
		"alloc_free3 gives the command"
	like "$(section unix5)" '^- Reproduces: .*unp_connectat.*uipc_disconnect' "unix5 names the experiment"
	like "$(section unix5)" '^- Run as the original: `\./runtest\.sh unix5' "unix5 gives the command"
	unlike "$(section unix4)" '^- Reproduces: ' "a testcase without the block has no such line"
fi

# A malformed Reproduces block is refused (exit 2) naming the file and line: a copy of the
# generator in a tree of its own, with one testcase, run on this build's binaries.
case $B in /*) bb=$B ;; *) bb=$PWD/$B ;; esac
gen_bad() {	# gen_bad SED-SCRIPT: run the generator on unix5.c edited by the script
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/tests"
	cp tests/gen_tests_md.sh "$tmp/tree/tests/"
	: >"$tmp/tree/Makefile"
	sed "$1" tests/unix5.c >"$tmp/tree/tests/unix5.c"
	run env SB_BUILD="$bb" "$tmp/tree/tests/gen_tests_md.sh" "$tmp/tree/out.md"
}
gen_bad 's/^ \* Run: \.\/runtest\.sh unix5/ * Run: .\/runtest.sh unix4/'
is "$rc" 2 "a Run: for another testcase is refused with exit 2"
like "$err" '^gen_tests_md\.sh: tests/unix5\.c:[0-9]+: Run: must start with \./runtest\.sh unix5$' "naming the line"
gen_bad 's/^ \* Differs: / * Differ: /'
is "$rc" 2 "a misspelt field is refused with exit 2"
like "$err" 'tests/unix5\.c:[0-9]+: expected Differs: here' "naming the field expected"
gen_bad '/^ \* Run: /d'
is "$rc" 2 "a block cut short is refused with exit 2"
like "$err" 'tests/unix5\.c:[0-9]+: the Reproduces block needs Reproduces:, Differs: and Run:' "saying what it needs"
is "$(ls -A "$tmp/tree")" "Makefile
tests" "and no output is written"
gen_bad '3,/^ \*\/$/d'
is "$rc" 0 "a testcase without the block is fine"

echo "1..$_n"
exit "$_failed"
