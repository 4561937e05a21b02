# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/calibrate.sh: runtest.sh --calibrate: a few sweeps of one testcase, then the history's figures of its run noise and drift.
#
# Sourced by runtest.sh at the top of main; functions only, nothing runs here. Kalibera and Jones's
# dimensioning experiment: the sweeps go into the history like any other (they are labelled
# calibrate-N), and the history is what every later verdict learns the drift from.

# calibrate_main TEST [--sweeps K] [OPTION...]: K sweeps (default 4) of TEST with OPTIONs, one after
# the other, then `sb-history drift TEST`; exits as the first failed sweep, else as sb-history.
calibrate_main() {
	local test=${1-} k=4 args=() db='' results="$ROOT/results" i rc=0 tool
	[ -n "$test" ] && [ "${test#-}" = "$test" ] || usage_error "--calibrate needs a TESTCASE first"
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		--sweeps)
			[ $# -ge 2 ] || usage_error "--sweeps needs a number"
			case $2 in '' | *[!0-9]*) usage_error "--sweeps: '$2' is not a number of sweeps like 4" ;; esac
			[ "$2" -ge 2 ] && [ "$2" -le 100 ] || usage_error "--sweeps: '$2' is out of range (2 to 100)"
			k=$2
			shift 2
			continue
			;;
		--label | --label=* | --no-history | --kernel | --kernel=*)
			usage_error "--calibrate: $1 cannot be given (the sweeps are labelled calibrate-N and go into the history)"
			;;
		--dry-run | --list | -h | --help)	# (each sweep would only print, and the drift be the history's as it was)
			usage_error "--calibrate: $1 cannot be given (it runs its sweeps and adds them to the history)"
			;;
		--results) [ $# -ge 2 ] && results=$2 ;;
		--results=*) results=${1#--results=} ;;
		esac
		args+=("$1")
		shift
	done
	db=${SB_HISTORY:-$results/history.db}
	tool=$(calibrate_tool) || die 3 "cannot build sb-history"
	make_helpers	# (on_exit's stop_child: sb-workdir)
	for ((i = 1; i <= k; i++)); do
		note "calibrate: sweep $i of $k"
		# a job, not in the foreground: bash runs a trap only after its foreground child has
		# ended, so a SIGTERM to this script waited for the whole sweep; now on_exit stops it
		"$ROOT/${0##*/}" "$test" --label "calibrate-$i" "${args[@]}" &
		child=$!
		wait "$child" || rc=$?
		child=''
		[ "$rc" = 0 ] || exit "$rc"
	done
	note "calibrate: $k sweeps in one boot; for the drift across boots, reboot and run this again (the history keeps both)"
	exec "$tool" --db "$db" drift "$test"
}

# calibrate_tool: the path of sb-history: SB_BUILD's, made first as every other tool of a sweep is
# (runtest.sh's made; this read BUILD, which nothing sets, and so built and ran the plain build's
# under SB_BUILD=build-san, racing the sanitizer pool's other tests for build/), or the installed one
calibrate_tool() {
	local dir
	if [ -n "${SB_INSTALL-}" ]; then printf '%s\n' "$sb_tools/sb-history"; return; fi
	made dir sb-history
	printf '%s\n' "$dir/sb-history"
}
