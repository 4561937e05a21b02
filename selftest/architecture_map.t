#!/usr/bin/env bash
# architecture_map.t: docs/ARCHITECTURE.md's map names every C and shell file of the tree, and its "Where do I add X" table names files that exist and hold the symbols it names.
# sb-san: skip: its subject is docs/ARCHITECTURE.md: a Perl scan of it and of the tree, no C run
. "$(dirname "$0")/lib.sh"
set -eu

# sources: the tree's C and shell files the map must name, one a line: every .c and .sh, and a
# header without a .c of its name beside it; not the testcases (tests/*.c: docs/TESTS.md lists
# them) nor selftest/ (docs/SELFTEST.md). A git checkout's tracked files, else the tree's.
sources() {
	local f
	{
		if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
			git ls-files -- '*.c' '*.h' '*.sh'
		else
			find . -path ./.git -prune -o -path './build*' -prune -o -path ./results -prune -o \
				-type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' \) -print | sed 's|^\./||'
		fi
	} | grep -v -e '^selftest/' -e '^tests/[^/]*\.c$' | while IFS= read -r f; do
		case $f in *.h) [ -f "${f%.h}.c" ] && continue ;; esac
		printf '%s\n' "$f"
	done | LC_ALL=C sort
}

main() {
	local tmp out rc kind
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	sources >"$tmp/sources"
	perl selftest/docs_paths.pl map docs/ARCHITECTURE.md | LC_ALL=C sort >"$tmp/mapped"
	[ "$(wc -l <"$tmp/sources")" -gt 100 ]
	ok $? "the tree's C and shell files are listed ($(wc -l <"$tmp/sources"))"
	is "$(LC_ALL=C comm -23 "$tmp/sources" "$tmp/mapped" | tr '\n' ' ')" "" \
		"docs/ARCHITECTURE.md's map names every one (a new file: a line in its folder's block)"

	rc=0
	out=$(perl selftest/docs_paths.pl table docs/ARCHITECTURE.md) || rc=$?
	is "$rc:$out" "0:" "the \"Where do I add X\" table: each row names files that exist, each symbol is in its file"
	awk '/^## Where do I add X/ { t = 1; next } /^## / { t = 0 } t && /^\| *a/ { split($0, c, "|"); print c[2] }' \
		docs/ARCHITECTURE.md >"$tmp/kinds"
	for kind in 'a testcase' 'option' 'column' ' format' 'show format' 'a verdict' 'a meta key' 'a tool'; do
		grep -q -e "$kind" "$tmp/kinds"
		ok $? "the table has a row for '${kind# }'"
	done

	# The table's check must be able to fail: a symbol its file lacks, a file that is gone.
	cat >"$tmp/table.md" <<-'EOF'
	## Where do I add X

	| to add | where |
	|---|---|
	| a runner option | a row in `table[]` in runner/options.c |
	| a thing | a row in `no_such_table[]` in runner/options.c |
	| a gone thing | a row in `table[]` in runner/cmd_sweepargs.c |
	EOF
	out=$(perl selftest/docs_paths.pl table "$tmp/table.md" | sed 's/^[^:]*:\([0-9]*\): /\1 /' | tr '\n' ',' || true)
	is "$out" "6 runner/options.c has no no_such_table,7 a row that names no file of the tree,7 runner/cmd_sweepargs.c: no such file," \
		"a symbol missing from its file and a file that is gone are found"
	plan "$_n"
	exit "$_failed"
}

main "$@"
