#!/usr/bin/env bash
# The machine: one sweep at a time (the lock: waiting, --no-wait, a SIGKILLed holder), runners warn, --check-system, meta's system, --tune.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-machine" "$SB_BUILD/selftest/paced_processes" "$SB_BUILD/selftest/paced_threads"

R=$T/r
LOCK=$SB_MACHINE_LOCK
LOUD=(--points 1 --mode processes --duration 0.2 --warmup 0.1 --period-ms 100 --results "$R")
ONE=("${LOUD[@]}" --quiet)

# Runners that log when they start and end a measured run (runtest.sh passes --run),
# so that the overlap of two sweeps shows in one log.
mkdir -p "$T/bin"
for m in processes threads; do
	cat >"$T/bin/paced_$m" <<EOF
#!/bin/sh
case " \$* " in *" --run "*) printf 'start %s %s\n' "\$(date +%s%N)" "\$TAG" >>"$T/runs.log" ;; esac
"$PWD/$SB_BUILD/selftest/paced_$m" "\$@"
rc=\$?
case " \$* " in *" --run "*) printf 'end %s %s\n' "\$(date +%s%N)" "\$TAG" >>"$T/runs.log" ;; esac
exit \$rc
EOF
	chmod +x "$T/bin/paced_$m"
done
# the holder below: a sweep whose runner waits in its prepare until the sweep is killed
ln -s "$PWD/$SB_BUILD/selftest/phases_processes" "$PWD/$SB_BUILD/selftest/phases_threads" "$T/bin/"
export SB_TESTS_DIR=$T/bin

wait_file() {	# wait_file PATH: until it exists (at most 30 s)
	local i
	for ((i = 0; i < 300; i++)); do
		if [ -e "$1" ]; then return 0; fi
		nap 0.1
	done
	echo "# $1 did not appear in 30 s"
}
hand_warnings() {	# what a runner run by hand said (hand.err), less the sampler's "woke up late"
	# line a loaded machine may add: not these cases' subject (it failed test 16 in a CI run)
	grep -v 'warning: sampler woke up' "$T/hand.err" || true
}
holder_pid() {	# the pid the lock file names, once it names one (at most 30 s)
	local i p=''
	for ((i = 0; i < 300; i++)); do
		p=$(sed -n 's/^pid=//p' "$LOCK" 2>/dev/null)
		if [ -n "$p" ]; then break; fi
		nap 0.1
	done
	printf '%s' "$p"
}

