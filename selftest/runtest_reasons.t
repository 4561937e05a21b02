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
	for i in 1 2 3 4 5 6; do ok 0 "# SKIP (no tmpfs)"; done
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
	# nearly full: room for a page, not for the sweep's working files (it used to fail later, with
	# bash's own write errors and exit 1, or sb-plan's whole output as its message)
	for free in 12 24; do
		rm -f -- "$M/fill1" "$M/fill2"
		dd if=/dev/zero of="$M/fill1" bs=4k count=$(((256 - free) / 4)) 2>/dev/null || true
		rc=0
		TMPDIR=$M ./runtest.sh getppid1 "${FAST[@]}" --results "$T/r1" >"$T/out" 2>"$T/err" || rc=$?
		is "$rc:$(cat "$T/err")" \
			"3:runtest.sh: TMPDIR $M has no room for runtest.sh's working files: No space left on device" \
			"TMPDIR with $free KB free: exit 3, the TMPDIR line alone"
	done
	# room for the working files, not for a long run's samples (built there, and a run's rows twice)
	rm -f -- "$M/fill1"
	rc=0
	TMPDIR=$M ./runtest.sh getppid1 --points 1 --mode processes --duration 2 --period-ms 1 --warmup 0 --repeat 1 \
		--quiet --no-history --results "$T/r1" >"$T/out" 2>"$T/err" || rc=$?
	like "$rc:$(cat "$T/err")" "^3:runtest\.sh: TMPDIR $M has [0-9]+ KB free; runtest\.sh's working files need about [0-9]+ KB\$" \
		"TMPDIR with less room than 2000 samples' rows: exit 3 before anything runs"
	is "$(ls -A "$M")" "" "and nothing left in TMPDIR"
	umount "$M"
fi

echo "1..$tap_n"
exit $((tap_failed > 0))
