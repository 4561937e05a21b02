#!/usr/bin/env bash
# Bad input is exit 2 naming the option (--kernel with no file, --profile '', compare's --threshold 100), and an environment error's reason reaches the terminal (TMPDIR on a full disk).
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads" "$SB_BUILD/bin/sb-compare"
private_bins "$SB_BUILD/bin" getppid1
export SB_TESTS_DIR=$T/bin
FAST=(--points 1 --mode processes --duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet)

# ---- --kernel: a missing file or a directory is bad input (exit 2), said in one line ----
for k in "$T/no-such-bzImage" "$T"; do
	rc=0
	./runtest.sh getppid1 "${FAST[@]}" --kernel "$k" --dry-run --results "$T/r0" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "--kernel ${k##*/}: exit 2"
	is "$(wc -l <"$T/err" | tr -d ' ')" 1 "--kernel ${k##*/}: one line"
	like "$(cat "$T/err")" "^runtest\.sh: --kernel $k: (no such file|not a file)" "--kernel ${k##*/}: names the option and the file"
	rc=0
	vm/boot.sh --kernel "$k" --check >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "vm/boot.sh --kernel ${k##*/}: exit 2 too"
done

# ---- --profile '' is refused as --points '' is ----
for arg in "--profile=" "--profile ''"; do
	rc=0
	if [ "$arg" = --profile= ]; then set -- --profile=; else set -- --profile ''; fi
	./runtest.sh getppid1 "${FAST[@]}" "$@" --dry-run >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "$arg: exit 2"
	like "$(cat "$T/err")" "^runtest\.sh: --profile: empty list" "$arg: says so"
done

# ---- compare's --threshold: 100 or more would turn the gate off: refused, with the range ----
mkdir "$T/a" "$T/b"
for v in 100 150 1e9; do
	rc=0
	./compare.sh --threshold "$v" "$T/a" "$T/b" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "compare --threshold $v: exit 2"
	like "$(head -n 1 "$T/err")" "--threshold '$v'.*0 .*100" "compare --threshold $v: names it and the valid range"
done
rc=0
"$SB_BUILD/bin/sb-compare" --threshold 99.9 "$T/a" "$T/b" >"$T/out" 2>"$T/err" || rc=$?
unlike_threshold=$(grep -c -- '--threshold' "$T/err" || true)
is "$unlike_threshold" 0 "compare --threshold 99.9 is accepted (the error is about the missing runs)"

# ---- TMPDIR on a full disk: exit 3 and the reason on the terminal, not in a file there ----
M=$T/mnt
mkdir "$M"
if ! mount -t tmpfs -o size=256k tmpfs "$M" 2>"$T/mount.err"; then
	ok 0 "# SKIP cannot mount a small tmpfs to fill ($(tail -n 1 "$T/mount.err"))"
	ok 0 "# SKIP (no tmpfs)"
	ok 0 "# SKIP (no tmpfs)"
else
	trap 'umount "$M" 2>/dev/null; rm -rf -- "$T"' EXIT
	# (twice: a page given back by the first fill's end)
	dd if=/dev/zero of="$M/fill1" bs=4k 2>/dev/null || true
	dd if=/dev/zero of="$M/fill2" bs=4k 2>/dev/null || true
	rc=0
	TMPDIR=$M ./runtest.sh getppid1 "${FAST[@]}" --results "$T/r1" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 3 "TMPDIR full: exit 3"
	like "$(cat "$T/err")" "No space left on device" "TMPDIR full: the reason reaches stderr"
	like "$(tail -n 1 "$T/err")" "TMPDIR $M" "TMPDIR full: the line names TMPDIR"
	umount "$M"
fi

echo "1..$tap_n"
exit $((tap_failed > 0))
