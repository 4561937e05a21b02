#!/usr/bin/env bash
# analysis_callgraph.t: compute, then print: analysis/'s file-level call graph has no circle, printers reference the built model only, compare's walk seldom returns to a file it left.
# sb-san: skip: which objects reference which: nm and objdump over the build, no C run
#
# The graph. An edge A -> B joins two objects of analysis/ (the files of
# libsbanalysis.a, named folder/file.o) when A references a global symbol B
# defines: `nm -u A` against `nm --defined-only B`. It must have no circle
# (tsort).
#
# The printers: compare's report files (compare_report, compare_report_curves,
# compare_verdict, compare_cells), history's printers (show_print,
# changes_print, drift_print) and fmt/. A printer may reference another
# printer, fmt/ and msg/ only: no symbol of stat/, curve/, io/, rundir/ (the
# run directory's loader), export/ (the exports' and plot records' models),
# nor of compare's or history's computing files (every other file of those
# folders). They print the model the computing files built before.
#
# The walk (issue 48's "returns to a file it left"). A function-level graph is
# read from the objects' code (objdump -dr: a function's calls, and the
# symbols its relocations name), and each file's static functions are folded
# into the global functions that reach them, so the graph does not depend on
# what the compiler inlined. A depth-first walk from sb_compare_runs visits
# each global function once, its callees in the order its code references
# them, and follows the calls of compare/'s functions only (another folder's
# function is visited, and its own calls are its folder's business). The
# walk's files, in visiting order, make "stays" (consecutive visits to one
# file); a stay in a file the walk has already stayed in is a return to a
# file it left. compare's walk must return at most 20 times (63 before issue
# 48, by the issue's count of the source; 21 by this one).
#
# Sizes: no C file of compare/, history/, fmt/, export/ or cmd_compare.c over 700 lines,
# no function there over 80 (docs/ARCHITECTURE.md "Sizes").
. "$(dirname "$0")/lib.sh"
O=$B/obj/analysis
if [ ! -f "$O/compare/compare_runs.o" ]; then
	echo "1..0 # skip no build ($O: run make)"
	exit 0
