#!/usr/bin/env bash
# The prepare-signal loop: runtest.sh interrupted while its runner waits in testcase_prepare, N times; counts the runs that ended 130 "interrupted" with nothing left, and those that hung.
#
# Not run by make check. Each iteration is fault_matrix.t's case "signal:
# runtest.sh SIGINT in the runner's prepare" (point 1 done, the runner of
# point 2 held in the phases fixture's prepare), alternating SIGINT and
# SIGTERM; --busy K runs K busy loops beside it (a loaded machine made the
# signal land while the runner was runnable but not asleep). A run still alive
# after 60 s counts as hung (then killed). Exit 1 when any run hung or ended
# otherwise.
set -eu

PROG=prepare_signal.sh
W='' busy_pids=()

usage() {
	cat <<EOF
usage: selftest/bench/prepare_signal.sh [--runs N] [--busy K]
  --runs N   iterations (default 20)
  --busy K   busy loops beside it (default 0)
EOF
}

die() { printf '%s: %s\n' "$PROG" "$2" >&2; exit "$1"; }

cleanup() {
	local p
	for p in "${busy_pids[@]}"; do { kill -KILL "$p" && wait "$p"; } 2>/dev/null || true; done
	if [ -n "$W" ]; then
		for p in $(pgrep -f -- "$W/" || true); do kill -KILL "$p" 2>/dev/null || true; done
		rm -rf -- "$W"
	fi
}

# one SIG: one interrupted sweep -> prints "ok", "hung", or "bad RC LINE"
one() {
	local sig=$1 pid rc=0 i
	rm -rf -- "$W/r" "$W/mark"
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		./runtest.sh phases --mode processes --points 1,2 --param hold=prepare --param from=2 \
		--param mark="$W/mark" --duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet \
		--results "$W/r" >"$W/out" 2>"$W/err" &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		[ ! -e "$W/mark" ] || break
		sleep 0.1
	done
	kill -"$sig" "$pid"
	for ((i = 0; i < 600; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null || true
		for i in $(pgrep -f -- "$W/bin/" || true); do kill -KILL "$i" 2>/dev/null || true; done
		wait "$pid" 2>/dev/null || true
		echo hung
		return 0
	fi
	wait "$pid" 2>/dev/null || rc=$?
	for ((i = 0; i < 150; i++)); do	# the janitors finish after runtest.sh by design
		if ! pgrep -f -- "$W/bin/" >/dev/null && [ -z "$(ls -A "$W/tmp")" ]; then break; fi
		sleep 0.1
	done
	if [ "$rc" = 130 ] && [ "$(cat "$W/err")" = "runtest.sh: interrupted" ] && [ "$i" -lt 150 ]; then
		echo ok
	else
		echo "bad $rc $(tail -n 1 "$W/err") left: $(pgrep -f -- "$W/bin/" | tr '\n' ' ')$(ls -A "$W/tmp" | tr '\n' ' ')"
	fi
}

main() {
	local runs=20 busy=0 r k sig res good=0 hung=0 bad=0
	while [ $# -gt 0 ]; do
		case $1 in
		--runs) runs=${2:?}; shift 2 ;;
		--busy) busy=${2:?}; shift 2 ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
	done
	cd "$(dirname "$0")/../.."
	B=${SB_BUILD:-build}
	make -s fixtures >/dev/null || die 3 "make fixtures failed"
	W=$(mktemp -d)
	trap cleanup EXIT
	mkdir "$W/bin" "$W/tmp"
	cp -- "$B"/selftest/phases_{processes,threads} "$W/bin/"
	export TMPDIR=$W/tmp SB_TESTS_DIR=$W/bin
	for ((k = 0; k < busy; k++)); do
		(while :; do :; done) &
		busy_pids+=($!)
	done
	for ((r = 0; r < runs; r++)); do
		if [ $((r % 2)) = 0 ]; then sig=INT; else sig=TERM; fi
		res=$(one "$sig" 2>/dev/null)
		case $res in
		ok) good=$((good + 1)) ;;
		hung) hung=$((hung + 1)); echo "run $((r + 1)) (SIG$sig): hung" ;;
		*) bad=$((bad + 1)); echo "run $((r + 1)) (SIG$sig): $res" ;;
		esac
	done
	echo "prepare-signal: $runs runs, busy loops $busy: $good ended 130 'interrupted' with nothing left, $hung hung, $bad otherwise"
	[ "$hung" = 0 ] && [ "$bad" = 0 ]
}

main "$@"
