#!/usr/bin/env bash
# runtest.sh faults: a full results disk, bad TMPDIR, a too long label, --points '', odd latest, a SIGKILLed runner, an early SIGTERM.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"
private_bins "$SB_BUILD/bin" getppid1
export SB_TESTS_DIR=$T/bin
FAST=(--points 1 --mode processes --duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet)
SLOW=(--points 1 --duration 2 --warmup 0 --period-ms 200 --repeat 1 --quiet)	# two points: processes, then threads

left_behind() {	# processes of this test's binaries still alive, after a moment for their deaths
	local i
	for ((i = 0; i < 50; i++)); do
		pgrep -f "$T/bin/" >/dev/null || return 0
		nap 0.1
	done
	pgrep -f "$T/bin/" | tr '\n' ' '
}

# ---- TMPDIR missing or a file: one runtest.sh line, exit 3 ----
touch "$T/a-file"
for d in "$T/no-such-dir" "$T/a-file"; do
	rc=0
	TMPDIR=$d ./runtest.sh getppid1 "${FAST[@]}" --results "$T/r0" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 3 "TMPDIR=${d##*/}: exit 3"
	is "$(wc -l <"$T/err" | tr -d ' ')" 1 "TMPDIR=${d##*/}: one line on stderr"
	like "$(cat "$T/err")" "^runtest\.sh: TMPDIR $d (does not exist|is not a directory)$" "TMPDIR=${d##*/}: names TMPDIR and the path"
done
ok "$([ ! -e "$T/r0" ]; echo $?)" "a bad TMPDIR: nothing written"

# ---- a label whose run id would exceed NAME_MAX: exit 2 up front, --dry-run too ----
long=$(printf 'x%.0s' {1..240})
for dry in '' --dry-run; do
	rc=0
	./runtest.sh getppid1 "${FAST[@]}" --label "$long" $dry --results "$T/r1" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "a 240-character label${dry:+ with $dry}: exit 2"
	like "$(cat "$T/err")" "^runtest\.sh: --label: 240 characters: too long .*at most 235" "it says why${dry:+ ($dry)}"
done
ok "$([ ! -e "$T/r1" ]; echo $?)" "a long label: nothing written"
longest=$(printf 'y%.0s' {1..235})
rc=0
./runtest.sh getppid1 "${FAST[@]}" --label "$longest" --results "$T/r1" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "the longest label accepted makes its run"
is "$(meta "$(cat "$T/out")/meta" label)" "$longest" "under that label"

# ---- --points '' is an empty list, not the default sweep ----
for arg in "--points=" "--points ''"; do
	rc=0
	if [ "$arg" = --points= ]; then set -- --points=; else set -- --points ''; fi
	./runtest.sh getppid1 "$@" --dry-run >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 2 "$arg: exit 2"
	like "$(cat "$T/err")" "^runtest\.sh: --points: empty list" "$arg: says so"
done

# ---- latest: a real directory is refused before anything runs; a dangling one replaced ----
mkdir -p "$T/r2/getppid1/latest"
echo keep >"$T/r2/getppid1/latest/marker"
rc=0
./runtest.sh getppid1 "${FAST[@]}" --results "$T/r2" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "latest is a directory: exit 3"
like "$(cat "$T/err")" "latest is a directory, not the link to the newest run" "it says so"
is "$(ls -A "$T/r2/getppid1/latest")" marker "that directory is left as it was (no link in it)"
is "$(ls -A "$T/r2/getppid1")" latest "no run was made"
mkdir -p "$T/r3/getppid1"
ln -s gone-20000101T000000 "$T/r3/getppid1/latest"
rc=0
./runtest.sh getppid1 "${FAST[@]}" --results "$T/r3" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "a dangling latest: the run goes ahead"
is "$(readlink "$T/r3/getppid1/latest")" "$(basename "$(cat "$T/out")")" "latest now points to the new run"
is "$(find "$T/r3/getppid1" -mindepth 1 -name '.*' | wc -l | tr -d ' ')" 0 "no temporary link left"

