# Shared by selftest/runtest_*.t (sourced, not run): TAP helpers, a private temp dir, the binaries.

cd "$(dirname "$0")/.." || exit 1
SB_BUILD=${SB_BUILD:-build}
export SB_BUILD
T=$(mktemp -d)
trap 'rm -rf -- "$T"' EXIT
unset SB_TESTS_DIR HWLOC_SYNTHETIC HWLOC_XMLFILE HWLOC_THISSYSTEM SB_MACHINE_ROOT SB_MACHINE_LOCK_HOLDER
# A machine lock of this test's own (test files run two at a time), and no busy
# warning: make check keeps the machine busy, and the tests count stderr lines; so
# a 10 ms probe, not 300 ms a sweep; no reference loop at a sweep's ends (twice
# 0.33 s a testcase; steadiness.t turns it on), 200 ms of it for --check-system.
export SB_MACHINE_LOCK=$T/machine.lock SB_MACHINE_BUSY_PCT=101 SB_MACHINE_PROBE_MS=10 SB_MACHINE_REFERENCE_MS=0 SB_MACHINE_STEADY_MS=200

tap_n=0
tap_failed=0

ok() {	# ok STATUS DESCRIPTION: STATUS 0 passes
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

is() {	# is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	fi
}

like() {	# like GOT REGEX DESCRIPTION
	if [[ $1 =~ $2 ]]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: /%s/\n' "$1" "$2"
	fi
}

# nap SECONDS: a sleep without a fork and an exec (for polls): a read that
# times out on a FIFO of this test's own, which nobody writes
mkfifo "$T/.nap" 2>/dev/null || true
nap() { if [ -p "$T/.nap" ]; then read -r -t "$1" <>"$T/.nap" || true; else sleep "$1"; fi; }
diag_file() {	# show a file as TAP comments
	sed 's/^/#   /' "$1"
}

# Build what the tests run (make check does it already; prove alone may not have).
need_build() {
	local targets=("$SB_BUILD/bin/sb-summary" "$SB_BUILD/bin/sb-topology" "$@")
	if ! make -s BUILD="$SB_BUILD" "${targets[@]}" >"$T/make.log" 2>&1; then
		echo "Bail out! make failed: $(tail -n 3 "$T/make.log" | tr '\n' ' ')"
		exit 1
	fi
}

# Copies of testcase binaries in $T/bin (SB_TESTS_DIR), so that pgrep -f "$T/bin/"
# finds this test's processes and nobody else's.
private_bins() {	# private_bins DIR NAME...
	local dir=$1 b
	shift
	mkdir -p "$T/bin"
	for b in "$@"; do
		cp "$dir/${b}_processes" "$dir/${b}_threads" "$T/bin/"
	done
}

# Fields of a CSV file's column by name: col FILE NAME
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		c { print $c }' "$1"
}

# The value of KEY in a meta file
meta() {
	sed -n "s/^$2=//p" "$1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
}
