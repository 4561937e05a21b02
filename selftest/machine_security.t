#!/usr/bin/env bash
# machine_security.t: the machine lock and --tune's restore trust nothing another local user (nobody) can write: planted files, links, names;
# and the user nobody can neither open root's lock (a shared flock stalled every root sweep) nor make its directory first.
# sb-san: skip: runtest.sh's and sb-machine's file handling, as two users; the C is run under the sanitizers by runtest_machine.t
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-machine" "$SB_BUILD/selftest/paced_processes"

SBM=$SB_BUILD/bin/sb-machine
need_build "$SB_BUILD/selftest/paced_threads"
private_bins "$SB_BUILD/selftest" paced
export SB_TESTS_DIR=$T/bin
SWEEP=(paced --points 1 --mode processes --repeat 1 --duration 0.2 --warmup 0 --period-ms 100 --results "$T/r" --quiet)

# as_nobody CMD: a shell command run as the user nobody; 1 when that cannot be done here
as_nobody() {
	if command -v runuser >/dev/null 2>&1; then runuser -u nobody -- /bin/sh -c "$1"
	else su nobody -s /bin/sh -c "$1"; fi
}
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # skip needs root: the attack is another user's file that root's sweep would write"; exit 0
fi
if ! id nobody >/dev/null 2>&1 || ! { command -v runuser || command -v su; } >/dev/null 2>&1; then
	echo "1..0 # skip no user nobody, or neither runuser nor su"; exit 0
fi
# The lock's directory world-writable and sticky, like /run/lock; nobody can reach it.
chmod 755 "$T"
D=$T/lockdir
mkdir -m 1777 "$D"
export SB_MACHINE_LOCK=$D/scalebench.lock
as_nobody "true" || { echo "1..0 # skip cannot run a command as nobody here"; exit 0; }

# victims: a root file with content, and a path that must not come into being
printf 'original\n' >"$T/victim"
chmod 644 "$T/victim"
victim_state() { printf '%s %s %s' "$(cat "$T/victim")" "$(stat -c %a "$T/victim")" "$([ -e "$T/victim2" ] && echo made || echo absent)"; }
before=$(victim_state)

# ---- 1. a planted "saved settings" file: root's next sweep must not write what it names ----
for lock in "" --no-lock; do
	rm -f "$D"/scalebench.lock*
	# (the ASLR line plants the value it has: the old code wrote it, on this machine)
	aslr=$(cat /proc/sys/kernel/randomize_va_space)
	as_nobody "printf '$T/victim\tPWNED\n$T/victim2\tPWNED\n/proc/sys/kernel/randomize_va_space\t$aslr\n' >'$D/scalebench.lock.tuned'"
	rc=0
	./runtest.sh "${SWEEP[@]}" $lock >"$T/out" 2>"$T/err" || rc=$?
	is "$(victim_state)" "$before" "planted .tuned ${lock:-with the lock}: the victim file untouched, nothing created"
	if [ -z "$lock" ]; then
		is "$rc" 0 "the sweep runs (the planted file is refused, not obeyed)"
		like "$(cat "$T/err")" "not restoring .*scalebench.lock.tuned: owned by uid [0-9]+, not this user" \
			"and says why it is not restored"
	else
		is "$rc:$(grep -c restor "$T/err")" "0:0" "--no-lock: no restore tried at all"
	fi
done

# ---- 2. a planted symbolic link at the lock's path: never truncated, never chmod-ed ----
rm -f "$D"/scalebench.lock*
as_nobody "ln -s '$T/victim' '$D/scalebench.lock'"
rc=0
./runtest.sh "${SWEEP[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$(victim_state)" "$before" "a link at the lock's path: the victim untouched (content, mode)"
is "$rc" 3 "the sweep refuses the lock: exit 3"
like "$(cat "$T/err")" "^runtest\.sh: refusing the machine lock .*: a symbolic link" "in one line naming the lock"
rm -f "$D/scalebench.lock"

# a lock file of another user's (a regular file nobody made): refused, left as it is
as_nobody "printf 'pid=1\ntest=x\n' >'$D/scalebench.lock'"
rc=0
./runtest.sh "${SWEEP[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(cat "$D/scalebench.lock" | head -1):$(stat -c %a "$D/scalebench.lock")" "3:pid=1:644" \
	"another user's lock file: exit 3, not truncated, not chmod-ed"
rm -f "$D/scalebench.lock"

# SB_MACHINE_LOCK naming one of our own files by a typo: refused, never emptied
cp README.md "$T/typo"
rc=0
SB_MACHINE_LOCK=$T/typo ./runtest.sh "${SWEEP[@]}" >"$T/out" 2>"$T/err" || rc=$?
cmp -s README.md "$T/typo"
is "$rc:$?" "3:0" "SB_MACHINE_LOCK naming a file that is no lock: exit 3, the file untouched"
like "$(cat "$T/err")" "refusing the machine lock .*typo: it holds something else" "naming why"