# ---- the runner killed by SIGKILL: a failed point, and no bash "Killed" line ----
# (a point of 30 s: the poll below finds its runner however late, and the SIGKILL ends it anyway)
./runtest.sh getppid1 "${SLOW[@]}" --duration 30 --results "$T/r4" >"$T/out" 2>"$T/err" &
pid=$!
runner=''
for ((i = 0; i < 300; i++)); do
	runner=$(pgrep -P "$pid" -f "$T/bin/getppid1_processes -t " || true)	# (not its --info)
	if [ -n "$runner" ]; then break; fi
	nap 0.1
done
ok "$([ -n "$runner" ]; echo $?)" "the runner started"
kill -KILL "$runner"
rc=0
wait "$pid" || rc=$?
is "$rc" 1 "runner killed by SIGKILL: exit 1"
is "$(cat "$T/err")" "runtest.sh: getppid1: processes at 1 tasks failed: the runner was killed by signal 9" \
	"stderr is runtest.sh's one line (no job notice from bash)"
run=$T/r4/getppid1/$(readlink "$T/r4/getppid1/latest")
is "$(meta "$run/meta" status),$(meta "$run/meta" error)" "failed,the runner was killed by signal 9" "meta: failed, and why"
is "$(left_behind)" "" "no process left behind"
is "$(ls -A "$run" | tr '\n' ' ')" "meta points.csv samples.csv summary.csv " "no temporary file left"

# wait_for_file FILE: until FILE is non-empty (a stand-in command has started), at most 30 s
wait_for_file() {
	local i
	for ((i = 0; i < 300; i++)); do
		if [ -s "$1" ]; then return 0; fi
		nap 0.1
	done
	return 1
}

# ---- SIGTERM at the very start: 130, not the shell's default 143 ----
# The first external commands runtest.sh runs are these stand-ins: they say
# when they run and then wait, so the signal arrives while runtest.sh is in
# its first moments, whatever the machine's speed.
mkdir -p "$T/fake"
for c in dirname uname mktemp make; do
	printf '#!/bin/sh\necho $$ >>"%s"\nexec sleep 60\n' "$T/fake.log" >"$T/fake/$c"
	chmod +x "$T/fake/$c"
done
: >"$T/fake.log"
PATH=$T/fake:$PATH ./runtest.sh getppid1 --dry-run >/dev/null 2>"$T/err" &
pid=$!
wait_for_file "$T/fake.log" || true
ok "$([ -s "$T/fake.log" ]; echo $?)" "runtest.sh ran its first command"
kill -TERM "$pid"
sleep 0.2
xargs kill <"$T/fake.log" 2>/dev/null
rc=0
wait "$pid" || rc=$?
is "$rc" 130 "SIGTERM during runtest.sh's first command: exit 130"

# SIGTERM during the build (setup): 130 and its working directory gone
mkdir -p "$T/tmp"
# (the sb-sweepargs build that read_args asks for first is let through: it is up to date)
printf '#!/bin/sh\ncase "$*" in *sb-sweepargs*) exit 0 ;; esac\necho $$ >>"%s"\nexec sleep 60\n' "$T/make.log" >"$T/fake/make"
chmod +x "$T/fake/make"
: >"$T/make.log"
TMPDIR=$T/tmp MAKE=$T/fake/make ./runtest.sh getppid1 --dry-run >/dev/null 2>"$T/err" &
pid=$!
wait_for_file "$T/make.log" || true
kill -TERM "$pid"
sleep 0.2
xargs kill <"$T/make.log" 2>/dev/null
rc=0
wait "$pid" || rc=$?
is "$rc" 130 "SIGTERM during the build: exit 130"
is "$(ls -A "$T/tmp")" "" "the working directory is removed"

