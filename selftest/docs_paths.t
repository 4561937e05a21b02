#!/usr/bin/env bash
# docs_paths.t: every repository path README.md, docs/ and results/README.md name exists, or is marked "(to write)" and does not (what counts as a path: selftest/docs_paths.pl).
# sb-san: skip: its subject is the docs: a Perl scan of Markdown, no C run
. "$(dirname "$0")/lib.sh"
set -eu

main() {
	local tmp out rc
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	rc=0
	out=$(perl selftest/docs_paths.pl check README.md docs/*.md results/README.md) || rc=$?
	is "$rc:$out" "0:" "every path README.md, docs/*.md and results/README.md name is there (or marked to write)"
	rc=0
	out=$(perl selftest/docs_paths.pl checkmap README.md docs/ARCHITECTURE.md) || rc=$?
	is "$rc:$out" "0:" "every file README.md's layout and docs/ARCHITECTURE.md's map name is in its folder"

	# The rules on a page of every kind of mention (the checker must be able to fail).
	cat >"$tmp/page.md" <<-'EOF'
	See `analysis/stat/stats.c`, io/meta.c and include/testcase.h (one folder down), sweep/*.sh.
	The old `analysis/stats.c` is gone, and so is docs/NOPE.md.
	`runner/os_freebsd.c` (to write) is planned; `runner/os_linux.c` (to write) is not.
	Not paths: tests/<name>.c, DIR/samples.csv, results/pipe1/latest, build/bin/sb-compare,
	/usr/lib/x.c, https://example.org/a/b.c, $(BUILD)/gen/x.h, a/b, lkp's `lib/tests/pkgbuild.sh`.
	A glob that matches nothing: runner/cmd_*.c; another project's path unowned: lib/tests/pkgbuild.sh
	EOF
	rc=0
	out=$(perl selftest/docs_paths.pl check "$tmp/page.md" | sed 's/^[^:]*:\([0-9]*\): \([^:]*\):.*/\1 \2/' | tr '\n' ',') || rc=$?
	is "$out" "2 analysis/stats.c,2 docs/NOPE.md,3 runner/os_linux.c,6 runner/cmd_*.c,6 lib/tests/pkgbuild.sh," \
		"a page's missing paths, a stale (to write) and an empty glob are found; placeholders, outputs and others' paths are not paths"
	like "$(perl selftest/docs_paths.pl check "$tmp/page.md" | sed -n 3p)" 'runner/os_linux.c: it exists: drop "\(to write\)"' \
		"a planned file that exists is named as such"

	cat >"$tmp/map.md" <<-'EOF'
	## sweep/

	    args.sh          gone
	    plan.sh          here
	## analysis/

	    io/        the readers
	      meta.c       here
	      rundir.c     moved to rundir/
	    cmd_compare.c  here, in the section's folder
	EOF
	out=$(perl selftest/docs_paths.pl checkmap "$tmp/map.md" | sed 's/^[^:]*:\([0-9]*\): \([^:]*\):.*/\1 \2/' | tr '\n' ',' || true)
	is "$out" "3 args.sh,9 rundir.c," "a map's names are looked for in their folder: a gone or moved file is found"
	is "$(perl selftest/docs_paths.pl map "$tmp/map.md" | tr '\n' ' ')" "sweep/plan.sh analysis/io/meta.c analysis/cmd_compare.c " \
		"a map's names resolve by the folder lines above them"
	plan "$_n"
	exit "$_failed"
}

main "$@"
