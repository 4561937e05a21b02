#!/usr/bin/env bash
# cli_tables.t: one option engine: no C tool parses options by hand, and every tool's --help lists each option of its tables.
. "$(dirname "$0")/runtest_lib.sh"

# The folders of C tools (sweep/ and vm/ hold the sweep's and the VM's helpers).
DIRS=(runner analysis machine sweep vm)

# c_files: every C file of a tool's folder (cli/, the engine, is not one)
c_files() {
	local d
	for d in "${DIRS[@]}"; do
		[ -d "$d" ] && find "$d" -name '*.c'
	done | LC_ALL=C sort
}

# help_of FILE: the command whose output is the --help of the tables FILE declares
help_of() {
	local b=${1##*/}
	case $b in
	options.c) echo "$SB_BUILD/bin/getppid1_processes --help" ;;
	sweepargs_table.c) echo "$SB_BUILD/bin/sb-sweepargs --usage" ;;
	cmd_vmboot.c) echo "$SB_BUILD/bin/sb-vmboot usage" ;;
	cmd_*.c) b=${b#cmd_}; echo "$SB_BUILD/bin/sb-${b%.c} --help" ;;
	*) return 1 ;;
	esac
}

# row_names FILE: the long names of the option rows FILE declares (designated ".name =",
# or a row macro's first string)
row_names() {
	grep -oE "(\.name = |^[[:space:]]*[A-Z_]+\(('.'|0|NULL), |^[[:space:]]*[A-Z_]+\(|^[[:space:]]*\{ ('.'|0), )\"[a-z][a-z0-9-]*\"" "$1" |
		grep -oE '"[a-z][a-z0-9-]*"' | tr -d '"' | LC_ALL=C sort -u
}

# No hand parser: in a file that sees argv, an option word is compared only by cli/ (a table's
# row); "-" (standard input) and "--" (the end of options) are words, not options.
check_no_hand_parser() {
	local hits
	hits=$(c_files | xargs grep -l argv | xargs grep -nE 'str(n)?cmp\([^;]*"-[-a-zA-Z0-9]' /dev/null |
		grep -vE '"--?"' || true)
	is "$hits" "" "no C tool compares an argument with an option's name by hand (cli/ tables only)"
	hits=$(c_files | xargs grep -nE '\bgetopt(_long)?[[:space:]]*\(' /dev/null || true)
	is "$hits" "" "no C tool calls getopt itself (cli/ does)"
	# the check itself finds a chain like the old ones
	printf 'if (strcmp(argv[i], "--partial") == 0)\n' >"$T/hand.c"
	grep -qE 'str(n)?cmp\([^;]*"-[-a-zA-Z0-9]' "$T/hand.c"
	ok $? "...and it would find one (a strcmp against \"--partial\")"
}

# Each file with an option table: its --help names every row.
check_help_lists_rows() {
	local f cmd out name missing nfiles=0
	while IFS= read -r f; do
		grep -qE 'struct sb_cli_opt [a-z_]+\[\] =' "$f" || continue
		nfiles=$((nfiles + 1))
		if ! cmd=$(help_of "$f"); then
			ok 1 "$f: a table, but no --help known for it (add it to help_of)"
			continue
		fi
		out=$($cmd 2>&1) || true
		missing=
		for name in $(row_names "$f"); do
			grep -qE -- "--$name\b" <<<"$out" || missing="$missing --$name"
		done
		is "$missing" "" "$f: '$cmd' lists every option of its table"
	done < <(c_files)
	[ "$nfiles" -ge 10 ]
	ok $? "the tables found: $nfiles files (every C tool's)"
}

main() {
	need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/sb-sweepargs" "$SB_BUILD/bin/sb-vmboot" \
		"$SB_BUILD/bin/sb-workdir" "$SB_BUILD/bin/sb-machine" "$SB_BUILD/bin/sb-history" "$SB_BUILD/bin/sb-bisect" \
		"$SB_BUILD/bin/sb-plan" "$SB_BUILD/bin/sb-rundir" "$SB_BUILD/bin/sb-profile" "$SB_BUILD/bin/sb-compare"
	check_no_hand_parser
	check_help_lists_rows
	done_testing
}

main
