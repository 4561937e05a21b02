#!/bin/bash
# Writes docs/TESTS.md from each tests/*.c header comment (and Reproduces block) and its built binary's --info;
# a will-it-scale testcase dropped in unchanged (no header of ours included) is listed from its description.
#
#   tests/gen_tests_md.sh [--tracked] [OUTPUT]      (default docs/TESTS.md; run `make` first)
#
# --tracked: only the testcases git tracks (the project's own), in a git checkout; every
# tests/*.c elsewhere. selftest/tests_md.t checks docs/TESTS.md so: a will-it-scale
# testcase a user drops into tests/ does not make `make check` fail.
# Builds nothing: the binaries come from $SB_BUILD (default build). Exit 2 on a
# malformed header comment or Reproduces block, 3 on a missing binary.
set -eu
export LC_ALL=C	# one sort order everywhere, or the file would differ between machines

tracked=0
if [ "${1-}" = --tracked ]; then tracked=1; shift; fi
out=${1:-}
case $out in
"") ;;
/*) ;;
*) out=$PWD/$out ;;
esac
cd "$(dirname "$0")/.."
out=${out:-docs/TESTS.md}
build=${SB_BUILD:-build}

die() {
	code=$1
	shift
	echo "gen_tests_md.sh: $*" >&2
	exit "$code"
}

# seed_block SRC NAME: the block after the header of a testcase that reproduces one of
# the experiments this project started from, from line 3 (a field goes on over lines ' *   more'):
#   /* Reproduces: <the experiment>
#    * Differs: <what is not as in the original>
#    * Run: ./runtest.sh NAME <options>
#    */
# Prints the three texts, one a line, in that order; nothing when line 3 starts
# no such block; exit 2 with "SRC:LINE: what is wrong" on stderr.
seed_block() {
	awk -v src="$1" -v name="$2" '
	BEGIN { want[1] = "Reproduces"; want[2] = "Differs"; want[3] = "Run" }
	function bad_at(ln, msg) { printf "%s:%d: %s\n", src, ln, msg >"/dev/stderr"; failed = 1; exit 2 }
	function bad(msg) { bad_at(NR, msg) }
	NR < 3 { next }
	NR == 3 && !/^\/\* Reproduces: / { exit 0 }
	/^ \*\/$/ { closed = 1; exit 0 }
	{
		line = $0
		if (NR == 3) sub(/^\/\* /, "", line)
		else if (!sub(/^ \* /, "", line)) bad("expected \" * \" or \" */\" in the Reproduces block")
		if (line ~ /^[A-Za-z]+: ./) {
			key = substr(line, 1, index(line, ":") - 1)
			if (n == 3 || key != want[n + 1])
				bad(n == 3 ? "expected \" */\" after Run:" : "expected " want[n + 1] ": here")
			val[++n] = substr(line, length(key) + 3)
			at[n] = NR
		} else if (line ~ /^  +[^ ]/) {
			sub(/^ +/, "", line)
			val[n] = val[n] " " line
		} else {
			bad("expected a field (" want[n < 3 ? n + 1 : 3] ": ...) or a continuation indented two more spaces")
		}
	}
	END {
		if (failed || n == 0) exit (failed ? 2 : 0)
		if (!closed) bad("the Reproduces block has no \" */\"")
		if (n < 3) bad("the Reproduces block needs Reproduces:, Differs: and Run:")
		if (val[3] != "./runtest.sh " name && index(val[3], "./runtest.sh " name " ") != 1)
			bad_at(at[3], "Run: must start with ./runtest.sh " name)
		for (i = 1; i <= 3; i++) print val[i]
	}' "$1"
}

# upstream SRC: 0 when SRC is a will-it-scale testcase dropped in unchanged: it includes
# no header of ours ("testcase.h", tests/*.h), only the system's. Such a file has no
# header comment to parse; a file of ours must have one.
upstream() {
	! grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1"
}
UPSTREAM_STRESSES='not stated (a will-it-scale testcase taken unchanged: its file has no header comment)'

# Table cells: a literal | would split the cell.
cell() {
	printf '%s' "${1//|/\\|}"
}

# LINUX_ONLY := a b c (backslash-continued lines joined)
linux_only=" $(awk '
	/^LINUX_ONLY[ \t]*:?=/ { on = 1; sub(/^LINUX_ONLY[ \t]*:?=[ \t]*/, "") }
	on { line = $0; more = sub(/\\$/, "", line); printf "%s ", line; if (!more) on = 0 }
' Makefile) "

tmp=$(mktemp -d)
dst_tmp=
trap 'rm -rf "$tmp" ${dst_tmp:+"$dst_tmp"}' EXIT
body=$tmp/body
index=$tmp/index
: >"$body"
: >"$index"

