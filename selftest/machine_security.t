#!/usr/bin/env bash
# machine_security.t: the machine lock and --tune's restore trust nothing another local user (nobody) can write: planted files, links, names.
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
is "$(env -u SB_MACHINE_LOCK "$SBM" path 2>&1)" "/run/lock/scalebench/scalebench.lock" "root's default lock: /run/lock/scalebench/"
is "$(stat -c '%U %a' /run/lock/scalebench 2>&1)" "root 755" "its directory: root's, 0755"
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