# a world-writable directory that is not sticky: anyone could swap the file, so refused
mkdir -m 777 "$T/open"
chmod 777 "$T/open"
rc=0
SB_MACHINE_LOCK=$T/open/l ./runtest.sh "${SWEEP[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "a lock in a directory anyone may write (not sticky): exit 3"
like "$(cat "$T/err")" "not sticky" "naming why"

# ---- 3. the file a sweep makes: root's, 0644, not writable by nobody; its holder's name escaped ----
rc=0
./runtest.sh "${SWEEP[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(stat -c '%U %a' "$SB_MACHINE_LOCK")" "0:root 644" "a sweep's lock file: root's, mode 644 (was 0666)"
as_nobody "printf 'pid=1\n' >>'$SB_MACHINE_LOCK'" 2>/dev/null
is "$(cat "$SB_MACHINE_LOCK")" "" "nobody cannot write a holder's name into it"
# a holder that is not this script's ancestor: a process of its own, holding the lock until killed
bash -c 'exec 9<"$1"; "$2" lock --fd 9 --pid $$ --test "$3" --quiet && echo ready >"$4"; exec sleep 60' _ \
	"$SB_MACHINE_LOCK" "$SBM" $'x\e]0;owned\ay\e[2J' "$T/ready" &
hp=$!
for ((i = 0; i < 100; i++)); do [ -e "$T/ready" ] && break; nap 0.1; done
"$SBM" holder >"$T/holder"
like "$(cat "$T/holder")" 'x\\x1b]0;owned\\x07y\\x1b\[2J' "the holder's name is printed with control characters escaped"
is "$(tr -d '[:print:]\n' <"$T/holder" | wc -c)" 0 "no control character reaches the terminal"
"$SB_BUILD/selftest/paced_processes" -t 1 -s 1 --warmup 0 --period-ms 50 >/dev/null 2>"$T/hand.err"
is "$(tr -d '[:print:]\n' <"$T/hand.err" | wc -c)" 0 "a runner's warning escapes it too"

# SB_MACHINE_LOCK_HOLDER naming the holder, from a process it did not start: no bypass
rc=0
SB_MACHINE_LOCK_HOLDER=$hp ./runtest.sh "${SWEEP[@]}" --no-wait >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 3 "SB_MACHINE_LOCK_HOLDER alone is no lock: a sweep the holder did not start waits (--no-wait: exit 3)"
kill "$hp"
wait "$hp" 2>/dev/null
# a sweep the holder itself started (a --kernel guest's, run on the host by a stand-in boot) runs under its lock
rm -f "$T/ready"
bash -c 'exec 9<"$1"; "$2" lock --fd 9 --pid $$ --quiet || exit 9; shift 2
	SB_MACHINE_LOCK_HOLDER=$$ ./runtest.sh "$@" --no-wait; echo "rc=$? holder=$$"' _ \
	"$SB_MACHINE_LOCK" "$SBM" "${SWEEP[@]}" >"$T/out" 2>"$T/err"
