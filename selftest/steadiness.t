#!/usr/bin/env bash
# The machine's steadiness (issue 46 item 9): sb-machine reference's output and its bounds, --check-system's
# words, meta's reference_start and reference_end after a tiny sweep, compare's note when two sweeps' readings differ.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s BUILD="$B" "$B/bin/sb-machine" "$B/bin/sb-compare" "$B/selftest/paced_processes" "$B/selftest/paced_threads" \
	>"$tmp/make.log" 2>&1 || { echo "Bail out! make failed: $(tail -n 3 "$tmp/make.log" | tr '\n' ' ')"; exit 1; }
M=$B/bin/sb-machine
LINE='loop=1 rate=[1-9][0-9]* span=[0-9]+\.[0-9]{2} sd=[0-9]+\.[0-9]{2} slices=10 slice_ms=10'

# ---- the reading: its two lines, its slices, and the summary they give ----
run "$M" reference --ms 100 --series
is "$rc" 0 "reference: exit 0"
like "$(sed -n '$p' <<<"$out")" "^as meta's reference_start and reference_end record it: $LINE\$" "the last line is meta's form"
like "$(grep -v '^[#0-9]' <<<"$out" | head -n 1)" \
	'^(steady|unsteady): the reference loop.s 10 ms rates span [0-9]+\.[0-9]% within 0\.[0-9] s \(sd [0-9]+\.[0-9]%, median [0-9.]+[KMG]? iterations/s, 10 slices\)' \
	"the words: steady or unsteady, the slices' length, span, time, sd and median"
is "$(grep -c '^[0-9]' <<<"$out")" 10 "--series: one row a slice"
# each slice lasts at least its 10 ms (the loop stops at the first chunk past it), so the ends rise by >= 0.010 s (printed to the ms)
is "$(awk -F'\t' '/^[0-9]/ { if ($2 < prev + 0.0095 || $3 <= 0) bad++; prev = $2 } END { print bad + 0 }' <<<"$out")" 0 \
	"the slices' ends rise by at least a slice, each rate above 0"
# the line's rate is the slices' median and its span their (max - min) / median, from the rows printed
read -r rate span <<<"$(sed -n '$s/.* rate=\([0-9]*\) span=\([0-9.]*\) .*/\1 \2/p' <<<"$out")"
is "$(awk -F'\t' '/^[0-9]/ { print $3 }' <<<"$out" | sort -g | awk -v rate="$rate" -v span="$span" '{ v[++n] = $1 }
	END { med = (v[5] + v[6]) / 2; s = 100 * (v[10] - v[1]) / med
	      print (med - rate < 2 && rate - med < 2 && s - span < 0.01 && span - s < 0.01) ? "agree" : med " " s }')" \
	agree "rate and span are the median and relative range of the rows"
run "$M" reference --ms 50 --slices 5 --short
like "$rc:$out" '^0:loop=1 rate=[1-9][0-9]* span=[0-9.]+ sd=[0-9.]+ slices=5 slice_ms=10$' "--short: meta's line alone"
for a in "--ms 5" "--slices 0" "--ms 100 --slices 10001" "--ms" "--every 2"; do
	# shellcheck disable=SC2086  # the words of a
	run "$M" reference $a
	like "$rc:$(wc -l <<<"$err"):$out" "^2:[12]:\$" "reference $a: exit 2, a line naming it (and the --help hint), nothing on stdout"
done

# ---- --check-system: the steadiness in words, after the items ----
run env SB_MACHINE_STEADY_MS=100 ./runtest.sh --check-system
is "$rc" 0 "--check-system: exit 0"
like "$out" $'\nHow steady this machine runs: a fixed user-space CPU loop \\(no system call while timed\\),\n  0\\.1 s in 10 slices' \
	"--check-system says how long the loop ran, after the check's items"
like "$out" $'\n  (steady|unsteady): the reference loop.s 10 ms rates span' "and steady or unsteady in words"
run env SB_MACHINE_STEADY_MS=0 ./runtest.sh --check-system
unlike "$out" 'How steady' "SB_MACHINE_STEADY_MS=0: no loop"
run env SB_MACHINE_STEADY_MS=1e3 ./runtest.sh --check-system
like "$rc:$err" "^2:runtest\.sh: SB_MACHINE_STEADY_MS: '1e3' is not a whole number of milliseconds" "a bad SB_MACHINE_STEADY_MS: exit 2 naming it"
run env SB_MACHINE_STEADY_MS=9 ./runtest.sh --check-system
like "$rc:$err" "^2:runtest\.sh: SB_MACHINE_STEADY_MS: 9 ms is not 0 \(none\) or 10 to 60000" "under 1 ms a slice: exit 2 naming it"

