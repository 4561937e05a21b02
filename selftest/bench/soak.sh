#!/usr/bin/env bash
# Soak: hundreds of short runner runs and tiny sweeps, killed at random moments or given bad input; after each, nothing left and nothing earlier damaged.
#
# Not run by make check (minutes). Every iteration is one of:
#   run    a runner alone (getppid1, unix4: a private directory and partners,
#          context_switch1: partners), maybe killed (SIGINT/SIGTERM/SIGKILL) at a random moment
#   sweep  runtest.sh on a tiny sweep, maybe with runtest.sh or its runner killed at a random moment
#   bad    a bad option, parameter or environment variable, to the runner or runtest.sh
# and after each: no process of the soak's binaries or runtest.sh (polled up to 15 s),
# nothing in its TMPDIR, no temporary file in its results, the exit code one the
# documented ones allow, every meta status final, and every run completed so far
# byte-identical to the checksum taken when it completed, with the same
# sb-summary --table (and its summary.csv still what sb-summary makes of its samples.csv).
set -eu

PROG=soak.sh
W=''

usage() {
	cat <<EOF
usage: selftest/bench/soak.sh [--iterations N] [--seed S]
Random kills and bad inputs against the runner and runtest.sh; exit 1 on any leak.
  --iterations N   how many (default 300)
  --seed S         the random sequence (default: the time); the same S replays it
EOF
}

die() { printf '%s: %s\n' "$PROG" "$2" >&2; exit "$1"; }

cleanup() {
	if [ -n "$W" ]; then
		pkill_ours
		rm -rf -- "$W"
	fi
}

# pkill_ours: ends what this soak started and left (by the marker path in argv)
pkill_ours() {
	local p
	for p in $(pgrep -f -- "$W/" || true); do kill -KILL "$p" 2>/dev/null || true; done
}

pick() { printf -v "$1" '%d' $((RANDOM % $2)); }	# pick VAR N: 0..N-1 into VAR

# delay VAR MAX_MS: a random moment "S.mmm" seconds into VAR
delay() { local ms; pick ms "$2"; printf -v "$1" '%d.%03d' $((ms / 1000)) $((ms % 1000)); }

ours() { pgrep -f -- "$W/" | tr '\n' ' '; }

# wait_for SECONDS CMD...: poll CMD every 0.05 s until it succeeds
wait_for() {
	local i
	for ((i = 0; i < $1 * 20; i++)); do
		if "${@:2}"; then return 0; fi
		sleep 0.05
	done
	return 1
}
nothing_running() { [ -z "$(ours)" ]; }

# run_bg VAR CMD...: CMD in the background, its pid in VAR; job notices stay quiet
run_bg() {
	"${@:2}" >"$W/out" 2>"$W/err" &
	printf -v "$1" '%d' $!
}

# reap PID -> rc
reap() { rc=0; wait "$1" 2>/dev/null || rc=$?; }

# runner_pid: the runner runtest.sh started (its --run option), if any
runner_pid() { pgrep -o -f -- "$W/bin/.* --run [0-9]" || true; }

# ---- the checks after each iteration ----

# expect LIST: the exit code must be one of LIST (or 1 for a run that counted nothing:
# a starved machine, the documented measurement failure)
expect() {
	if [ "$rc" = 1 ] && grep -q 'no progress: no task counted an operation' "$W/err"; then
		starved=$((starved + 1))
		return
	fi
	case " $1 " in *" $rc "*) ;; *)
		wrong=$((wrong + 1))
		printf '%s: iteration %d (%s): exit %d, expected one of %s: %s\n' "$PROG" "$iter" "$what" "$rc" "$1" \
			"$(head -c 300 "$W/err" | tr '\n' ' ')" >&2 ;;
	esac
}

leak() {	# leak KIND MESSAGE
	leaks=$((leaks + 1))
	printf '%s: iteration %d (%s): %s: %s\n' "$PROG" "$iter" "$what" "$1" "$2" >&2
}

