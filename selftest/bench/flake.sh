#!/usr/bin/env bash
# Flakes, measured: the whole `make check` K times, each from a fresh clone of HEAD, quiet and beside
# N busy loops, and a table of the failures per file (which file, which test number, how often).
#
# Not run by make check (each pass is a whole make check: minutes). For every pass:
#   quiet   make check alone
#   busy    make check with N busy loops (sh: while :; do :; done) beside it, killed after
# Each pass clones HEAD anew and its make check builds everything, as CI does (--reuse: one clone,
# built once before the passes, the short-run cache removed between them).
# A pass's TAP output is kept under the work directory (pass-<k>-<quiet|busy>.log); the table
# counts every "not ok" line and every file prove reports as failed (a crash, a bad plan).
set -eu

PROG=flake.sh
W='' busy_pids=()

usage() {
	cat <<EOF
usage: selftest/bench/flake.sh [-k K] [-n N] [--only quiet|busy] [--reuse] [--keep] [-- MAKE_ARGS...]
The whole make check K times (default 3), each from a fresh clone of HEAD, quiet and beside N busy
loops (default: the number of CPUs); prints the failures per file and test number. MAKE_ARGS go to
make check (e.g. SAN=address,undefined). Exit 0: no failure; 1: some; 2: usage; 3: environment.
  --reuse  one clone, built before the passes (the build not timed), not one clone a pass
  --keep   keep the clones and the logs (printed); otherwise removed
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

# one_pass CLONE LOG MAKE_ARGS...: make check in CLONE (a fresh clone is made there if it does not
# exist; in a reused one the short-run cache is removed: each pass makes its own runs), its output
# into LOG; prints its exit code and wall seconds (the clone not counted)
one_pass() {
	local clone=$1 log=$2 t0 rc=0
	shift 2
	if [ -d "$clone" ]; then
		rm -rf -- "$clone"/build*/shortruns
	else
		if ! git clone -q --no-hardlinks . "$clone" >"$log" 2>&1; then
			echo "3 0"
			return 0
		fi
	fi
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
	local k=3 n='' only='' reuse=0 i kind log res rc secs clone
	local -a make_args=()
	while [ $# -gt 0 ]; do
		case $1 in
		-k) [ $# -ge 2 ] || die 2 "-k needs a number"; k=$2; shift 2 ;;
		-n) [ $# -ge 2 ] || die 2 "-n needs a number"; n=$2; shift 2 ;;
		--only) [ $# -ge 2 ] || die 2 "--only needs quiet or busy"; only=$2; shift 2 ;;
		--keep) keep=1; shift ;;
		--reuse) reuse=1; shift ;;
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
	printf '# flake.sh: make check %s from %s of %s, %d pass(es), busy loops %d\n' \
		"${make_args[*]-}" "$([ "$reuse" = 1 ] && echo "one clone" || echo "a fresh clone a pass")" \
		"$(git rev-parse --short HEAD)" "$k" "$n"
	: >"$W/failures"
	if [ "$reuse" = 1 ]; then
		clone=$W/clone
		git clone -q --no-hardlinks . "$clone" || die 3 "cannot clone $(pwd) into $clone"
		(cd "$clone" && make -j2 all fixtures "${make_args[@]}") >"$W/build.log" 2>&1 ||
			die 3 "the build failed in the clone (its log: $W/build.log; --keep keeps it)"
	fi
	for ((i = 1; i <= k; i++)); do
		for kind in quiet busy; do
			[ -z "$only" ] || [ "$only" = "$kind" ] || continue
			log=$W/pass-$i-$kind.log
			[ "$reuse" = 1 ] || clone=$W/clone-$i-$kind
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
			[ "$reuse" = 1 ] || [ "${keep:-0}" = 1 ] || rm -rf -- "$clone"
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