shopt -s nullglob
files=(tests/*.c)
# tracked_only: files[] cut to what git tracks, when this tree is a git checkout's top (a copy
# of the sources inside another repository's work tree is no checkout of ours)
tracked_only() {
	local f top kept=()
	local -A known=()
	command -v git >/dev/null 2>&1 || return 0
	top=$(git rev-parse --show-toplevel 2>/dev/null) || return 0
	[ "$top" = "$(pwd -P)" ] || return 0
	while IFS= read -r f; do known[$f]=1; done < <(git ls-files -- tests)
	for f in "${files[@]}"; do
		if [ -n "${known[$f]-}" ]; then kept+=("$f"); fi
	done
	files=("${kept[@]}")
}
if [ "$tracked" = 1 ]; then tracked_only; fi
[ ${#files[@]} -gt 0 ] || die 2 "no tests/*.c found"

for src in "${files[@]}"; do
	name=${src##*/} name=${name%.c}
	bin=$build/bin/${name}_processes
	[ -x "$bin" ] || bin=$build/bin/${name}_threads
	[ -x "$bin" ] || die 3 "$build/bin/${name}_processes not found: run make first (or set SB_BUILD)"
	"$bin" --info >"$tmp/info" 2>"$tmp/err" || die 3 "$bin --info failed: $(head -n 1 "$tmp/err")"
	# --info's lines read by bash (75 testcases: a sed or grep each was most of the time)
	desc='' modes='' params=()
	while IFS= read -r line; do
		case $line in
		description=*) desc=${line#description=} ;;
		modes=*) modes=${line#modes=} modes=${modes//,/, } ;;
		param=*) params+=("${line#param=}") ;;
		esac
	done <"$tmp/info"

	if upstream "$src"; then
		# will-it-scale's file as it is: its description says what it measures.
		measures=$desc stresses=$UPSTREAM_STRESSES seed=''
	else
		{ IFS= read -r line1 && IFS= read -r line2; } <"$src" || die 2 "$src: no two-line header"
		case $line1 in
		"/* $name: "?*) measures=${line1#"/* $name: "}; measures=${measures%.} ;;
		*) die 2 "$src:1: header must start with '/* $name: <what it measures>'" ;;
		esac
		case $line2 in
		" * Stresses: "?*". */") stresses=${line2#" * Stresses: "}; stresses=${stresses%". */"} ;;
		*) die 2 "$src:2: header must be ' * Stresses: <kernel path>. */'" ;;
		esac
		seed=$(seed_block "$src" "$name" 2>"$tmp/err") || die 2 "$(head -n 1 "$tmp/err")"
	fi
	[ -n "$modes" ] || die 3 "$bin --info printed no modes= line"
	case $linux_only in
	*" $name "*) linux=yes ;;
	*) linux=no ;;
	esac

	printf '| [%s](#%s) | %s | %s | %s |\n' "$name" "$name" "$(cell "$measures")" \
		"$modes" "$linux" >>"$index"
	{
		printf '\n## %s\n\n' "$name"
		printf -- '- Description: %s\n' "$desc"
		printf -- '- Measures: %s\n' "$measures"
		printf -- '- Stresses: %s\n' "$stresses"
		printf -- '- Modes: %s\n' "$modes"
		printf -- '- Linux only: %s\n' "$linux"
		printf -- '- Run: `./runtest.sh %s`\n' "$name"
		if [ -n "$seed" ]; then
			{ read -r reproduces; read -r differs; read -r seed_run; } <<EOF
$seed
EOF
			printf -- '- Reproduces: %s\n' "$reproduces"
			printf -- '- Differs from the original: %s\n' "$differs"
			printf -- '- Run as the original: `%s`\n' "$seed_run"
		fi
		if [ ${#params[@]} -gt 0 ]; then
			printf '\n| parameter | default | values | meaning |\n|---|---|---|---|\n'
			# Tabs to \037: IFS whitespace would merge the empty default of `dir` away.
			for p in "${params[@]}"; do
				IFS=$'\037' read -r pname pdef pkind phelp <<<"${p//$'\t'/$'\037'}"
				[ -n "$pdef" ] || pdef='(empty)'
				printf '| %s | %s | %s | %s |\n' "$pname" "$(cell "$pdef")" \
					"$(cell "$pkind")" "$(cell "$phelp")"
			done
		else
			printf -- '- Parameters: none\n'
		fi
	} >>"$body"
done

{
	printf '# Testcases\n\n'
	printf 'Generated by `tests/gen_tests_md.sh` from the header comment of each\n'
	printf '`tests/<name>.c` and the `--info` of its binary; do not edit by hand.\n'
	printf 'After adding or changing a testcase: `make && tests/gen_tests_md.sh`.\n\n'
	printf 'Set a parameter with `--param name=value` (testcase binary or `./runtest.sh`).\n'
	printf 'Testcases that make files take `dir`, the filesystem under test.\n\n'
	printf '| testcase | measures | modes | Linux only |\n|---|---|---|---|\n'
	cat "$index"
	cat "$body"
} >"$tmp/out"

# Same directory, then rename: never a half-written file.
mkdir -p "$(dirname "$out")"
dst_tmp=$(mktemp "$(dirname "$out")/.TESTS.md.XXXXXX")
cp "$tmp/out" "$dst_tmp"
chmod 644 "$dst_tmp"
mv -f "$dst_tmp" "$out"
dst_tmp=
