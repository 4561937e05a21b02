#!/usr/bin/env bash
# A will-it-scale testcase dropped into tests/ unchanged (no header comment of ours, nothing of ours included):
# in a copy of the tree it builds without a warning, runs in both modes, is listed in docs/TESTS.md by its
# description, and the selftests that read every tests/*.c accept it (tests_md.t run in the copy): untracked in
# a git checkout (the user's own), tests_md.t passes with docs/TESTS.md as it was; tracked, it is listed.
# sb-san: skip: a foreign file's build and listing (make, tests_md); the runner it links is sanitized in testcases.t
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $B in /*) bb=$B ;; *) bb=$PWD/$B ;; esac
name=wis_umask1

# The copy: the sources and a copy of this build (times kept: only the new testcase compiles).
copy=$tmp/tree
mkdir -p "$copy/selftest" "$copy/docs"
cp -pR Makefile VERSION build-aux runner cli format analysis tests "$copy/"
cp -p docs/TESTS.md "$copy/docs/"
cp -p selftest/lib.sh selftest/tests_md.t "$copy/selftest/"
cp -pR "$bb" "$copy/b"
# a git checkout of the project's files (tests_md.t checks the testcases git tracks)
if command -v git >/dev/null 2>&1; then
	git init -q "$copy" && git -C "$copy" add Makefile VERSION build-aux runner cli format analysis tests docs selftest
fi
# will-it-scale's shape: system headers only, a plain comment, (*iterations)++, an unused nr.
cat >"$copy/tests/$name.c" <<'EOF'
/* A testcase written the way will-it-scale's are: nothing of scalebench's included. */
#include <sys/types.h>
#include <sys/stat.h>

char *testcase_description = "umask set and restore";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	while (1) {
		mode_t old = umask(022);

		umask(old);
		(*iterations)++;
	}
}
EOF

run make -C "$copy" BUILD=b SAN="${SB_SAN-}" OS="${SB_OS:-linux}" "b/bin/${name}_processes" "b/bin/${name}_threads"
is "$rc" 0 "it builds${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
is "$(printf '%s\n%s\n' "$out" "$err" | grep -c 'warning:')" 0 "without a warning (its unused nr is will-it-scale's code, not ours)"
run "$copy/b/bin/${name}_processes" --info
like "$out" '^modes=processes,threads$' "--info: both modes, as every will-it-scale testcase"
like "$out" '^description=umask set and restore$' "--info: its description"
for m in processes threads; do
	run env TMPDIR="$tmp" "$copy/b/bin/${name}_$m" -t 2 -s 1 --warmup 0 --period-ms 100 </dev/null
	like "$rc:$(printf '%s\n' "$out" | sed -n 's/^average://p')" '^0:[1-9][0-9]*$' "the $m binary runs and counts${err:+: $err}"
	is "$(printf '%s\n' "$out" | grep '^testcase:' | awk -F: '{ print NF }')" 2 "$m: its testcase: line splits in two (lkp)"
done

if linux_only; then
	# the user's own testcase, not the project's (untracked): `make check` passes, docs/TESTS.md as it was
	if [ -d "$copy/.git" ]; then
		run env SB_BUILD="$copy/b" SB_OS="${SB_OS-}" prove "$copy/selftest/tests_md.t"
		is "$rc" 0 "dropped in, untracked: tests_md.t still passes (the project's testcases only)${out:+: $(printf '%s' "$out" | grep -m 3 -e '^not ok' -e 'Failed' | tr '\n' ' ')}"
		git -C "$copy" add "tests/$name.c"	# now the project's: docs/TESTS.md must list it
	else
		skip "no git: a copy that is no checkout checks every tests/*.c"
	fi
	run env SB_BUILD="$copy/b" "$copy/tests/gen_tests_md.sh"
	is "$rc" 0 "tests/gen_tests_md.sh takes it${err:+: $err}"
	section=$(awk -v h="## $name" '$0 == h { on = 1; next } /^## / { on = 0 } on' "$copy/docs/TESTS.md")
	like "$section" '^- Measures: umask set and restore$' "docs/TESTS.md lists it by its description"
	like "$(grep "^| \[$name\]" "$copy/docs/TESTS.md")" '\| umask set and restore \| processes, threads \| no \|$' "in the index too"
	run env SB_BUILD="$copy/b" SB_OS="${SB_OS-}" prove "$copy/selftest/tests_md.t"
	is "$rc" 0 "selftest/tests_md.t passes in the copy${out:+: $(printf '%s' "$out" | grep -m 3 -e '^not ok' -e 'Failed' | tr '\n' ' ')}"
else
	for _ in 1 2 3 4 5; do skip "docs/TESTS.md is made from a Linux build (this one: SB_OS=${SB_OS-})"; done
fi
plan "$_n"
exit "$_failed"