run_sum() {	# run_sum DIR: its checksum, its table, and whether its summary still follows from its samples
	(cd "$1" && sha256sum meta samples.csv summary.csv) &&
		"$B/bin/sb-summary" --table "$1" &&
		"$B/bin/sb-summary" "$1/samples.csv" | cmp -s - "$1/summary.csv" && echo summary-agrees
}

check_after() {
	local left d st f n
	if ! wait_for 15 nothing_running; then
		leak process "$(ps -o pid=,args= -p "$(ours | tr ' ' ',' | sed 's/,$//')" 2>/dev/null | head -n 3 | tr '\n' ';')"
		pkill_ours
	fi
	left=$(find "$W/tmp" -mindepth 1 -maxdepth 1 -printf '%f ')
	if [ -n "$left" ]; then
		leak tmp "left in TMPDIR: $left"
		rm -rf -- "${W:?}"/tmp/*
	fi
	left=$(find "$W/res" -name '.*' -printf '%P ')
	if [ -n "$left" ]; then	# (reported once: moved out of the way)
		leak tempfile "left in results: $left"
		find "$W/res" -name '.*' -exec mv -t "$W/leftovers" {} +
	fi
	for d in "$W"/res/*/*/; do
		[ -d "$d" ] && [ ! -L "${d%/}" ] || continue
		n=${d%/}
		n=${n#"$W"/res/}
		n=${n//\//_}	# test_runid: two testcases' runs may share an id (same second)
		if [ -e "$W/sums/$n" ]; then
			if ! run_sum "$d" 2>/dev/null | cmp -s - "$W/sums/$n"; then
				damaged=$((damaged + 1))
				printf '%s: iteration %d (%s): the completed run %s changed\n' "$PROG" "$iter" "$what" "$n" >&2
				run_sum "$d" >"$W/sums/$n" 2>/dev/null || true
			fi
			continue
		fi
		st=$(sed -n 's/^status=//p' "$d/meta" 2>/dev/null || true)
		case $st in
		complete) run_sum "$d" >"$W/sums/$n" 2>/dev/null || leak damage "$n: complete but its summary does not follow from its samples"
			completed=$((completed + 1)) ;;
		failed | interrupted) ;;
		running)	# nothing runs any more (even a SIGKILLed runtest.sh's janitor marks it)
			if [ -z "${badmeta[$n]+x}" ]; then badmeta[$n]=1; leak status "$n: meta still says running"; fi ;;
		*) if [ -z "${badmeta[$n]+x}" ]; then badmeta[$n]=1; leak status "$n: meta status '$st'"; fi ;;
		esac
	done
	f=$(find "$W/res" -type f -size 0 -printf '%P ')
	if [ -n "$f" ]; then
		leak tempfile "empty files in results: $f"
		find "$W/res" -type f -size 0 -exec mv -t "$W/leftovers" {} +
	fi
}

# ---- the iterations ----

SIGS=(INT TERM KILL)

one_run() {	# a runner alone, maybe killed
	local bins=(getppid1 unix4 context_switch1) modes=(processes threads) b m t s k sig pid at
	pick b 3; pick m 2; pick t 2; pick s 4; pick k 4
	b=${bins[$b]} m=${modes[$m]}
	what="run $b $m -t $((t + 1))"
	runs=$((runs + 1))
	run_bg pid env TMPDIR="$W/tmp" "$W/bin/${b}_$m" -t $((t + 1)) -s $((s + 2)) --warmup 0 --period-ms 100
	if [ "$k" = 3 ]; then
		reap "$pid"
		expect 0
		return
	fi
	sig=${SIGS[$k]}
	delay at 1500
	what="$what, SIG$sig at ${at}s"
	sleep "$at"
	kill -"$sig" "$pid" 2>/dev/null || true
	kills[$sig]=$((${kills[$sig]:-0} + 1))
	reap "$pid"
	# before its handlers are in place a SIGINT or SIGTERM may end it as the signal would
	case $sig in KILL) expect "0 137" ;; INT) expect "0 130" ;; TERM) expect "0 130 143" ;; esac
}