# ---- a tiny sweep: meta's reference_start and reference_end ----
export SB_TESTS_DIR=$B/selftest
SWEEP=(paced --points 1 --mode processes --duration 0.1 --warmup 0 --period-ms 100 --repeat 1 --quiet --results "$tmp/r")
run env SB_MACHINE_REFERENCE_MS=100 ./runtest.sh "${SWEEP[@]}"
is "$rc" 0 "a tiny sweep with the reference loop: exit 0"
is "$(grep -Ec "^reference_(start|end)=$LINE\$" "$out/meta")" 2 "meta holds the reading before the first run and after the last"
run env SB_MACHINE_REFERENCE_MS=0 ./runtest.sh "${SWEEP[@]}"
is "$(grep -E '^reference_' "$out/meta" | tr '\n' ' ')" "reference_start= reference_end= " "SB_MACHINE_REFERENCE_MS=0: the keys empty"
n=$(ls "$tmp/r/paced" | wc -l)
for v in abc 5 60001; do
	run env SB_MACHINE_REFERENCE_MS=$v ./runtest.sh "${SWEEP[@]}"
	like "$rc:$(wc -l <<<"$err"):$err" "^2:1:runtest\.sh: SB_MACHINE_REFERENCE_MS: " "SB_MACHINE_REFERENCE_MS=$v: exit 2, one line naming it"
done
is "$(ls "$tmp/r/paced" | wc -l)" "$n" "and no run directory made"

# ---- compare: a note when the two sweeps' readings differ by more than the loop's own repeatability ----
F=selftest/data/compare/results/unix1
# side NAME FROM READINGS...: a copy of fixture run FROM with meta lines READINGS appended
side() {
	local name=$1 from=$2
	shift 2
	mkdir -p "$tmp/c/$name"
	cp "$F/$from/samples.csv" "$tmp/c/$name/"
	{ cat "$F/$from/meta"; printf '%s\n' "run_id=$name" "$@"; } >"$tmp/c/$name/meta"
}
ref() { printf 'reference_%s=loop=%s rate=%s span=%s sd=0.50 slices=10 slice_ms=30' "$@"; }
side base base-20260101T000000 "$(ref start 1 900000000 2.00)" "$(ref end 1 905000000 1.50)"
side slow new-20260102T000000 "$(ref start 1 700000000 3.00)" "$(ref end 1 710000000 2.00)"
side near new-20260102T000000 "$(ref start 1 880000000 3.00)"	# 2.6% apart, within its own 3% span
side drifted new-20260102T000000 "$(ref start 1 880000000 1.00)" "$(ref end 1 940000000 1.00)"	# 4% level, 6.8% within
side other new-20260102T000000 "$(ref start 2 700000000 1.00)"	# another loop
side none new-20260102T000000
side base2 base-20260101T000000 "$(ref start 1 880000000 1.00)" "$(ref end 1 890000000 1.00)"
side slow2 new-20260102T000000 "$(ref start 1 690000000 1.00)" "$(ref end 1 700000000 1.00)"
side bad new-20260102T000000 "reference_start=loop=1 rate=fast span=1 sd=1" "reference_end="
NOTE='Note: the reference loop ran ([0-9.]+)% (slower|faster) during new.s sweep than during base.s'
run ./compare.sh "$tmp/c/base" "$tmp/c/slow"
is "$rc" 1 "readings apart: compared as ever (exit 1: the planted regression)"
like "$out" "${NOTE} \\(705M and 902M iterations/s\\), more than it varied within either sweep \\(at most 3\\.0%\\)" \
	"the note: how far apart (the geometric means of each sweep's readings), which way, and the loop's own variation"
like "$(grep -Eo "$NOTE" <<<"$out")" '28\.0% slower' "28.0%: sqrt(900M x 905M) / sqrt(700M x 710M) - 1"
is "$(grep -c '^Note: the reference loop' <<<"$out")" 1 "one note"
run ./compare.sh --format markdown "$tmp/c/base" "$tmp/c/slow"
like "$out" '> \*\*Note:\*\* the reference loop ran 28\.0% slower' "markdown notes it too"
run ./compare.sh "$tmp/c/slow" "$tmp/c/base"
like "$out" 'ran 28\.0% faster during base.s sweep than during new.s' "the other way round: faster"
run ./compare.sh "$tmp/c/base" --vs "$tmp/c/slow"
like "$out" 'Note: the reference loop ran 28\.0% slower during new.s 1 sweep than during base.s 1 \(705M and 902M iterations/s\), more than it varied within either side, in a sweep or between two \(at most 3\.0%\)' \
	"--vs: the note from each sweep's own readings (a pooled side's meta is its first sweep's)"
run ./compare.sh "$tmp/c/base" "$tmp/c/base2" --vs "$tmp/c/slow" "$tmp/c/slow2"
like "$out" 'Note: the reference loop ran 27\.[0-9]% slower during new.s 2 sweeps than during base.s 2 \(700M and 894M iterations/s\), .*\(at most 3\.0%\)' \
	"--vs, two sweeps a side: the geometric means of the sweeps' levels"
run ./compare.sh "$tmp/c/base" "$tmp/c/base2" --vs "$tmp/c/slow" "$tmp/c/near"
unlike "$rc:$out" '^2:|reference loop ran' "--vs: no note when a side's own sweeps differ by more (25% between new's)"
run ./compare.sh "$tmp/c/base" --vs "$tmp/c/slow" "$tmp/c/none" --force
unlike "$rc:$out" '^2:|reference loop ran' "--vs: no note when a sweep of a side has no reading"
for s in near drifted other none bad; do
	run ./compare.sh "$tmp/c/base" "$tmp/c/$s"
	unlike "$rc:$out" '^2:|reference loop ran' "no note: $s (within the loop's own variation, another loop, no reading, unreadable)"
done

plan "$_n"
exit "$_failed"