fi
for tool in nm objdump tsort join; do
	command -v "$tool" >/dev/null 2>&1 || { echo "1..0 # skip $tool missing"; exit 0; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

PRINTERS='compare/compare_report.o compare/compare_report_curves.o compare/compare_verdict.o compare/compare_cells.o
history/show_print.o history/changes_print.o history/drift_print.o'

# objects: analysis/'s objects (folder/file.o) whose source is in the tree (a stale one of a removed file is not)
objects() {
	local o
	(cd "$O" && find . -mindepth 2 -name '*.o' | sed 's|^\./||' | LC_ALL=C sort) | while read -r o; do
		[ -f "analysis/${o%.o}.c" ] && echo "$o"
	done
	return 0
}

# symbols: "object type symbol" lines of every object, one nm for all
symbols() {
	objects >"$T/objects"
	(cd "$O" && xargs nm -A <"$T/objects") |
		awk '{ split($1, a, ":"); if (NF == 2) print a[1], "U", $2; else print a[1], $2, $3 }'
}

# edges: "user used symbol" lines, one per global symbol one object references and another defines
edges() {
	awk '$2 ~ /^[TDBRCVW]$/ { print $3, $1 }' "$T/syms" | LC_ALL=C sort >"$T/defs"
	awk '$2 == "U" { print $3, $1 }' "$T/syms" | LC_ALL=C sort >"$T/uses"
	LC_ALL=C join "$T/uses" "$T/defs" | awk '$2 != $3 { print $2, $3, $1 }' | LC_ALL=C sort -u
}

# bad_refs EDGES [fmt]: "printer target symbol" lines a printer must not have (fmt: fmt/'s, else the others')
bad_refs() {
	awk -v printers="$PRINTERS" -v want="${2:-}" '
	BEGIN { n = split(printers, p, /[ \n]+/); for (i = 1; i <= n; i++) pr[p[i]] = 1 }
	function printer(o) { return (o in pr) || o ~ /^fmt\// }
	{
		if (!printer($1) || (want == "fmt") != ($1 ~ /^fmt\//)) next
		if (!printer($2) && $2 ~ /^(stat|curve|io|rundir|compare|history|export)\//) print
	}' "$1"
}

# functions: "file function callee_file callee" lines: the calls and relocations of each function's code
functions() {
	awk '$2 ~ /^[TtDdBbRr]$/ { print $1, $3, ($2 ~ /[TDBR]/) ? "g" : "l" }' "$T/syms" >"$T/fdefs"
	(cd "$O" && xargs objdump -dr --no-show-raw-insn <"$T/objects") | awk '
		/^[^ \t]+\.o:[ \t]+file format/ { o = $1; sub(/:$/, "", o); fn = ""; next }
		/^[0-9a-f]+ <[^>]+>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
		fn == "" { next }
		/R_X86_64_[A-Z0-9]+[ \t]|R_AARCH64_[A-Z0-9_]+[ \t]/ { s = $NF; sub(/[-+]0x[0-9a-f]+$/, "", s); if (s !~ /^\./) print o, fn, s; next }
		/\t(call|jmp|bl|b)[ \t]+[0-9a-f]+ <[^+>]+>$/ { s = $NF; gsub(/[<>]/, "", s); if (s != fn) print o, fn, s }' >"$T/frefs"
	awk 'FILENAME == ARGV[1] { if ($3 == "g") g[$2] = $1; loc[$1 SUBSEP $2] = 1; next }
		{ if (($1 SUBSEP $3) in loc) print $1, $2, $1, $3; else if ($3 in g) print $1, $2, g[$3], $3 }' \
		"$T/fdefs" "$T/frefs"
}

# walk FGRAPH FDEFS START: the walk above; prints "stays files returns", then each stay ("file function...")
walk() {
	awk -v start="$3" '
	function file(n) { return substr(n, 1, index(n, " ") - 1) }
	# fold(g, n): the global callees of n (g itself or a static of its file) into gc[g, ...], in order
	function fold(g, n,    i, c) {
		for (i = 0; i < ncalls[n]; i++) {
			c = calls[n, i]
			if (c in glob) {
				if (c != g && !((g, c) in have)) { have[g, c] = 1; gc[g, ngc[g]++] = c }
			} else if (file(c) == file(n) && !((g, c) in seen)) {
				seen[g, c] = 1
				fold(g, c)
			}
		}
	}
	function visit(n,    i, c) {
		visited[n] = 1
		trail[ntrail++] = n
		if (!(n in folded)) { folded[n] = 1; fold(n, n) }
		if (file(n) !~ /^compare\//)
			return
		for (i = 0; i < ngc[n]; i++) {
			c = gc[n, i]
			if (!(c in visited))
				visit(c)
		}
	}
	FILENAME == ARGV[1] { if ($3 == "g") glob[$1 " " $2] = 1; if ($3 == "g" && $2 == start) s = $1 " " $2; next }
	{
		a = $1 " " $2; b = $3 " " $4
		if (!((a, b) in edge)) { edge[a, b] = 1; calls[a, ncalls[a]++] = b }
	}
	END {
		if (s == "") { print "0 0 0"; exit }
		visit(s)
		for (i = 0; i < ntrail; i++) {
			f = file(trail[i]); fn = substr(trail[i], length(f) + 2)
			if (f != prev) {
				nstay++
				if (f in stayed) ret++
				else nfiles++
				stayed[f] = 1
				line[nstay] = f
			}
			line[nstay] = line[nstay] " " fn
			prev = f
		}
		print nstay, nfiles, ret + 0
		for (i = 1; i <= nstay; i++) print "#   " line[i]
	}' "$2" "$1"
}

main() {
	local e=$T/edges n circle bad fmtbad w ret c rc
	symbols >"$T/syms"
	edges >"$e"
	n=$(wc -l <"$e")
	[ "$n" -gt 50 ]
	ok $? "analysis/'s objects reference each other ($n references)"

	rc=0
	awk '{ print $1, $2 }' "$e" | tsort >/dev/null 2>"$T/tsort.err" || rc=$?
	circle=$(grep -v 'input contains a loop' "$T/tsort.err" | sed 's/^tsort: //' | tr '\n' ' ')
	is "$rc:$circle" "0:" "analysis/: no file calls into one that calls back (no circle; tsort)"

	bad=$(bad_refs "$e")
	is "$bad" "" "compare's and history's printers reference the model, fmt/ and msg/ only (no stat/, curve/, io/, rundir/ or computing file)"
	bad=
	for c in $PRINTERS; do
		[ -f "$O/$c" ] || bad="$bad $c"
	done
	is "$bad" "" "every printer named here is built"

	# fmt/: what people read, from a model export/ (or compare/, history/) built before
	fmtbad=$(bad_refs "$e" fmt)
	is "$fmtbad" "" "fmt/ references the model only (no stat/, curve/, io/, rundir/, export/ or computing file)"

	# the same check finds a printer that computes: compare_report.o given a reference into curve/
	printf '%s\n' "compare/compare_report.o curve/curve.o sb_curve_of_run" >"$T/planted"
	like "$(bad_refs "$T/planted")" 'compare_report.o curve/curve.o' "a printer that reaches curve/ is found"
	# and a fmt/ file that loads or computes: kcidb.o given references into rundir/, io/, stat/, curve/, export/
	printf '%s\n' "fmt/kcidb.o rundir/rundir.o sb_run_load" "fmt/kcidb.o io/samples.o sb_mode_name" \
		"fmt/kcidb.o stat/stats.o sb_stats_compute" "fmt/kcidb.o curve/curve.o sb_curve_of_run" \
		"fmt/kcidb.o export/ci_run.o sb_ci_load_all" "fmt/kcidb.o fmt/export.o sb_json_str" \
		"fmt/kcidb.o msg/msg.o sb_die" >"$T/planted"
	is "$(bad_refs "$T/planted" fmt | awk '{ print $2 }' | tr '\n' ' ')" \
		"rundir/rundir.o io/samples.o stat/stats.o curve/curve.o export/ci_run.o " \
		"a fmt/ file that reaches rundir/, io/, stat/, curve/ or export/ is found (fmt/ and msg/ are not)"

	functions >"$T/fgraph"
	w=$(walk "$T/fgraph" "$T/fdefs" sb_compare_runs)
	read -r n c ret <<<"$(head -n 1 <<<"$w")"
	[ "$n" -gt 5 ] && [ "$c" -gt 5 ]
	ok $? "compare's walk from sb_compare_runs reaches its files ($n stays in $c files)"
	[ "$ret" -le 20 ]
	ok $? "compare's walk returns to a file it left at most 20 times ($ret)"
	[ "$ret" -le 20 ] || tail -n +2 <<<"$w"
	[ -z "${SB_CALLGRAPH_WALK:-}" ] || tail -n +2 <<<"$w"	# the walk, stay by stay

	bad=$(wc -l analysis/cmd_compare.c analysis/compare/*.c analysis/history/*.c analysis/fmt/*.c analysis/export/*.c |
		awk '$2 != "total" && $1 > 700 { print $2 ": " $1 }')
	is "$bad" "" "no C file of compare/, history/, fmt/, export/ or cmd_compare.c over 700 lines"
	bad=$(awk 'FNR == 1 { f = 0 } /^[a-z].*\(/ && !/;$/ { n = $0; s = FNR; f = 1 }
		f && /^}/ { if (FNR - s > 80) print FILENAME ": " FNR - s ": " n; f = 0 }' \
		analysis/cmd_compare.c analysis/compare/*.c analysis/history/*.c analysis/fmt/*.c analysis/export/*.c)
	is "$bad" "" "no function there over 80 lines"
	plan "$_n"
	exit "$_failed"
}

main "$@"
