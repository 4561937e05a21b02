#!/usr/bin/env bash
# source_sizes.t: no C file of the tools' folders over 700 lines, no function over 80 (docs/ARCHITECTURE.md "Sizes").
# sb-san: skip: wc and awk over the sources, no C run
. "$(dirname "$0")/lib.sh"
set -eu

# The folders of C the tools are built from (testcases, tests/, have their own shape).
DIRS=(analysis runner sweep vm machine cli format)

# sources DIR...: their C files and headers, sorted
sources() { find "$@" \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort; }

# long_files FILE...: "FILE: LINES" of each over 700 lines
long_files() { wc -l "$@" | awk '$2 != "total" && $1 > 700 { print $2 ": " $1 }'; }

# long_functions FILE...: "FILE: LINES: SIGNATURE" of each function over 80 lines (ARCHITECTURE.md's awk:
# a definition starts at a line that begins with a lower-case word and holds "(", ends at "}" in column 0)
long_functions() {
	awk 'FNR == 1 { f = 0 } /^[a-z].*\(/ && !/;$/ { n = $0; s = FNR; f = 1 }
	     f && /^}/ { if (FNR - s > 80) print FILENAME ": " FNR - s ": " n; f = 0 }' "$@"
}

main() {
	local tmp files
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	# The checks find what they are for: a 701-line file, an 81-line function.
	mkdir "$tmp/probe"
	{ echo 'static int f(void)'; echo '{'; for _ in $(seq 79); do echo '	;'; done; echo '}'; } >"$tmp/probe/fn.c"
	seq 701 | sed 's/.*/;/' >"$tmp/probe/long.c"
	is "$(long_files "$tmp/probe/long.c" "$tmp/probe/fn.c")" "$tmp/probe/long.c: 701" "a file over 700 lines is found"
	is "$(long_functions "$tmp/probe/fn.c")" "$tmp/probe/fn.c: 81: static int f(void)" \
		"a function over 80 lines is found"

	mapfile -t files < <(sources "${DIRS[@]}")
	[ "${#files[@]}" -gt 100 ]
	ok $? "the folders hold the sources (${#files[@]} C files and headers in ${DIRS[*]})"
	is "$(long_files "${files[@]}")" "" "no C file there over 700 lines"
	is "$(long_functions "${files[@]}")" "" "no function there over 80 lines"
	plan "$_n"
	exit "$_failed"
}

main "$@"
