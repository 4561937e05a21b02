#!/usr/bin/env bash
# runtest_workdir.t: the working directory: too few descriptors, a TMPDIR with a newline, and the stale ones a SIGKILLed process group leaves, removed by the next sweep (only those provably dead, this user's, no link followed).
# sb-san: skip: runtest.sh's shell; sb-workdir's C runs under the sanitizers in sweepargs.t
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/selftest/phases_processes" "$SB_BUILD/selftest/phases_threads"
private_bins "$SB_BUILD/selftest" phases
export SB_TESTS_DIR=$T/bin TMPDIR=$T/tmp
mkdir "$TMPDIR"
TINY=(phases --points 1 --mode processes --duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet --results "$T/r")

# ---- ulimit -n 12: one line, exit 3, no working directory ----
rc=0
(ulimit -n 12; exec ./runtest.sh "${TINY[@]}") >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "ulimit -n 12: exit 3 (the environment), not 1"
is "$(cat "$T/err")" "runtest.sh: the open-file limit is 12 (ulimit -n): a sweep needs 15; raise it (ulimit -n 15)" \
	"in one clear line"
is "$(ls -A "$TMPDIR")" "" "no working directory left"
rc=0
(ulimit -S -n 12; exec ./runtest.sh "${TINY[@]}") >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "a soft limit of 12 under a higher hard one is raised: the sweep runs"

# ---- a TMPDIR whose name holds a newline ----
nl=$T/$'a\nb'
mkdir "$nl"
rc=0
TMPDIR=$nl ./runtest.sh "${TINY[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(wc -l <"$T/err" | tr -d ' ')" 3:1 "TMPDIR with a newline: exit 3, one line"
like "$(cat "$T/err")" "^runtest\\.sh: TMPDIR .*a\\\\nb' holds a control character \\(a newline\\?\\)" "naming it, escaped"
is "$(ls -A "$nl")" "" "nothing made in it"

# ---- a sweep killed with its janitor (SIGKILL of the process group, a CI cancel) ----
rm -f "$T/mark"
setsid ./runtest.sh "${TINY[@]}" --param hold=prepare --param mark="$T/mark" >"$T/out" 2>"$T/err" &
for ((i = 0; i < 300; i++)); do [ -e "$T/mark" ] && break; nap 0.1; done
sp=$!
disown "$sp"
pg=$(ps -o pgid= -p "$sp" | tr -d " ")
kill -KILL -- "-$pg"
for ((i = 0; i < 100; i++)); do [ -z "$(pgrep -g "$pg")" ] && break; nap 0.1; done
stale=$(ls -d "$TMPDIR"/runtest.* 2>/dev/null)
[ -n "$stale" ] && [ -f "$stale/owners" ]
ok $? "SIGKILL of the whole group leaves its working directory (nobody was left to remove it)"

# beside it: directories the next sweep must leave alone
mkdir "$TMPDIR/runtest.alive1" "$TMPDIR/runtest.noown1" "$TMPDIR/runtest.noown2" "$TMPDIR/runtest.empty1" "$T/victim"
# (killed between mktemp and the owners file: an empty one an hour old goes; one with a file stays)
touch "$TMPDIR/runtest.noown2/x" && touch -d '-1 hour' "$TMPDIR/runtest.noown2" "$TMPDIR/runtest.empty1"
touch "$T/victim/keep"
sleep 60 &
live=$!
# a live sweep's: its runtest.sh alive (the janitor's pid long gone does not matter)
read -r _ _ jan jst <"$stale/owners"
printf '%s %s %s %s\n' "$live" "$(awk '{ sub(/.*\) /, ""); split($0, f, " "); print f[20] }' /proc/$live/stat 2>/dev/null || echo -)" \
	"$jan" "$jst" >"$TMPDIR/runtest.alive1/owners"
ln -s "$T/victim" "$TMPDIR/runtest.link01"
cp "$stale/owners" "$T/victim/owners"	# a link to a directory with a dead owners file
# a dead owner's pid now used by another process (a reused pid): the start time differs
mkdir "$TMPDIR/runtest.reuse1"
printf '%s 1 %s 1\n' "$live" "$live" >"$TMPDIR/runtest.reuse1/owners"
rc=0
./runtest.sh "${TINY[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "the next sweep runs"
[ ! -e "$stale" ]
ok $? "and removes the killed sweep's working directory"
[ ! -e "$TMPDIR/runtest.reuse1" ]
ok $? "and one whose owners' pids now name other processes (start times differ)"
[ ! -e "$TMPDIR/runtest.empty1" ]
ok $? "and an empty one without an owners file, an hour old"
is "$(cd "$TMPDIR" && ls -A | sort | tr '\n' ' ')" "runtest.alive1 runtest.link01 runtest.noown1 runtest.noown2 " \
	"a live sweep's, a new empty one or one with files but no owners file, and a link are left alone"
is "$(ls -A "$T/victim" | tr '\n' ' ')" "keep owners " "nothing removed through the link"
kill "$live"
wait "$live" 2>/dev/null
is "$(pgrep -f "$T/" | tr '\n' ' ')" "" "no process left behind"
done_testing
