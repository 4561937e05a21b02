#!/usr/bin/env bash
# The writers that rename a temporary file into place (sb-summary -o, sb-profile's files) replace only a
# regular file or nothing: a symlink, a FIFO or a directory at the path is refused (exit 2, named), untouched; so is an empty name. --help and --version onto a full disk: exit 3.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$B/bin/sb-summary P=$B/bin/sb-profile
D=selftest/data/runtest
PD=selftest/data/profile

# kind PATH: what is at PATH (lstat), as find names it
kind() { find "$1" -maxdepth 0 -printf '%y\n' 2>/dev/null || echo none; }

echo keep >"$tmp/target"
ln -s "$tmp/target" "$tmp/link"
ln -s "$tmp/nowhere" "$tmp/dangling"
mkfifo "$tmp/fifo"
mkdir "$tmp/dir"
for p in link dangling fifo dir; do
	was=$(kind "$tmp/$p")
	run "$S" -o "$tmp/$p" "$D/samples.csv"
	is "$rc" 2 "sb-summary -o a $p: exit 2"
	like "$err" "^sb-summary: $tmp/$p: (a|an) [A-Za-z ]+, not a regular file: not replaced" "sb-summary -o a $p: named, and why"
	is "$(kind "$tmp/$p")" "$was" "sb-summary -o a $p: still there as it was"
	is "$(find "$tmp" -name '*.tmp*' | wc -l | tr -d ' ')" 0 "sb-summary -o a $p: no temporary file left"
done
is "$(cat "$tmp/target")" keep "the symlink's target is untouched"
# A regular file is replaced (the -o contract), and a new path is created.
run "$S" -o "$tmp/target" "$D/samples.csv"
is "$rc:$(kind "$tmp/target")" "0:f" "sb-summary -o a regular file replaces it"
run "$S" -o "$tmp/new.csv" "$D/samples.csv"
is "$rc:$(kind "$tmp/new.csv")" "0:f" "sb-summary -o a new path creates it"

# sb-profile rate -o FILE and script -o DIR (its folded.txt, top.csv ...) follow the same rule.
run "$P" rate -o "$tmp/fifo" "$PD/results/pipe1/base-20260101T000000/summary.csv" \
	"$PD/results/pipe1/base-20260101T000000/summary.csv" processes 1
is "$rc:$(kind "$tmp/fifo")" "2:p" "sb-profile rate -o a FIFO: exit 2, the FIFO stays"
like "$err" "^sb-profile: $tmp/fifo: a FIFO, not a regular file: not replaced" "sb-profile rate: named"
mkdir "$tmp/prof"
ln -s "$tmp/target" "$tmp/prof/folded.txt"
run "$P" script -o "$tmp/prof" "$PD/script.txt"
is "$rc:$(kind "$tmp/prof/folded.txt")" "2:l" "sb-profile script: a symlink as DIR/folded.txt is refused and stays"
like "$err" "folded.txt: a symbolic link, not a regular file: not replaced" "sb-profile script: named"
# An empty name: the rename's ENOENT said it, exit 3 ("cannot rename .tmp.X to ")
run "$S" -o '' "$D/samples.csv"
is "$rc:$err" "2:sb-summary: the output file's name is empty" "sb-summary -o '': exit 2, named"
run "$P" rate -o '' "$PD/results/pipe1/base-20260101T000000/summary.csv" \
	"$PD/results/pipe1/base-20260101T000000/summary.csv" processes 1
is "$rc:$err" "2:sb-profile: the output file's name is empty" "sb-profile rate -o '': exit 2, named"
# --help and --version onto a full disk: exit 0, the text lost (sb-compare and sb-rundir said it)
if [ -w /dev/full ]; then
	for t in sb-history sb-summary sb-bisect; do
		for a in --help --version; do
			rc=0
			"$B/bin/$t" "$a" >/dev/full 2>"$tmp/err" || rc=$?
			is "$rc:$(wc -l <"$tmp/err" | tr -d ' ')" "3:1" "$t $a onto a full disk: exit 3, one line"
		done
	done
else
	skip "no /dev/full"
fi
plan "$_n"
exit "$_failed"