# ---- a full results disk (a small tmpfs; root only) ----
M=$T/mnt
mkdir -p "$M"
if ! mount -t tmpfs -o size=512k tmpfs "$M" 2>"$T/mount.err"; then
	ok 0 "# SKIP cannot mount a tmpfs to fill ($(tail -n 1 "$T/mount.err"))"
	done_testing
	exit
fi
trap 'umount "$M" 2>/dev/null; rm -rf -- "$T"' EXIT

# mid-sweep: point 1 is written (summary.csv comes after samples.csv), then the disk fills
./runtest.sh getppid1 "${SLOW[@]}" --results "$M/r" >"$T/out" 2>"$T/err" &
pid=$!
for ((i = 0; i < 300; i++)); do
	lines=$({ wc -l <"$M/r/getppid1/latest/summary.csv"; } 2>/dev/null || echo 0)
	if [ "$lines" -gt 2 ]; then break; fi
	nap 0.1
done
ok "$([ "$lines" -gt 2 ]; echo $?)" "the first point was written"
# (filled again until the sweep ends, not once more after a sleep: a rename in flight during a
# fill gives a page back, whenever it lands)
for ((i = 0; i < 600; i++)); do
	dd if=/dev/zero of="$M/fill$i" bs=4k 2>/dev/null || true
	kill -0 "$pid" 2>/dev/null || break
	nap 0.1
done
rc=0
wait "$pid" || rc=$?
is "$rc" 3 "results disk full mid-sweep: exit 3"
is "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line on stderr"
like "$(cat "$T/err")" "^runtest\.sh: cannot write $M/r/getppid1/[^/]+/(samples\.csv|summary\.csv|meta): No space left on device$" \
	"it names the file and the reason"
run=$M/r/getppid1/$(readlink "$M/r/getppid1/latest")
# (the final write takes the room sb-rundir kept beside meta: results/README.md)
is "$(meta "$run/meta" status)" failed "meta ends failed (the final status lands on the full disk)"
like "$(meta "$run/meta" error)" "^cannot write $M/r/getppid1/[^/]+/(samples\.csv|summary\.csv|meta): No space left on device$" \
	"with the reason"
is "$("$SB_BUILD/bin/sb-summary" --format plot "$run" | awk -F'\t' '$1 == "meta" && $2 == "status" { print $3 }')" \
	failed "the readers say failed"
keys=$("$SB_BUILD/bin/sb-rundir" keys | awk -F'\t' '$2 !~ /VM/ { print $1 }')
missing=''
for k in $keys; do grep -q "^$k=" "$run/meta" || missing="$missing $k"; done
is "$missing,$(meta "$run/meta" tune | grep -c .)" ",1" "meta is whole: every key, the last one too"
is "$(awk -F, 'NR > 1 { print $1 "," $2 }' "$run/samples.csv" | sort -u | head -n 1)" processes,1 "samples.csv keeps the first point"
"$SB_BUILD/bin/sb-summary" "$run/samples.csv" >"$T/summary" 2>&1
is "$(cmp "$T/summary" "$run/summary.csv" && echo same)" same "samples.csv is whole and summary.csv agrees with it"
is "$(ls -A "$run" | tr '\n' ' ')" "meta points.csv samples.csv summary.csv " "no temporary file left in the run"
is "$(find "$M/r/getppid1" -mindepth 1 -name '.*' | wc -l | tr -d ' ')" 0 "nor next to it"
is "$(left_behind)" "" "no process left behind"

# at the start: the disk is full before anything runs
rc=0
./runtest.sh getppid1 "${FAST[@]}" --results "$M/r5" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "results disk full at the start: exit 3"
is "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line on stderr"
like "$(cat "$T/err")" "^runtest\.sh: cannot write in the results directory $M/r5/getppid1: No space left on device$" \
	"it names the directory and the reason"
is "$(ls -A "$M/r5/getppid1")" "" "no run directory, no probe left"
is "$(cat "$T/out")" "" "no run directory printed"

done_testing
