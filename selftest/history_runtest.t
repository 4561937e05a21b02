#!/usr/bin/env bash
# runtest.sh and the history: every complete sweep added to RESULTS/history.db (SB_HISTORY another file, --no-history none), --commit and SB_COMMIT in meta and the history, a failed add only a warning; two sweeps ending at once, and eight adds at once, all land.
# sb-san: skip: its subject is runtest.sh's hook (shell); sb-history's C runs under the sanitizers in history_store.t, history_show.t and history_changes.t
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/results
TINY=(--points 1 --mode processes --duration 0.1 --warmup 0 --period-ms 100 --repeat 2 --quiet --results "$R")
plan 16
rows() { "$H" --db "$1" list "${@:2}" | tail -n +2 | wc -l | tr -d ' '; }

run ./runtest.sh getppid1 --label k1 --commit 0123456789abcdef "${TINY[@]}"
is "$rc:$err" "0:" "a sweep with --commit: exit 0, nothing on stderr"
is "$(grep '^commit=' "$out/meta")" "commit=0123456789abcdef" "meta: commit"
is "$("$H" --db "$R/history.db" list getppid1 | tail -n +2 | cut -f 3,5 | tr '\t' ' ')" "k1 0123456789abcdef" \
	"the sweep is in RESULTS/history.db with its commit"
SB_COMMIT=fedcba9876 SB_HISTORY=$tmp/other.db run ./runtest.sh getppid1 --label k2 "${TINY[@]}"
is "$rc:$(grep '^commit=' "$out/meta")" "0:commit=fedcba9876" "SB_COMMIT: the same"
is "$(rows "$tmp/other.db"):$(rows "$R/history.db")" "1:1" "SB_HISTORY: into that file instead"
run ./runtest.sh getppid1 --label k3 --no-history "${TINY[@]}"
is "$rc:$(rows "$R/history.db")" "0:1" "--no-history: not added"
SB_HISTORY=$tmp/missing/h.db run ./runtest.sh getppid1 --label k5 "${TINY[@]}"
is "$rc" 0 "a history that cannot be written: the sweep still exits 0"
is "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" 1 "one line on stderr"
like "$err" "^runtest\.sh: warning: not added to the history \(sb-history exit 2\): .*missing/h\.db: its directory does not exist" \
	"a warning saying why"
[ -f "$out/meta" ] && grep -q '^status=complete$' "$out/meta"
ok $? "and the run directory is complete"
run ./runtest.sh getppid1 --commit xyz "${TINY[@]}"
is "$rc" 2 "--commit that is not a hash: exit 2"
SB_COMMIT='a b' run ./runtest.sh getppid1 "${TINY[@]}"
is "$rc" 2 "nor SB_COMMIT"
# two sweeps that end at once (no machine lock between them): both land
for l in ra rb; do
	./runtest.sh getppid1 --label "$l" --no-lock "${TINY[@]}" >"$tmp/$l.out" 2>"$tmp/$l.err" &
	eval "pid_$l=\$!"
done
reap "$pid_ra" "$tmp/ra"
rc_a=$rc
reap "$pid_rb" "$tmp/rb"
is "$rc_a:$rc:$(cat "$tmp/ra.err" "$tmp/rb.err")" "0:0:" "two sweeps at once: both exit 0, no warning"
is "$("$H" --db "$R/history.db" list getppid1 | cut -f 3 | grep -c '^r[ab]$')" 2 "both are in the history"

# eight adds at once, five runs each, into one new database: every one lands, nothing twice
for i in $(seq 1 40); do hrun "$tmp/many" unix1 "k$i" $(((i - 1) % 28 + 1)) 1 >/dev/null; done
dirs=("$tmp"/many/unix1/*)
for i in 0 1 2 3 4 5 6 7; do
	"$H" --db "$tmp/race.db" add "${dirs[@]:$((i * 5)):5}" >/dev/null 2>"$tmp/race$i.err" &
	pids[i]=$!
done
bad=0
for i in 0 1 2 3 4 5 6 7; do wait "${pids[i]}" || bad=$((bad + 1)); done
is "$bad:$(cat "$tmp"/race*.err)" "0:" "eight adds at once: all exit 0"
is "$(rows "$tmp/race.db")" 40 "and all 40 sweeps are there once"
