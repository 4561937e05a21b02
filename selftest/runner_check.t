#!/usr/bin/env bash
# --check validates the private directory's place as a run does: missing, a file, not writable,
# read-only, the wrong filesystem, no O_DIRECT; exit 2, one line, and nothing made.
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bin=$B/bin/read1_processes
: >"$d/file"
mkdir "$d/ok"

# check_dir NAME WANT_RC REGEX CMD...: --check and a run both exit WANT_RC with one line matching REGEX
check_dir() {
	local name=$1 want=$2 re=$3 crc cerr
	shift 3
	run "$@" --check
	crc=$rc cerr=$err
	is "$crc" "$want" "$name: --check exits $want"
	like "$cerr" "$re" "$name: one line naming it ($cerr)"
	is "$(printf '%s\n' "$cerr" | wc -l)" 1 "$name: a single line"
	run "$@" -t 1 -s 1 --warmup 0 --period-ms 100
	is "$rc:$err" "$crc:$cerr" "$name: a run is refused the same way, before running"
}

check_dir "--param dir=missing" 2 "^read1_processes: the directory for the test's files \(--param dir\) $d/missing: No such file or directory$" \
	"$bin" --param dir="$d/missing"
check_dir "--param dir=a file" 2 "\(--param dir\) $d/file: not a directory$" "$bin" --param dir="$d/file"
check_dir "TMPDIR=missing" 2 "\(\\\$TMPDIR\) $d/missing: No such file" env TMPDIR="$d/missing" "$bin"
check_dir "SCALEBENCH_TMPDIR=a file" 2 "\(\\\$SCALEBENCH_TMPDIR\) $d/file: not a directory" \
	env SCALEBENCH_TMPDIR="$d/file" "$bin"

# not writable: as an unprivileged user (root writes anywhere)
chmod 555 "$d/ok"
if [ "$(id -u)" != 0 ]; then
	check_dir "a directory not writable" 2 "$d/ok: not writable: Permission denied" "$bin" --param dir="$d/ok"
elif command -v setpriv >/dev/null; then
	chmod 755 "$d"
	cp "$bin" "$d/" && chmod 755 "$d/read1_processes"
	check_dir "a directory not writable (as nobody)" 2 "$d/ok: not writable: Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$d/read1_processes" --param dir="$d/ok"
else
	for i in 1 2 3 4; do skip "root without setpriv: cannot test an unwritable directory"; done
fi
chmod 755 "$d/ok"

# read-only, wrong filesystem, no O_DIRECT: private mounts (root only)
if unshare -m true 2>/dev/null; then
	inns() { unshare -m sh -c 'mount -t "$1" -o "$2" "$1" "$3" && shift 3 && exec "$@"' sh "$@"; }
	check_dir "a read-only filesystem" 2 "$d/ok: not writable: Read-only file system" \
		inns tmpfs ro,size=1m "$d/ok" "$bin" --param dir="$d/ok"
	if ! linux_only; then
		# fallocate1 and read3 are Linux-only testcases: not in this build
		for i in $(seq 9); do skip "fallocate1 and read3: Linux-only testcases (SB_OS=${SB_OS-})"; done
	else
	check_dir "fallocate1 on ramfs" 2 "^fallocate1_processes: $d/ok is on ramfs, not tmpfs, which this testcase measures \(choose another with --param dir\)$" \
		inns ramfs rw "$d/ok" "$B/bin/fallocate1_processes" --param dir="$d/ok"
	check_dir "read3 on ramfs" 2 "^read3_threads: O_DIRECT not supported on ramfs at $d/ok \(choose another with --param dir\)$" \
		inns ramfs rw "$d/ok" "$B/bin/read3_threads" --param dir="$d/ok"
	run inns tmpfs size=1m "$d/ok" "$B/bin/fallocate1_processes" --param dir="$d/ok" --check
	is "$rc:$err" "0:" "fallocate1 on tmpfs passes --check"
	fi
else
	for i in $(seq 13); do skip "needs root and unshare for private mounts"; done
fi

# a good place passes, and --check makes nothing there
run "$bin" --check --param dir="$d/ok"
is "$rc:$out:$err" "0::" "a usable directory passes --check silently"
is "$(ls -A "$d/ok")" "" "--check leaves nothing in it"
done_testing() { echo "1..$_n"; exit "$_failed"; }
done_testing