# ---- two sweeps started together never measure at the same time ----
: >"$T/runs.log"
TAG=A ./runtest.sh paced "${ONE[@]}" --repeat 3 >"$T/a.out" 2>"$T/a.err" &
pa=$!
TAG=B ./runtest.sh paced "${ONE[@]}" --repeat 3 >"$T/b.out" 2>"$T/b.err" &
pb=$!
rca=0 rcb=0
wait "$pa" || rca=$?
wait "$pb" || rcb=$?
is "$rca,$rcb" 0,0 "two sweeps started together both complete"
[ "$rca,$rcb" = 0,0 ] || sed 's/^/# /' "$T/a.err" "$T/b.err"
is "$(grep -c '^start' "$T/runs.log")" 6 "six measured runs logged"
# sorted by time, every start is followed by its own end: no run overlaps another
overlap=$(sort -k2,2n "$T/runs.log" | awk '$1 == "start" { if (open) bad++; open = $3; next }
	$1 == "end" { if (open != $3) bad++; open = "" } END { print bad + 0 }')
is "$overlap" 0 "their runs never overlap (from the runs' start and end times)"
is "$(sort -k2,2n "$T/runs.log" | awk '{ print $3 }' | uniq | wc -l | tr -d ' ')" 2 \
	"one sweep's runs all come before the other's (it waited for the lock)"
waited=$(cat "$T/a.err" "$T/b.err" | grep -c 'waiting for the sweep pid [0-9]* (paced, started ')
# (the second may also have come after the first was done: the SIGKILL case below waits for sure)
ok "$([ "$waited" -le 1 ]; echo $?)" "a waiting sweep says so, naming the first's pid, testcase and start ($waited)"
is "$(cat "$LOCK")" "" "the lock file names nobody afterwards"
like "$(meta "$R/paced/latest/meta" lock)" "^held \\($LOCK\\)$" "meta: lock=held (the file)"
like "$(meta "$R/paced/latest/meta" system)" \
	'^governor=[a-z]+ turbo=[a-z]+ smt=[a-z]+ aslr=(on|off|none) thp=[a-z]+ swap=(on|off|none) isolated=[^ ]+ prio=(fifo|nice|none) vm=[a-z-]+ load=[0-9.]+ others=[0-9]+$' \
	"meta: system= the short system check"
is "$(meta "$R/paced/latest/meta" tune)" off "meta: tune=off without --tune"

# ---- --no-wait: exit 3 at once, naming the holder; runners run by hand warn ----
# The holder holds until its SIGKILL below, however slow the cases between (a sweep of 30 runs
# once ended before them under the sanitizers): its runner waits in prepare (phases, hold=prepare).
rm -f "$T/a.out" "$T/a.err"
./runtest.sh phases "${ONE[@]}" --repeat 1 --param hold=prepare --param mark="$T/held" >"$T/a.out" 2>"$T/a.err" &
pa=$!
hp=$(holder_pid)
wait_file "$T/held"
is "$hp" "$pa" "the holder writes its pid into the lock file"
rc=0
./runtest.sh paced "${ONE[@]}" --repeat 1 --no-wait >"$T/b.out" 2>"$T/b.err" || rc=$?
is "$rc" 3 "--no-wait while another sweep holds the machine: exit 3"
is "$(wc -l <"$T/b.err" | tr -d ' ')" 1 "--no-wait: one line"
like "$(cat "$T/b.err")" "^runtest\\.sh: another sweep holds this machine, pid $pa \\(phases, started [0-9T:-]+Z\\)" \
	"--no-wait: it names the holder"
is "$(cat "$T/b.out")" "" "--no-wait: no run directory"
"$SB_BUILD/selftest/paced_processes" -t 1 -s 1 --warmup 0 --period-ms 50 >/dev/null 2>"$T/hand.err"
hand_warnings >"$T/hand.warn"
like "$(cat "$T/hand.warn")" "^paced_processes: warning: a sweep holds this machine, pid $pa \\(phases, " \
	"a runner run by hand warns that a sweep holds the machine"
is "$(wc -l <"$T/hand.warn" | tr -d ' ')" 1 "in one line"
SB_MACHINE_LOCK_HOLDER=$pa "$SB_BUILD/selftest/paced_processes" -t 1 -s 1 --warmup 0 --period-ms 50 \
	>/dev/null 2>"$T/hand.err"
is "$(hand_warnings)" "" "the holder's own runners (SB_MACHINE_LOCK_HOLDER) do not warn"
is "$(grep -c 'holds this machine' "$T/a.err")" 0 "nor did the sweep's runners"
# SB_MACHINE_LOCK_HOLDER naming the holder from a sweep it did not start: no bypass (a sweep the
# holder started runs under its lock: machine_security.t)
rc=0
SB_MACHINE_LOCK_HOLDER=$pa ./runtest.sh paced "${ONE[@]}" --repeat 1 --no-wait >"$T/b.out" 2>"$T/b.err" || rc=$?
is "$rc:$(cat "$T/b.out")" 3: "SB_MACHINE_LOCK_HOLDER of a sweep that is not an ancestor: the lock is taken (--no-wait: exit 3)"
# a waiting sweep interrupted: exit 130 at once, its waiting tool gone with it
# (each background sweep below writes files no earlier sweep wrote: a poll that read an earlier
# sweep's "waiting for" before this one's shell truncated the file failed test 24, 1 pass in 5
# beside busy loops)
rm -f "$T/b.out" "$T/b.err"
./runtest.sh paced "${ONE[@]}" --repeat 1 >"$T/b.out" 2>"$T/b.err" &
pb=$!
for ((i = 0; i < 300; i++)); do
	if grep -qs 'waiting for' "$T/b.err"; then break; fi
	nap 0.1
done
kill -TERM "$pb"
rc=0
wait "$pb" || rc=$?
is "$rc" 130 "SIGTERM to a waiting sweep: exit 130"
for ((i = 0; i < 100; i++)); do	# (killed with its parent: gone as soon as it is scheduled)
	if ! pgrep -f "sb-machine --as runtest.sh lock --fd [0-9]+ --pid $pb" >/dev/null; then break; fi
	nap 0.05
done
is "$(pgrep -f "sb-machine --as runtest.sh lock --fd [0-9]+ --pid $pb" | tr '\n' ' ')" "" "its waiting sb-machine is gone"
is "$(sed -n 's/^pid=//p' "$LOCK")" "$pa" "and the holder still holds the lock"

# ---- a SIGKILLed holder: the waiting sweep takes the lock over (and says so, unless --quiet) ----
rm -f "$T/c.out" "$T/c.err"
./runtest.sh paced "${LOUD[@]}" --repeat 1 >"$T/c.out" 2>"$T/c.err" &
pb=$!
for ((i = 0; i < 300; i++)); do
	if grep -qs 'waiting for' "$T/c.err"; then break; fi
	nap 0.1
done
like "$(cat "$T/c.err")" "^runtest\.sh: waiting for the sweep pid $pa \(phases, started [0-9T:-]+Z\) to finish" \
	"a second sweep waits, naming the holder's pid, testcase and start"
grep -q 'waiting for' "$T/c.err" || { sed 's/^/# holder: /' "$T/a.err"; sed 's/^/# lock: /' "$LOCK"; }
kill -KILL "$pa"
wait "$pa" 2>/dev/null
rc=0
wait "$pb" || rc=$?
is "$rc" 0 "after the holder's SIGKILL the waiting sweep runs"
like "$(cat "$T/c.err")" "note: took over the machine lock of pid $pa \\(phases, started [^)]*\\), which ended without releasing it" \
	"and says whose lock it took over"
is "$(cat "$LOCK")" "" "the lock file names nobody afterwards"
rc=0
./runtest.sh paced "${ONE[@]}" --repeat 1 --no-wait >"$T/b.out" 2>"$T/b.err" || rc=$?
is "$rc" 0 "--no-wait on a free machine runs"
"$SB_BUILD/selftest/paced_processes" -t 1 -s 1 --warmup 0 --period-ms 50 >/dev/null 2>"$T/hand.err"
is "$(hand_warnings)" "" "a runner run by hand on a free machine says nothing"

# ---- a lock held (shared, as a stall would) by a process that wrote no name: held all the same ----
if command -v flock >/dev/null 2>&1; then
	rm -f "$T/held"
	bash -c 'exec 9<"$1"; flock -s 9 && : >"$2"; exec sleep 60' _ "$LOCK" "$T/held" &
	sp=$!
	wait_file "$T/held"
	rc=0
	out=$("$SB_BUILD/bin/sb-machine" holder 2>&1) || rc=$?
	is "$rc:$out" "0:held, without a name" "sb-machine holder: a shared hold that wrote no name is 'held, without a name'"
	rc=0
	./runtest.sh paced "${ONE[@]}" --repeat 1 --no-wait >"$T/b.out" 2>"$T/b.err" || rc=$?
	is "$rc:$(cat "$T/b.out")" 3: "--no-wait: exit 3 (held, though shared)"
	kill "$sp"
	wait "$sp" 2>/dev/null
	rc=0
	"$SB_BUILD/bin/sb-machine" holder >/dev/null 2>&1 || rc=$?
	is "$rc" 1 "released: nobody holds it (exit 1)"
else
	for i in 1 2 3; do ok 0 "# SKIP no flock(1)"; done
fi

# ---- the default path (SB_MACHINE_ROOT standing for /): root's in run/scalebench, 0700; a user's apart ----
M=$T/m
mkdir -p "$M/run/lock" && chmod 755 "$M" "$M/run" && chmod 1777 "$M/run/lock"
if [ "$(id -u)" = 0 ]; then
	want=$M/run/scalebench/scalebench.lock mode=700
else
	want=$M/run/lock/scalebench-$(id -u)/scalebench.lock mode=755
fi
is "$(env -u SB_MACHINE_LOCK SB_MACHINE_ROOT="$M" "$SB_BUILD/bin/sb-machine" path 2>&1)" "$want" \
	"the default lock of uid $(id -u): ${want#"$M"}"
is "$(stat -c %a "$(dirname "$want")")" "$mode" "its directory: $mode"

# ---- --no-lock: recorded in meta; the busy warning, once ----
./runtest.sh paced "${ONE[@]}" --repeat 2 --no-lock >"$T/b.out" 2>"$T/b.err" &
pb=$!
rc=0
wait "$pb" || rc=$?
is "$rc" 0 "--no-lock sweep"
is "$(meta "$(cat "$T/b.out")/meta" lock)" "none (--no-lock)" "meta: lock=none (--no-lock)"
rc=0
./runtest.sh paced "${ONE[@]}" --repeat 1 --no-lock --tune >"$T/b.out" 2>"$T/b.err" || rc=$?
is "$rc:$(cat "$T/b.out")" 2: "--tune with --no-lock: exit 2, nothing measured"
like "$(cat "$T/b.err")" '^runtest\.sh: --tune needs the machine lock' "naming the conflict"
SB_MACHINE_BUSY_PCT=0 ./runtest.sh paced "${ONE[@]}" --repeat 2 >"$T/b.out" 2>"$T/b.err"
is "$(grep -c 'warning: the machine is busy: ' "$T/b.err")" 1 "a busy machine is warned about once (SB_MACHINE_BUSY_PCT=0: always busy)"

# ---- --check-system: every item, its why and how; this machine's VM ----
rc=0
./runtest.sh --check-system >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--check-system exits 0"
items=$(awk '/^[a-z]/ && NF > 1 && $1 != "What" && $1 != "short" { print $1 }' "$T/out" | tr '\n' ' ')
is "$items" "governor turbo smt aslr thp swap isolated prio vm load others " "--check-system: every item"
is "$(grep -c '^ *why: ' "$T/out"),$(grep -c '^ *change: ' "$T/out")" 11,11 "each says why it matters and how to change it"
if grep -q '^flags.* hypervisor' /proc/cpuinfo 2>/dev/null; then
	like "$(grep '^vm ' "$T/out")" '^vm +[a-z]+ \(cpuid hypervisor flag set' "--check-system says this is a VM, and which"
else
	ok 0 "# SKIP not a VM (no hypervisor flag in /proc/cpuinfo)"
fi
rc=0
./runtest.sh --check-system unix1 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "--check-system takes no other argument"

# A machine of files (SB_MACHINE_ROOT): what the check reads, what --tune changes.
F=$T/fake
mkfile() { mkdir -p "$(dirname "$F$1")"; printf '%s\n' "$2" >"$F$1"; }
fake_machine() {
	local c
	for ((c = 0; c < $(getconf _NPROCESSORS_CONF); c++)); do
		mkfile "/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor" powersave
		mkfile "/sys/devices/system/cpu/cpu$c/cpufreq/scaling_available_governors" "performance powersave"
	done
	mkfile /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq 800000
	mkfile /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq 3500000
	mkfile /sys/devices/system/cpu/intel_pstate/no_turbo 0
	mkfile /sys/devices/system/cpu/smt/active 1
	mkfile /sys/devices/system/cpu/smt/control on
	mkfile /sys/devices/system/cpu/isolated 2-3
	mkfile /proc/sys/kernel/randomize_va_space 2
	mkfile /sys/kernel/mm/transparent_hugepage/enabled "[always] madvise never"
	printf 'Filename Type Size Used Priority\n/swapfile file 1024 0 -2\n' >"$F/proc/swaps"
	mkfile /proc/loadavg "0.10 0.20 0.30 1/100 1234"
	mkfile /sys/class/dmi/id/sys_vendor QEMU
	mkfile /sys/class/dmi/id/product_name "Standard PC (Q35 + ICH9, 2009)"
	printf 'processor\t: 0\nflags\t\t: fpu vme hypervisor\n' >"$F/proc/cpuinfo"
}
fake_machine
export SB_MACHINE_ROOT=$F
like "$("$SB_BUILD/bin/sb-machine" check --short --probe-ms 10)" \
	'^governor=powersave turbo=on smt=on aslr=on thp=always swap=on isolated=2-3 prio=[a-z]+ vm=qemu load=0.10 others=[0-9]+$' \
	"the short form of a machine of files: each setting read"
"$SB_BUILD/bin/sb-machine" check --probe-ms 10 >"$T/out"
like "$(grep '^governor' "$T/out")" 'powersave on [0-9]+ of [0-9]+ CPUs; frequencies 800-3500 MHz' "the governor and the range of frequencies"
mkdir -p "$T/empty"
SB_MACHINE_ROOT=$T/empty "$SB_BUILD/bin/sb-machine" check --probe-ms 10 >"$T/out"
like "$(grep '^governor' "$T/out")" 'no cpufreq here' "no cpufreq: said so"
like "$(grep '^turbo' "$T/out")" 'no turbo/boost control here' "no turbo control: said so"
# SB_MACHINE_PROBE_MS: the probe's length without --probe-ms (the selftests' 10 ms); a bad one is refused
SB_MACHINE_PROBE_MS=37 "$SB_BUILD/bin/sb-machine" check >"$T/out"
like "$(grep '^load' "$T/out")" 'over a 37 ms probe' "SB_MACHINE_PROBE_MS sets the probe's length"
rc=0
err=$(SB_MACHINE_PROBE_MS=0.3 "$SB_BUILD/bin/sb-machine" check --short 2>&1 >/dev/null) || rc=$?
like "$rc:$err" "^2:sb-machine: SB_MACHINE_PROBE_MS: .*0\.3.*$" "a bad SB_MACHINE_PROBE_MS: exit 2, one line naming it"

# --tune: changed for the sweep, in meta, restored at its end
ONE_FAST=("${ONE[@]}" --repeat 1)
./runtest.sh paced "${ONE_FAST[@]}" --tune >"$T/out" 2>"$T/err"
run=$(cat "$T/out")
like "$(meta "$run/meta" tune)" '^on: cpu0/cpufreq/scaling_governor=powersave->performance .*intel_pstate/no_turbo=0->1 randomize_va_space=2->0$' \
	"--tune: meta says what it changed"
like "$(cat "$T/err")" "tune: /proc/sys/kernel/randomize_va_space: 2 -> 0" "--tune: it says what it changed (--quiet too)"
like "$(cat "$T/err")" "tune: restored /proc/sys/kernel/randomize_va_space: 2" "--tune: it says what it restored"
is "$(cat "$F/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") $(cat "$F/sys/devices/system/cpu/intel_pstate/no_turbo") $(cat "$F/proc/sys/kernel/randomize_va_space")" \
	"powersave 0 2" "--tune: every setting restored at the end"
is "$(ls "$LOCK".tuned 2>/dev/null)" "" "--tune: no saved file left"
# interrupted (SIGTERM), then killed (SIGKILL): restored by on_exit, then by the janitor
for sig in TERM KILL; do
	# held in its runner's prepare until the signal (a sweep of 30 runs could end first)
	rm -f "$T/held"
	./runtest.sh phases "${ONE[@]}" --repeat 1 --tune --param hold=prepare --param mark="$T/held" >"$T/out" 2>"$T/err" &
	pa=$!
	holder_pid >/dev/null
	wait_file "$T/held"
	for ((i = 0; i < 100; i++)); do
		if [ "$(cat "$F/proc/sys/kernel/randomize_va_space")" = 0 ]; then break; fi
		nap 0.1
	done
	is "$(cat "$F/proc/sys/kernel/randomize_va_space")" 0 "--tune ($sig): ASLR off during the sweep"
	kill -"$sig" "$pa"
	wait "$pa" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		if [ "$(cat "$F/proc/sys/kernel/randomize_va_space")" = 2 ]; then break; fi
		nap 0.1
	done
	is "$(cat "$F/proc/sys/kernel/randomize_va_space") $(cat "$F/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")" \
		"2 powersave" "--tune, then SIG$sig: restored"
done
# a saved file a killed sweep left (its janitor killed too): the next sweep restores it first
"$SB_BUILD/bin/sb-machine" tune "$LOCK.tuned" >/dev/null
./runtest.sh paced "${ONE_FAST[@]}" >"$T/out" 2>"$T/err"
like "$(cat "$T/err")" "a sweep killed while tuned left .*: restoring it" "the next sweep restores a saved file it finds"
is "$(cat "$F/proc/sys/kernel/randomize_va_space") $(cat "$F/sys/devices/system/cpu/intel_pstate/no_turbo")" "2 0" "from the saved values"
# The history is written after the machine is free: another writer holding history.db (here
# python's sqlite3) makes the add wait, not the machine (the lock released, --tune undone first).
if command -v python3 >/dev/null && python3 -c 'import sqlite3' 2>/dev/null; then
	rm -f "$T/hlocked" "$T/hgo" "$T/out"
	python3 -c 'import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
for i in range(1200):
	if os.path.exists(sys.argv[3]): break
	time.sleep(0.05)' "$T/hist.db" "$T/hlocked" "$T/hgo" &
	hp=$!
	wait_file "$T/hlocked"
	SB_HISTORY=$T/hist.db ./runtest.sh paced "${ONE_FAST[@]}" --tune >"$T/out" 2>"$T/err" &
	pa=$!
	for ((i = 0; i < 600; i++)); do [ -s "$T/out" ] && break; nap 0.1; done	# measured: the run directory said
	held=0 free=''
	for ((i = 0; i < 200; i++)); do	# (at most 20 s: the history's writer holds it 60)
		held=0
		"$SB_BUILD/bin/sb-machine" holder >/dev/null 2>&1 || held=$?
		free="$held $(cat "$F/proc/sys/kernel/randomize_va_space")"
		[ "$free" = "1 2" ] && break
		nap 0.1
	done
	alive=$(kill -0 "$pa" 2>/dev/null && echo waiting || echo ended)
	is "$free $alive" "1 2 waiting" "a sweep waiting for the history's writer: the machine lock released, --tune undone"
	: >"$T/hgo"
	wait "$hp"
	rc=0
	wait "$pa" || rc=$?
	is "$rc:$(grep -c 'not added' "$T/err"):$("$SB_BUILD/bin/sb-history" --db "$T/hist.db" list paced | tail -n +2 | wc -l | tr -d ' ')" \
		"0:0:1" "then the sweep is added once the writer is done"
else
	ok 0 "# SKIP python3's sqlite3 module needed (a writer holding history.db)"
	ok 0 "# SKIP (the same)"
fi
unset SB_MACHINE_ROOT

# The real ASLR switch, where this user may change it (root): restored after the sweep.
aslr_file=/proc/sys/kernel/randomize_va_space
if [ -w "$aslr_file" ] && [ "$(cat "$aslr_file")" != 0 ]; then
	before=$(cat "$aslr_file")
	./runtest.sh paced "${ONE_FAST[@]}" --tune >"$T/out" 2>"$T/err"
	like "$(meta "$(cat "$T/out")/meta" tune)" "randomize_va_space=$before->0" "--tune on this machine: ASLR was turned off"
	is "$(cat "$aslr_file")" "$before" "--tune on this machine: ASLR restored ($before)"
else
	ok 0 "# SKIP $aslr_file is not writable here (not root) or already 0"
	ok 0 "# SKIP (the same)"
fi

is "$(pgrep -f "$T/" | tr '\n' ' ')" "" "no process left behind"
done_testing
