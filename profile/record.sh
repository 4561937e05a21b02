# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# profile/record.sh: runtest.sh --profile: perf checks, one extra run per chosen point under perf, its files.
#
# Sourced by runtest.sh (it uses run_once, write_file, note, warn, die and the
# sweep's variables). Formats and numbers come from sb-profile; this file only
# runs perf and the runner and puts the files in place. docs/PROFILE.md.

PROFILE_SCRIPT_FIELDS=comm,tid,period,event,ip,sym,dso	# what sb-profile script reads
PROFILE_FREQ=999	# samples per second and CPU: a third of perf's default, less perturbation
profile_pid=''		# the perf recording now, for on_exit

# profile_plan: every task count of --profile is a point of the sweep (after plan_points)
profile_plan() {
	local item
	[ -n "${opt_profile-}" ] || return 0
	IFS=, read -ra item <<<"$opt_profile"
	for item in "${item[@]}"; do
		case $item in peak | max) continue ;; esac
		[[ " ${points_list[*]} " == *" $item "* ]] ||
			usage_error "--profile: $item tasks is not a point of the sweep ($points_csv)"
	done
}

sysctl_value() {	# sysctl_value NAME: kernel.NAME's value, empty when unreadable (SB_SYSCTL_DIR: tests)
	cat "${SB_SYSCTL_DIR:-/proc/sys/kernel}/$1" 2>/dev/null || true
}

# profile_preflight: perf can record system-wide with call chains, before any
# point runs; else exit 3 naming the fix -> profile_event, profile_locks (tool_profile: build_tools')
profile_preflight() {
	local err paranoid kptr ev probe=$TMP/probe.data
	[ -n "${opt_profile-}" ] || return 0
	command -v perf >/dev/null 2>&1 ||
		die 3 "--profile: perf not found: install the package linux-perf (Debian; perf on Fedora), or run 'make deps'"
	if ! err=$(perf --version 2>&1); then
		die 3 "--profile: perf does not run ($(reason "${err%%$'\n'*}")): install linux-perf for the running kernel ($(uname -r))"
	fi
	paranoid=$(sysctl_value perf_event_paranoid)
	if ! err=$(perf record -q -a -g -e cycles -o "$probe" -- sleep 0.1 2>&1 >/dev/null) ||
		! ev=$(perf evlist -i "$probe" 2>/dev/null | head -n 1) || [ -z "$ev" ]; then
		if [ -n "$paranoid" ] && [ "$paranoid" -gt 0 ] 2>/dev/null; then
			die 3 "--profile: perf cannot record system-wide: kernel.perf_event_paranoid is $paranoid: run 'sysctl kernel.perf_event_paranoid=-1' as root, or run as root"
		fi
		die 3 "--profile: perf record -a failed: $(reason "${err##*$'\n'}") (run as root, or 'sysctl kernel.perf_event_paranoid=-1')"
	fi
	# perf falls back to cpu-clock itself where there is no PMU: what it recorded is the event
	case $ev in
	*cycles*) profile_event=cycles ;;
	*) profile_event=cpu-clock ;;
	esac
	kptr=$(sysctl_value kptr_restrict)
	if [ "$kptr" = 2 ] || { [ "$kptr" = 1 ] && [ "$(id -u)" != 0 ]; }; then
		warn "warning: --profile: kernel.kptr_restrict is $kptr: kernel symbols will not resolve (profiles keep addresses); 'sysctl kernel.kptr_restrict=0' as root fixes it"
	fi
	profile_locks=''
	if perf lock record -a -o "$TMP/lock.probe" -- sleep 0.05 >/dev/null 2>&1 &&
		perf lock contention -i "$TMP/lock.probe" -E 1 >/dev/null 2>&1; then
		profile_locks=perf-lock
	elif [ -r /proc/lock_stat ] && [ -w /proc/lock_stat ]; then
		profile_locks=lock_stat
	elif [ -e /proc/lock_stat ]; then
		note "note: --profile: no lock contention: /proc/lock_stat is not writable (run as root) and perf lock has no lock tracepoints"
	else
		note "note: --profile: no lock contention: perf lock finds no lock:contention_begin tracepoint and there is no /proc/lock_stat (CONFIG_LOCK_STAT)"
	fi
	rm -f -- "$probe" "$TMP/lock.probe"
	note "note: --profile $opt_profile: one extra run per point and mode under perf ($profile_event)${profile_locks:+, one more for lock contention ($profile_locks)}"
	readonly profile_event profile_locks
}

