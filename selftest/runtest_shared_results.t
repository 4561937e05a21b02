#!/usr/bin/env bash
# A root sweep into a shared (sticky, world-writable) results directory writes nothing through what another user (nobody) planted there: not in a testcase directory nobody made first, not at the results probe's name.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
	echo "1..0 # skip needs root, the user nobody and runuser"
	exit 0
fi
as_nobody() { runuser -u nobody -- "$@"; }
chmod 755 "$T"
S=$T/shared
mkdir -m 1777 "$S"
victim=$T/victim
printf 'victim\n' >"$victim"
show() { tr -c 'a-z\n' _ <"$1" | head -c 32; }	# (a victim overwritten with spaces, visibly)

# stopped_sweep ARG...: runtest.sh's pid, stopped before it starts (the probe's name is .probe.PID)
stopped_sweep() {
	bash -c 'kill -STOP $$; exec ./runtest.sh "$@"' runtest.sh getppid1 --points 1 --mode processes --repeat 1 \
		--duration 0.1 --period-ms 50 --warmup 0 --quiet --no-history --results "$S" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" != T ] || return 0
		nap 0.05
	done
}

# nobody makes results/getppid1 first and plants a link at the probe's name
stopped_sweep
as_nobody mkdir "$S/getppid1"
as_nobody ln -s "$victim" "$S/getppid1/.probe.$pid"
kill -CONT "$pid"
rc=0
wait "$pid" || rc=$?
is "$rc" 3 "a testcase directory of another user: exit 3"
like "$(cat "$T/err")" "^runtest\\.sh: the results directory $S/getppid1 belongs to another user \\(uid [0-9]+\\): not written; remove it or choose another --results\$" \
	"in one line naming it"
is "$(show "$victim")" victim "the file behind nobody's link is untouched"
is "$(ls -A "$S/getppid1")" ".probe.$pid" "and nothing is made there"

# root's own testcase directory that others may write (a umask of 0): the probe is made new
rm -rf -- "${S:?}/getppid1"
mkdir -m 1777 "$S/getppid1"
stopped_sweep
as_nobody ln -s "$victim" "$S/getppid1/.probe.$pid"
kill -CONT "$pid"
rc=0
wait "$pid" || rc=$?
is "$rc" 0 "a link at the probe's name in root's directory: the sweep runs"
is "$(show "$victim")" victim "and writes nothing through it"
is "$(find "$S/getppid1" -name '.probe.*' | wc -l)" 0 "no probe left"
done_testing
