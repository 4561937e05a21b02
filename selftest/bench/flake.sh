#!/usr/bin/env bash
# Flakes, measured: the whole `make check` K times from a fresh clone of HEAD, quiet and beside N busy
# loops, and a table of the failures per file (which file, which test number, how often).
#
# Not run by make check (each pass is a whole make check: minutes). For every pass:
#   quiet   make check alone
#   busy    make check with N busy loops (sh: while :; do :; done) beside it, killed after
# A pass's TAP output is kept under the work directory (pass-<k>-<quiet|busy>.log); the table
# counts every "not ok" line and every file prove reports as failed (a crash, a bad plan).
set -eu

PROG=flake.sh
W='' busy_pids=()

usage() {
	cat <<EOF
usage: selftest/bench/flake.sh [-k K] [-n N] [--only quiet|busy] [--keep] [-- MAKE_ARGS...]
The whole make check K times (default 3) from a fresh clone of HEAD, quiet and beside N busy loops
(default: the number of CPUs); prints the failures per file and test number. MAKE_ARGS go to
make check (e.g. SAN=address,undefined). Exit 0: no failure; 1: some; 2: usage; 3: environment.
  --keep   keep the clone and the logs (printed); otherwise removed
EOF
}

die() { printf '%s: %s\n' "$PROG" "$2" >&2; exit "$1"; }

cleanup() {
	local p
	for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
	busy_pids=()
	if [ -n "$W" ] && [ "${keep:-0}" = 0 ]; then rm -rf -- "$W"; fi
}

# busy_start N: N busy loops in the background (their pids in busy_pids)
busy_start() {
	local i
	for ((i = 0; i < $1; i++)); do
		sh -c 'while :; do :; done' &
		busy_pids+=("$!")
	done
}

busy_stop() {
	local p
	for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
	busy_pids=()
}

# one_pass CLONE LOG MAKE_ARGS...: make check there (the short-run cache removed first: each pass
# makes its own runs), its output into LOG; prints its exit code and wall seconds
one_pass() {
	local clone=$1 log=$2 t0 rc=0
	shift 2
	rm -rf -- "$clone"/build*/shortruns
	t0=$(date +%s)
	(cd "$clone" && make check "$@") >"$log" 2>&1 || rc=$?
	printf '%s %s\n' "$rc" $(($(date +%s) - t0))
}

# failures LOG KIND: "KIND FILE TEST" lines, one per failed test number in prove's summary report
# ("Failed tests: 3, 5-7" expanded); TEST "exit" for a file that failed with no failed test (a
# crash, a bad plan, a non-zero exit alone)
failures() {
	awk -v kind="$2" '
		function flush() { if (file != "" && !listed) print kind, file, "exit"; file = "" }
		/^selftest\/[^ ]+\.t +\(Wstat: / { flush(); file = $1; listed = 0; next }
		file != "" && /^ +Failed tests?: / {
			sub(/^ +Failed tests?: +/, "")
			n = split($0, parts, /, */)
			for (i = 1; i <= n; i++) {
				if (split(parts[i], r, "-") == 2) { for (t = r[1]; t <= r[2]; t++) print kind, file, t }
				else print kind, file, parts[i]
			}
			listed = 1
			next
		}
		file != "" && /^[^ ]/ { flush() }
		END { flush() }' "$1"
}

main() {
	local k=3 n='' only='' i kind log res rc secs clone
	local -a make_args=()
	while [ $# -gt 0 ]; do
		case $1 in
		-k) [ $# -ge 2 ] || die 2 "-k needs a number"; k=$2; shift 2 ;;
		-n) [ $# -ge 2 ] || die 2 "-n needs a number"; n=$2; shift 2 ;;
		--only) [ $# -ge 2 ] || die 2 "--only needs quiet or busy"; only=$2; shift 2 ;;
		--keep) keep=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; make_args=("$@"); break ;;
		*) die 2 "unknown argument '$1' (try '$PROG --help')" ;;
		esac
	done
	case $k in '' | *[!0-9]* | 0) die 2 "-k '$k': a whole number of passes, at least 1" ;; esac
	n=${n:-$(nproc)}
	case $n in '' | *[!0-9]*) die 2 "-n '$n': a whole number of busy loops" ;; esac
	case $only in '' | quiet | busy) ;; *) die 2 "--only '$only': quiet or busy" ;; esac
	command -v git >/dev/null || die 3 "git is needed (a fresh clone of HEAD)"
	cd "$(dirname "$0")/../.."
	W=$(mktemp -d)
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	clone=$W/clone
	git clone -q --no-hardlinks . "$clone" || die 3 "cannot clone $(pwd) into $clone"
	printf '# flake.sh: make check %s from a fresh clone of %s, %d pass(es), busy loops %d\n' \
		"${make_args[*]-}" "$(git rev-parse --short HEAD)" "$k" "$n"
	: >"$W/failures"
	(cd "$clone" && make -j2 all fixtures "${make_args[@]}") >"$W/build.log" 2>&1 ||
		die 3 "the build failed in the clone (its log: $W/build.log; --keep keeps it)"
	for ((i = 1; i <= k; i++)); do
		for kind in quiet busy; do
			[ -z "$only" ] || [ "$only" = "$kind" ] || continue
			log=$W/pass-$i-$kind.log
			[ "$kind" = busy ] && busy_start "$n"
			res=$(one_pass "$clone" "$log" "${make_args[@]}")
			[ "$kind" = busy ] && busy_stop
			rc=${res% *} secs=${res#* }
			printf '# pass %d %s: make check exit %s, %s s\n' "$i" "$kind" "$rc" "$secs"
			failures "$log" "$kind" >"$W/these"
			if [ "$rc" != 0 ] && ! [ -s "$W/these" ]; then
				printf '%s make-check exit-%s\n' "$kind" "$rc" >"$W/these"
			fi
			cat "$W/these" >>"$W/failures"
		done
	done
	echo "kind   failed/passes  file  test"
	if [ -s "$W/failures" ]; then
		sort "$W/failures" | uniq -c | sort -rn |
			awk -v k="$k" '{ printf "%-6s %d/%d  %s  %s\n", $2, $1, k, $3, $4 }'
	else
		echo "(no failure)"
	fi
	if [ "${keep:-0}" = 1 ]; then echo "# kept: $W"; fi
	[ ! -s "$W/failures" ]
}

main "$@"