one_sweep() {	# runtest.sh on a tiny sweep, maybe with it or its runner killed
	local tests=(getppid1 unix4) pts=(1 1,2) modes=(processes threads both) t p m k who sig pid r at
	pick t 2; pick p 2; pick m 3; pick k 7
	what="sweep ${tests[$t]} --points ${pts[$p]} --mode ${modes[$m]}"
	sweeps=$((sweeps + 1))
	run_bg pid env TMPDIR="$W/tmp" SB_TESTS_DIR="$W/bin" SB_BUILD="$B" ./runtest.sh "${tests[$t]}" \
		--points "${pts[$p]}" --mode "${modes[$m]}" --duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet \
		--results "$W/res"
	if [ "$k" = 6 ]; then
		reap "$pid"
		expect 0
		return
	fi
	sig=${SIGS[$((k % 3))]}
	kills[$sig]=$((${kills[$sig]:-0} + 1))
	if [ "$k" -lt 3 ]; then
		delay at 3000
		what="$what, runtest.sh SIG$sig at ${at}s"
		sleep "$at"
		kill -"$sig" "$pid" 2>/dev/null || true
		reap "$pid"
		case $sig in KILL) expect "0 137" ;; *) expect "0 130" ;; esac
	else
		r=''
		wait_for 20 eval 'r=$(runner_pid); [ -n "$r" ] || ! kill -0 "$pid" 2>/dev/null' || true
		delay at 400
		what="$what, runner SIG$sig at ${at}s"
		sleep "$at"
		if [ -n "$r" ]; then kill -"$sig" "$r" 2>/dev/null || true; fi
		reap "$pid"
		# a runner killed by SIGKILL is a failed point (1); SIGINT/SIGTERM an interruption (130)
		case $sig in KILL) expect "0 1" ;; *) expect "0 130" ;; esac
	fi
}