profile_stop() {	# the perf recording ends (SIGTERM: perf writes its file and exits)
	if [ -n "$profile_pid" ]; then
		kill -TERM "$profile_pid" 2>/dev/null || true
		# no wait without a limit: PERF_GRACE_MS to write its file, then SIGKILL
		stopped_note=''
		stop_child "$profile_pid" "$PERF_GRACE_MS" "perf"
		if [ -n "$stopped_note" ]; then warn "$stopped_note"; fi
		profile_pid=''
	fi
}

# profile_run TEST MODE TASKS CMD...: one runner run with CMD (a perf recorder
# for a command) around it; the runner's rows in $TMP/point -> RUN_STATUS
profile_run() {
	local t=$1 m=$2 n=$3
	shift 3
	: >"$TMP/point"
	# (perf ends by itself, after sb-plan's guard, if this script dies)
	{ "$@" -- sleep "$plan_perf_guard" >/dev/null 2>"$TMP/perf.err" & } 2>/dev/null
	profile_pid=$!
	sleep 1	# perf's start: it reads every process's maps before it records
	if [ "$interrupted" = 1 ]; then
		profile_stop
		RUN_STATUS=130
		return
	elif ! kill -0 "$profile_pid" 2>/dev/null; then
		profile_pid=''
		RUN_STATUS=1 RUN_ERROR="perf stopped: $(reason "$(cat "$TMP/perf.err")")"
		return
	fi
	run_once "$t" "$m" "$n" 1
	profile_stop
}

# profile_locks_run TEST MODE TASKS DIR: the top contended locks of one more run into DIR/locks.txt
profile_locks_run() {
	local data=$TMP/lock.data
	case ${profile_locks-} in
	perf-lock)
		profile_run "$1" "$2" "$3" perf lock record -a -o "$data"
		if [ "$RUN_STATUS" = 0 ]; then
			# perf lock prints its table on stderr
			if ! perf lock contention -i "$data" -E 20 >"$4/locks.txt" 2>&1; then
				warn "warning: $1: $2 at $3 tasks: perf lock contention failed: $(reason "$(cat "$4/locks.txt")")"
				rm -f -- "$4/locks.txt"
			fi
		fi
		rm -f -- "$data"
		;;
	lock_stat)
		if printf '0\n' >/proc/lock_stat 2>/dev/null; then
			: >"$TMP/point"
			run_once "$1" "$2" "$3" 1
			# the kernel's own table, its most contended classes first
			if [ "$RUN_STATUS" = 0 ]; then head -n 60 /proc/lock_stat >"$4/locks.txt" 2>/dev/null || true; fi
		fi
		;;
	esac
}

profile_comm() {	# profile_comm TEST MODE: the testcase tasks' command name as the kernel keeps it (15 bytes)
	local c=${1}_$2
	printf '%s' "${c:0:15}"
}

