#!/usr/bin/env bash
# history_sim.sh: the change-point method on synthetic histories, a row a cell: histories with any change, found, located exactly, within +-1.
# Not part of make check. docs/HISTORY.md "The method" has the model, the cells and a table.
#
# Each history is 30 kernels (k01..k30) x 3 runs, 2% run-to-run sd, 1% sweep-to-sweep sd (one
# offset a sweep, shared by all its points), 24 counts x 2 modes: 48 point series and the 2
# modes' curves, 50 series given to the method at once. Cells (selftest/bench/history_model.c):
#   aa     nothing changes: every change is a false alarm
#   broad  -5% at every count of both modes from kernel 20
#   local  -20% at 5 counts of processes from kernel 20
#   two    -5% from kernel 10, +5% from kernel 22
#   spike  kernel 15 alone -10% at every count (a change reported is a false alarm)
#   drift  -0.2% a kernel, all along
# found: a change of the right sign in a series the cell touched; exact / +-1: the strongest
# such change (smallest p) is at the first kernel after the truth / within one kernel of it
# (two: both steps, each judged by the change nearest to it).
#
# Two measurements of the same numbers (history i of every cell is drawn from seed
# SEED*10000+i):
#   in-process  build/selftest/history_sim calls sb_cp_detect directly (seconds)
#   end-to-end  build/selftest/history_gen writes each history as run directories,
#               `sb-history add --db DB RUNDIR...` stores them and
#               `sb-history changes --db DB --format json` finds the changes (a minute or more)
# E2E=auto (default) runs the end-to-end table when build/bin/sb-history exists; E2E=0 never,
# E2E=1 always (an error without it). SB_HISTORY_BIN names another sb-history.
# Environment: N (200 histories a cell), CELLS ("aa broad local two spike drift"), SEED (1),
# SUMMARY=1 (the end-to-end run directories get summary.csv too, by sb-summary: slower;
# sb-history reads samples.csv and meta), KEEP=1 keeps the directories, FLAT=1 adds the
# in-process table of the naive model (every run an independent observation), EDIVISIVE=1
# that of E-divisive means with Student's t on each split (selftest/bench/history_edivisive.c),
# POINT_OFFSETS=1 gives each point of a sweep its own offset (in-process tables only).
set -eu

log() { printf '%s\n' "$*" >&2; }

# judge CELL JSON...: one table row from sb-history changes --format json outputs (one a history)
judge() {
	python3 - "$@" <<'PY'
import json, sys

cell, files = sys.argv[1], sys.argv[2:]
counts, local_n = 24, 5
hit = {int((j + 0.5) * counts / local_n) + 1 for j in range(local_n)}
truth = {"broad": [(20, -1)], "local": [(20, -1)], "two": [(10, -1), (22, 1)],
         "drift": [(None, -1)]}.get(cell, [])

def touched(c):
    if cell == "aa":
        return False
    if cell != "local":
        return True
    return c["mode"] == "processes" and (c["tasks"] == "curve" or c["tasks"] in hit)

def kernel(c):
    return int(c["at"].lstrip("k"))

anyc = found = exact = near = 0
for f in files:
    ch = json.load(open(f))["changes"]
    anyc += bool(ch)
    if not truth:
        continue
    ok_f = ok_e = ok_n = True
    for j, (at, sign) in enumerate(truth):
        best = None
        for c in ch:
            if not touched(c) or (1 if c["pct"] >= 0 else -1) != sign:
                continue
            if len(truth) == 2 and abs(kernel(c) - at) > abs(kernel(c) - truth[1 - j][0]):
                continue
            if best is None or (c["p"], -abs(c["pct"])) < (best["p"], -abs(best["pct"])):
                best = c
        ok_f &= best is not None
        ok_e &= best is not None and at is not None and kernel(best) == at
        ok_n &= best is not None and at is not None and abs(kernel(best) - at) <= 1
    found += ok_f
    exact += ok_f and ok_e
    near += ok_f and ok_n
n = len(files)
row = "%-6s %6.1f%%" % (cell, 100.0 * anyc / n)
row += " %6.1f%%" % (100.0 * found / n) if truth else " %7s" % "-"
if truth and cell != "drift":
    row += " %6.1f%% %6.1f%%" % (100.0 * exact / n, 100.0 * near / n)
else:
    row += " %7s %7s" % ("-", "-")
print(row)
PY
}

# e2e_cell TMP CELL: N histories through history_gen, sb-history add and changes; prints the row
e2e_cell() {
	local tmp=$1 cell=$2 i d rc sum=none files=()
	if [ "${SUMMARY:-0}" = 1 ]; then sum=$tmp/sb-summary; fi
	for ((i = 0; i < N; i++)); do
		d=$tmp/$cell/$i
		"$tmp/history_gen" --out "$d" --cell "$cell" --seed $((SEED * 10000 + i)) \
			--testcase histsim1 --summary "$sum"
		"$tmp/sb-history" add --db "$d/history.db" "$d"/histsim1/k*/ >/dev/null
		rc=0
		"$tmp/sb-history" changes --db "$d/history.db" --format json >"$tmp/$cell.$i.json" || rc=$?
		if [ "$rc" -gt 1 ]; then
			log "history_sim.sh: sb-history changes exited $rc on $d"
			return 1
		fi
		if [ -z "${KEEP:-}" ]; then rm -rf -- "$d"; fi
		files+=("$tmp/$cell.$i.json")
	done
	judge "$cell" "${files[@]}"
}

main() {
	local tmp cell e2e=${E2E:-auto} hist t0 header
	cd "$(dirname "$0")/../.."
	N=${N:-200} SEED=${SEED:-1}
	local cells=${CELLS:-aa broad local two spike drift}
	hist=${SB_HISTORY_BIN:-build/bin/sb-history}
	make -s build/selftest/history_sim build/selftest/history_gen build/bin/sb-summary >/dev/null
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "if [ -z \"\${KEEP:-}\" ]; then rm -rf -- '$tmp'; else echo 'kept: $tmp' >&2; fi" EXIT
	header=$(printf '%-6s %7s %7s %7s %7s' cell any found exact '+-1')
	log "history_sim.sh: $N histories a cell, seed $SEED; $(date -u +%FT%TZ), $(nproc) CPUs, $(uname -sr)"
	local sim=(build/selftest/history_sim --histories "$N" --seed "$SEED" --cells "$cells"
		--point-offsets "${POINT_OFFSETS:-0}")
	printf '== in-process (sb_cp_detect) ==\n'
	"${sim[@]}"
	if [ "${FLAT:-0}" = 1 ]; then
		printf '== in-process, naive: every run an independent observation ==\n'
		"${sim[@]}" --flat 1
	fi
	if [ "${EDIVISIVE:-0}" = 1 ]; then
		printf '== in-process, E-divisive means, Student t on each split ==\n'
		"${sim[@]}" --edivisive 1
	fi
	if [ "$e2e" = 0 ] || { [ "$e2e" = auto ] && [ ! -x "$hist" ]; }; then
		log "history_sim.sh: no end-to-end table ($hist not built, or E2E=0)"
		return 0
	fi
	if [ ! -x "$hist" ]; then
		log "history_sim.sh: E2E=1 but $hist is not built"
		return 2
	fi
	cp "$hist" build/selftest/history_gen build/bin/sb-summary "$tmp/"
	printf '== end-to-end (history_gen, sb-history add, sb-history changes) ==\n%s\n' "$header"
	for cell in $cells; do
		t0=$(date +%s)
		e2e_cell "$tmp" "$cell"
		log "  ($(($(date +%s) - t0)) s)"
	done
}

main "$@"