one_bad() {	# a bad option, parameter or environment: exit 2 or 3 in one line, nothing made
	local i before after nlines
	local -a cmd
	: >"$W/empty"
	local -a cases=(
		"2|$W/bin/getppid1_processes -t 0 -s 1"
		"2|$W/bin/getppid1_threads --period-ms x -s 1"
		"2|$W/bin/unix4_processes --placement sideways -s 1"
		"2|$W/bin/getppid1_processes --param nosuch=1 -s 1"
		"2|$W/bin/read1_processes --param dir=$W/nonexist -t 1 -s 1"
		"2|env HWLOC_XMLFILE=$W/garbage $W/bin/getppid1_processes -t 1 -s 1"
		"2|env HWLOC_XMLFILE=$W/empty $W/bin/getppid1_processes -t 1 -s 1"
		"2|env HWLOC_XMLFILE=$W/bin $W/bin/getppid1_threads -t 1 -s 1"
		"2|env HWLOC_SYNTHETIC=pack:x $W/bin/getppid1_processes -t 1 -s 1"
		"2|env TMPDIR=$W/nonexist $W/bin/unix4_processes -t 1 -s 1"
		"2|env TMPDIR=$W/garbage $W/bin/unix4_threads -t 1 -s 1"
		"2|./runtest.sh getppid1 --points= --results $W/res"
		"2|./runtest.sh getppid1 --duration abc --results $W/res"
		"2|./runtest.sh getppid1 --mode sideways --results $W/res"
		"2|./runtest.sh getppid1 --label $(printf 'x%.0s' {1..240}) --results $W/res"
		"2|./runtest.sh read1 --points 1 --param dir=$W/nonexist --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
		"2|./runtest.sh getppid1 --points 1 --param nosuch=1 --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
		"3|env TMPDIR=$W/nonexist ./runtest.sh getppid1 --points 1 --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
		"3|env TMPDIR=$W/garbage ./runtest.sh getppid1 --points 1 --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
		"2|env HWLOC_XMLFILE=$W/garbage ./runtest.sh getppid1 --points 1 --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
		"2|env HWLOC_XMLFILE=$W/empty ./runtest.sh getppid1 --points 1 --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
		"2|env HWLOC_SYNTHETIC=pack:x ./runtest.sh getppid1 --points 1 --duration 0.2 --warmup 0 --period-ms 100 --results $W/res"
	)
	pick i ${#cases[@]}
	read -ra cmd <<<"${cases[$i]#*|}"
	what="bad #$i: ${cases[$i]#*|}"
	what=${what:0:120}
	bad=$((bad + 1))
	before=$(find "$W/res" -mindepth 2 -maxdepth 2 | wc -l)
	run_bg pid env TMPDIR="$W/tmp" SB_TESTS_DIR="$W/bin" SB_BUILD="$B" "${cmd[@]}"
	reap "$pid"
	expect "${cases[$i]%%|*}"
	nlines=$(wc -l <"$W/err")
	if [ "$nlines" != 1 ]; then
		wrong=$((wrong + 1))
		printf '%s: iteration %d (%s): %d lines on stderr: %s\n' "$PROG" "$iter" "$what" "$nlines" \
			"$(head -c 300 "$W/err" | tr '\n' '|')" >&2
	fi
	after=$(find "$W/res" -mindepth 2 -maxdepth 2 | wc -l)
	if [ "$after" != "$before" ]; then leak damage "a refused command made something in the results"; fi
}

main() {
	local iterations=300 seed kind sig
	seed=$(date +%s)
	while [ $# -gt 0 ]; do
		case $1 in
		--iterations) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die 2 "--iterations needs a whole number (try '$PROG --help')"
			iterations=$2; shift ;;
		--seed) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || die 2 "--seed needs a whole number (try '$PROG --help')"
			seed=$2; shift ;;
		-h | --help) usage; exit 0 ;;
		*) die 2 "unknown argument '$1' (try '$PROG --help')" ;;
		esac
		shift
	done
	cd "$(dirname "$0")/../.."
	B=${SB_BUILD:-build}
	make -s BUILD="$B" "$B/bin/sb-summary" "$B/bin/sb-topology" "$B"/bin/{getppid1,unix4,context_switch1,read1}_{processes,threads} \
		>/dev/null || die 3 "make failed"
	W=$(mktemp -d)
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
	mkdir "$W/bin" "$W/tmp" "$W/res" "$W/sums" "$W/leftovers"
	cp "$B"/bin/{getppid1,unix4,context_switch1,read1}_{processes,threads} "$W/bin/"
	echo 'not a topology' >"$W/garbage"
	unset HWLOC_XMLFILE HWLOC_SYNTHETIC HWLOC_THISSYSTEM SB_TESTS_DIR
	RANDOM=$seed
	runs=0 sweeps=0 bad=0 starved=0 leaks=0 wrong=0 damaged=0 completed=0
	declare -gA kills=() badmeta=()
	for ((iter = 1; iter <= iterations; iter++)); do
		pick kind 10
		if [ "$kind" -lt 4 ]; then one_run; elif [ "$kind" -lt 8 ]; then one_sweep; else one_bad; fi
		check_after
	done
	printf 'soak: seed %s, %d iterations: %d runner runs, %d sweeps, %d bad inputs\n' "$seed" "$iterations" "$runs" "$sweeps" "$bad"
	printf 'soak: kills: SIGINT %d, SIGTERM %d, SIGKILL %d\n' "${kills[INT]:-0}" "${kills[TERM]:-0}" "${kills[KILL]:-0}"
	printf 'soak: completed runs kept and rechecked: %d\n' "$completed"
	printf 'soak: runs that counted nothing (starved machine, exit 1): %d\n' "$starved"
	printf 'soak: leaks found: %d; damaged runs: %d; unexpected exits or messages: %d\n' "$leaks" "$damaged" "$wrong"
	[ "$leaks" = 0 ] && [ "$damaged" = 0 ] && [ "$wrong" = 0 ]
}

main "$@"
