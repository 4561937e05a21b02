#!/usr/bin/env bash
# LeakSanitizer over each C tool's main paths: the sanitizer pass runs every other file with detect_leaks=0.
#
# Why: LeakSanitizer stops the process at its exit to scan its memory, 35-40 ms
# an exec of a sanitized tool on a 2-CPU VM (sb-summary --version: 57 ms with
# it, 22 ms without), and the sanitizer pass starts thousands of them. So make
# check SAN=address,... sets detect_leaks=0, and this file turns it back on for
# one pass over what each tool does: a sweep through runtest.sh (the runner,
# sb-topology, sb-plan, sb-rundir, sb-summary, sb-machine), the summary's
# views, compare's formats and refusals, the history's add, show and changes,
# and the usage errors. In the plain pass there is no sanitizer: skipped.
. "$(dirname "$0")/lib.sh"
case ${SB_SAN-} in
*address*) ;;
*) echo "1..0 # SKIP the sanitizer pass's file (make check SAN=address,undefined)"; exit 0 ;;
esac
d=$(mktemp -d)
trap 'rm -rf -- "$d"' EXIT
export ASAN_OPTIONS=handle_segv=0:detect_leaks=1
# LeakSanitizer needs to stop the process's threads (ptrace); some containers forbid it
if ! "$B/bin/sb-summary" --version >/dev/null 2>"$d/probe.err"; then
	echo "1..0 # SKIP LeakSanitizer does not run here: $(head -n 1 "$d/probe.err")"
	exit 0
fi
unset HWLOC_SYNTHETIC HWLOC_XMLFILE HWLOC_THISSYSTEM

# the detector is on: a planted leak, built the same way, is reported
printf '#include <stdlib.h>\nint main(void) { void *p = malloc(10); p = 0; return p != 0; }\n' >"$d/leak.c"
if ${CC:-cc} -fsanitize=address -O0 -o "$d/leak" "$d/leak.c" 2>/dev/null; then
	run "$d/leak"
	ok "$([ "$rc" != 0 ]; echo $?)" "a planted leak fails its program (exit $rc)"
	like "$err" 'LeakSanitizer: detected memory leaks' "a planted leak is reported (the checks below can fail)"
else
	skip "no ${CC:-cc} with -fsanitize=address to plant a leak"
fi

# no_leak NAME WANT_RC CMD...: CMD exits WANT_RC and LeakSanitizer reports nothing
no_leak() {
	local name=$1 want=$2
	shift 2
	run "$@"
	is "$rc" "$want" "$name: exit $want${err:+ ($(printf '%s' "$err" | grep -m 1 -i 'sanitizer\|error' || true))}"
	unlike "$err" 'LeakSanitizer|detected memory leaks' "$name: no leak"
}

# a sweep: every tool runtest.sh starts, each one's exit checked by LeakSanitizer
no_leak "runtest.sh sweep" 0 env SB_HISTORY="$d/h.db" ./runtest.sh getppid1 --points 1,2 --repeat 2 \
	--duration 0.2 --warmup 0 --period-ms 100 --quiet --results "$d/r"
run_dir=$(printf '%s\n' "$out" | head -n 1)
no_leak "runtest.sh --dry-run" 0 ./runtest.sh getppid1 --max-procs 4 --dry-run --results "$d/r"
no_leak "the runner's usage error" 2 "$B/bin/getppid1_threads" -t 0

# the summary's views
S=$B/bin/sb-summary
no_leak "sb-summary" 0 "$S" "$run_dir/samples.csv"
no_leak "sb-summary --table" 0 "$S" --table "$run_dir"
no_leak "sb-summary --point" 0 "$S" --point processes:2 "$run_dir"
no_leak "sb-summary --format plot" 0 "$S" --format plot "$run_dir"
no_leak "sb-summary --format gab" 0 "$S" --format gab "$run_dir"
no_leak "sb-summary on a missing file" 2 "$S" "$d/none.csv"

# compare: the fixtures' planted regression in every format, and a refusal
R=selftest/data/compare/results/unix1
C=$B/bin/sb-compare
no_leak "sb-compare" 1 "$C" "$R/base-20260101T000000" "$R/new-20260102T000000"
for f in markdown csv gab; do
	no_leak "sb-compare --format $f" 1 "$C" --format "$f" "$R/base-20260101T000000" "$R/new-20260102T000000"
done
no_leak "sb-compare: a run against itself (refused)" 2 "$C" "$R/base-20260101T000000" "$R/base-20260101T000000"
no_leak "sb-compare: a missing run" 2 "$C" "$R/base-20260101T000000" "$d/none"

# the history the sweep went into
H=$B/bin/sb-history
no_leak "sb-history list" 0 "$H" list --db "$d/h.db"
no_leak "sb-history show" 0 "$H" show getppid1 --db "$d/h.db"
no_leak "sb-history changes" 0 "$H" changes --db "$d/h.db"
no_leak "sb-history rebuild" 0 "$H" rebuild --results "$d/r" --db "$d/h2.db"
no_leak "sb-history: an unknown command" 2 "$H" frobnicate
no_leak "sb-history drift" 0 "$H" drift --db "$d/h.db"
# compare learning the drift from that history (its testbed's sweeps), and show's column pairs
no_leak "sb-compare: the drift from a history" 1 "$C" --history "$d/h.db" "$R/base-20260101T000000" "$R/new-20260102T000000"
no_leak "sb-compare --vs: pools" 0 "$C" --drift 3 "$R/base-20260101T000000" --vs "$R/new-20260102T000000"

# the run directory's keys, the machine check
no_leak "sb-rundir keys" 0 "$B/bin/sb-rundir" keys
no_leak "sb-machine check" 0 "$B/bin/sb-machine" check --probe-ms 10
no_leak "sb-machine reference" 0 "$B/bin/sb-machine" reference --ms 20 --series
no_leak "sb-topology" 0 "$B/bin/sb-topology"
no_leak "sb-rundir facts" 0 "$B/bin/sb-rundir" facts $$
# runtest.sh's and vm/boot.sh's option tables and helpers
no_leak "sb-sweepargs" 0 "$B/bin/sb-sweepargs" -- t --points 4,1,2 --param a=1 --stall-timeout 3 --kernel "$0" --kernel "$0" --vm-mem 9 --profile 1,peak
no_leak "sb-sweepargs: a bad value" 2 "$B/bin/sb-sweepargs" -- t --duration x
no_leak "sb-vmboot args" 0 "$B/bin/sb-vmboot" args -- --kernel k --share a --share b -- cmd
no_leak "sb-vmboot shape" 0 sh -c '"$1" --cores 4 | "$2" shape "" "" "" kvm' sh "$B/bin/sb-topology" "$B/bin/sb-vmboot"
printf 'k/a.ko: k/b.ko\nk/b.ko:\n' >"$d/modules.dep"
no_leak "sb-vmboot closure" 0 "$B/bin/sb-vmboot" closure "$d" a
no_leak "sb-vmboot module" 0 "$B/bin/sb-vmboot" module "$d" b
no_leak "sb-workdir --stop" 0 "$B/bin/sb-workdir" --stop 999999999 10 x
plan "$_n"
exit "$_failed"