like "$(tail -n 1 "$T/out")" '^rc=0 holder=[0-9]+$' "a sweep started by the holder runs (SB_MACHINE_LOCK_HOLDER, an ancestor)"
hp=$(tail -n 1 "$T/out") hp=${hp##*=}
is "$(meta "$(head -n 1 "$T/out")/meta" lock)" "held by the sweep that started this one, pid $hp" "meta says whose lock"

# ---- 4. the default path: a directory only its user creates files in ----
# root's: in /run (only root may create entries there), 0700 (no other user opens the lock)
is "$(env -u SB_MACHINE_LOCK "$SBM" path 2>&1)" "/run/scalebench/scalebench.lock" "root's default lock: /run/scalebench/"
is "$(stat -c '%U %a' /run/scalebench 2>&1):$(stat -L -c '%U %a' /run 2>&1)" "root 700:root 755" \
	"its directory: root's, 0700, in a directory only root may write (not /run/lock, 1777: anyone made it first)"
# The same under SB_MACHINE_ROOT (a stand-in for /): the attacks on it, as nobody
M=$T/m
mkdir -p "$M/run/lock" && chmod 755 "$M" "$M/run" && chmod 1777 "$M/run/lock"
rlock=$(env -u SB_MACHINE_LOCK SB_MACHINE_ROOT="$M" "$SBM" path 2>&1)	# (the attacks below: on the lock root's sweep takes)
is "$rlock" "$M/run/scalebench/scalebench.lock" "SB_MACHINE_ROOT: root's lock in its run/scalebench/"
is "$(stat -c '%U %a' "$M/run/scalebench" 2>&1)" "root 700" "made 0700"
rc=0
as_nobody "exec flock -s -n '$rlock' true" 2>/dev/null || rc=$?
like "$rc" '^[1-9]' "nobody cannot open root's lock (flock -s fails)"
# nobody's shared hold that stalled every root sweep (--no-wait: exit 3; a waiting one waited),
# held until release_stall
mkfifo -m 666 "$D/release"
stall_cmd() { printf "exec flock -s '%s' sh -c 'exec 4<>%s; : >%s; read -r x <&4'" "$1" "$D/release" "$D/stalling"; }
release_stall() { echo go 1<>"$D/release"; wait "$stall" 2>/dev/null; rm -f "$D/stalling"; }
as_nobody "$(stall_cmd "$rlock")" 2>/dev/null &
stall=$!
for ((i = 0; i < 20; i++)); do [ -e "$D/stalling" ] && break; nap 0.1; done
rc=0
env -u SB_MACHINE_LOCK SB_MACHINE_ROOT="$M" ./runtest.sh "${SWEEP[@]}" --no-wait >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(cat "$T/err")" "0:" "root's sweep (--no-wait) runs whatever nobody does to its lock"
release_stall
is "$(cat "$rlock")" "" "and leaves its lock naming nobody"
# root's directory made 0755 by hand: refused (anyone could open the lock in it)
chmod 755 "$M/run/scalebench"
rc=0
err=$(env -u SB_MACHINE_LOCK SB_MACHINE_ROOT="$M" "$SBM" path 2>&1) || rc=$?
like "$rc:$err" "^3:sb-machine: refusing the machine lock .*: .*/run/scalebench may be entered by others \(mode 755\)" \
	"root's lock directory open to others: exit 3, one line"
# a parent others may write (a /run/lock-like 1777 one): refused, another user could have made it first
mkdir -p "$T/w/run" && chmod 755 "$T/w" && chmod 1777 "$T/w/run"
as_nobody "mkdir -m 777 '$T/w/run/scalebench'"
rc=0
err=$(env -u SB_MACHINE_LOCK SB_MACHINE_ROOT="$T/w" "$SBM" path 2>&1) || rc=$?
like "$rc:$err" "^3:sb-machine: refusing the machine lock .*/w/run/scalebench/scalebench.lock: .*/w/run is not a directory only root may write" \
	"root's lock under a directory anyone may write: exit 3, naming it"
# a lock held shared by a process that wrote no name (nobody, on a lock in a place the user chose):
# held, and said so
export SB_MACHINE_LOCK=$D/shared.lock
"$SBM" path >/dev/null
as_nobody "$(stall_cmd "$SB_MACHINE_LOCK")" &
stall=$!
for ((i = 0; i < 50; i++)); do [ -e "$D/stalling" ] && break; nap 0.1; done
rc=0
out=$("$SBM" holder 2>&1) || rc=$?
is "$rc:$out" "0:held, without a name" "sb-machine holder: a shared hold without a name is held, without a name"
rc=0
./runtest.sh "${SWEEP[@]}" --no-wait >"$T/out" 2>"$T/err" || rc=$?
like "$rc:$(cat "$T/err")" "^3:runtest\.sh: another sweep holds this machine, a sweep that did not say who it is" \
	"and --no-wait's exit 3 says so (a lock in a place others may open is the user's choice)"
release_stall
nob=$(id -u nobody)
if [ ! -e "/run/lock/scalebench-$nob" ]; then
	# (a copy nobody can reach: the checkout may sit in a directory only root can enter)
	cp "$SBM" "$T/sb-machine-copy" && chmod 755 "$T/sb-machine-copy"
	is "$(as_nobody "env -u SB_MACHINE_LOCK '$T/sb-machine-copy' path" 2>&1)" "/run/lock/scalebench-$nob/scalebench.lock" \
		"another user's: a directory of its own"
	rm -rf "/run/lock/scalebench-$nob"
else
	ok 0 "# SKIP /run/lock/scalebench-$nob exists already"
fi
# a directory planted where a user's lock would be: refused
rc=0
as_nobody "mkdir '$D/planted' && chmod 777 '$D/planted'"
SB_MACHINE_LOCK=$D/planted/x ./runtest.sh "${SWEEP[@]}" >"$T/out" 2>"$T/err" || rc=$?
is "$rc:$(ls "$D/planted")" "3:" "a lock in another user's directory: exit 3, nothing made there"

is "$(victim_state)" "$before" "the victim file is untouched at the end"
done_testing