# profile_point TEST MODE TASKS: one extra run under perf into
# RUNDIR/profile/MODE-TASKS/ (complete or absent); its rows never reach samples.csv
profile_point() {
	local t=$1 m=$2 n=$3 final=$run_dir/profile/$2-$3 dir err rc=0
	dir=$run_dir/profile/.$m-$n.$$.tmp
	rm -rf -- "$dir"
	mkdir -p -- "$dir" 2>/dev/null || die 3 "cannot create $(shown "$dir")"
	profile_run "$t" "$m" "$n" perf record -q -a -g -e "$profile_event" -F "$PROFILE_FREQ" -o "$TMP/perf.data"
	if [ "$RUN_STATUS" = 130 ]; then
		rm -rf -- "$dir" "$TMP/perf.data"
		return
	elif [ "$RUN_STATUS" != 0 ]; then
		warn "warning: $t: $m at $n tasks: the profiled run failed, no profile: $RUN_ERROR"
		rm -rf -- "$dir" "$TMP/perf.data"
		return
	fi
	# the profiled run's own rows and rate, beside the run's (never in its samples.csv)
	{ samples_header "$t" && cat -- "$TMP/point"; } >"$dir/samples.csv"
	err=$("$tool_summary" -o "$dir/summary.csv" "$dir/samples.csv" 2>&1) ||
		die 3 "$t: $m at $n tasks: sb-summary of the profiled run failed: $(reason "$err")"
	err=$("$tool_profile" rate -o "$dir/rate" "$run_dir/summary.csv" "$dir/summary.csv" "$m" "$n" 2>&1) ||
		die 3 "$t: $m at $n tasks: $(reason "$err")"
	printf '%s\n' "$profile_event" >"$dir/event"
	: >"$TMP/script.err"
	{ perf script -i "$TMP/perf.data" -F "$PROFILE_SCRIPT_FIELDS" 2>>"$TMP/script.err" ||
		echo "perf script failed (exit status $?)" >>"$TMP/script.err"; } |
		"$tool_profile" script -e "$profile_event" -c "$(profile_comm "$t" "$m")" -o "$dir" - 2>"$TMP/profile.err" || rc=$?
	if [ "$rc" != 0 ] || grep -q '^perf script failed' "$TMP/script.err"; then
		if [ -s "$TMP/profile.err" ]; then err=$(cat "$TMP/profile.err"); else err=$(cat "$TMP/script.err"); fi
		warn "warning: $t: $m at $n tasks: no profile: ${err#sb-profile: }"
		rm -rf -- "$dir" "$TMP/perf.data"
		return
	fi
	if [ -s "$TMP/profile.err" ]; then warn "$t: $m at $n tasks: $(sed 's/^sb-profile: //' "$TMP/profile.err")"; fi
	if [ "${opt_profile_keep:-0}" = 1 ]; then
		mv -f -- "$TMP/perf.data" "$dir/perf.data"
	else
		rm -f -- "$TMP/perf.data"
	fi
	profile_locks_run "$t" "$m" "$n" "$dir"
	if [ "$RUN_STATUS" = 130 ]; then
		rm -rf -- "$dir"
		return
	fi
	rm -rf -- "$final"
	mv -T -- "$dir" "$final" || die 3 "cannot write $(shown "$final")"
}

# profile_testcase TEST STATUS_VAR: after its measured points, the chosen ones
# of each mode; STATUS_VAR becomes "interrupted" when a signal stops them
profile_testcase() {
	local t=$1 m n why modes points
	[ -n "${opt_profile-}" ] || return 0
	IFS=, read -ra modes <<<"${t_run_modes[$t]}"
	for m in "${modes[@]}"; do
		points=$("$tool_profile" points "$run_dir/summary.csv" "$m" "$opt_profile") ||
			die 3 "$t: cannot choose the points to profile"
		# a line a count; the peak's adds its plateau after a tab (the best count is profiled)
		while IFS=$'\t' read -r n why <&3; do
			[ -n "$n" ] || continue
			if [ "$interrupted" = 1 ]; then break 2; fi
			note "$t: profiling $m at $n tasks (one extra run under perf, $profile_event)${why:+; $why}"
			profile_point "$t" "$m" "$n"
		done 3<<<"$points"
	done
	if [ "$interrupted" = 1 ]; then printf -v "$2" '%s' interrupted; fi
}

# profile_report RUNDIR: one line per profiled point: event, rate, top symbols
profile_report() {
	local d line name
	[ -n "${opt_profile-}" ] || return 0
	for d in "$1"/profile/*-*/; do
		[ -f "$d/top.csv" ] || continue
		name=${d%/}
		name=${name##*/}
		line=$("$tool_profile" summary -n 3 "$d" 2>&1) || line="(unreadable: $(reason "$line"))"
		printf '  profile %s at %s tasks: %s\n' "${name%-*}" "${name##*-}" "${line//$'\n'/$'\n'    }"
		if [ -s "$d/locks.txt" ]; then printf '    lock contention: %s\n' "$(shown "${d%/}")/locks.txt"; fi
	done
}
