# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# machine/machine.sh: one sweep at a time on a machine (the lock), the system check before a sweep, --tune.
#
# Sourced by runtest.sh (it uses note, warn, die, shown, meta_lines and the
# sweep's variables). What reads or changes the OS is sb-machine's
# (machine/cmd_machine.c); this file holds the lock's descriptor for the
# sweep's lifetime and puts the answers into meta. docs/RUNTEST.md, "One
# sweep at a time" and "The system check".

machine_lock_fd=''	# the descriptor that holds the lock (the kernel releases it when we die)
machine_lock_file=''
machine_locked=0	# the lock is ours (not merely opened while waiting)
machine_tune_file=''	# --tune's saved settings, restored by machine_release (or the janitor, or the next sweep)
m_system='' m_lock='' m_tune=''	# meta's system, lock, tune
m_ref_start='' m_ref_end=''	# meta's reference_start, reference_end (the testcase's; machine_reference)

machine_tool() {	# the path of sb-machine
	if [ -n "$SB_INSTALL" ]; then
		printf '%s/sb-machine' "$sb_tools"
	else
		printf '%s/bin/sb-machine' "$build_abs"
	fi
}

# machine_ms NAME DEFAULT: $NAME (DEFAULT when unset): the reference loop's milliseconds, 0 (none)
# or 10 to 60000 (10 slices of 1 ms at least); else exit 2 naming it
machine_ms() {
	local v=${!1-$2}
	case $v in '' | *[!0-9]* | 0[0-9]*) die 2 "$1: '$v' is not a whole number of milliseconds (0, or 10 to 60000)" ;; esac
	if [ "${#v}" -gt 5 ] || [ "$v" -gt 60000 ] || { [ "$v" != 0 ] && [ "$v" -lt 10 ]; }; then
		die 2 "$1: $v ms is not 0 (none) or 10 to 60000 (10 slices of 1 ms or more)"
	fi
	printf '%s' "$v"
}

# machine_check_system: ./runtest.sh --check-system: the full report, then how steady
# the machine runs (the reference loop for $SB_MACHINE_STEADY_MS, default 5 s), nothing changed
machine_check_system() {
	local dir ms out line
	[ $# = 0 ] || usage_error "--check-system takes no other argument"
	ms=$(machine_ms SB_MACHINE_STEADY_MS 5000) || exit
	made dir --installed "${sb_tools-}" sb-machine	# (runtest.sh's)
	"$dir/sb-machine" --as "$PROG" check || exit
	if [ "$ms" = 0 ]; then exit 0; fi
	printf '\nHow steady this machine runs: a fixed user-space CPU loop (no system call while timed),\n'
	printf '  %s s in 10 slices; shown, never used to correct a result (docs/RUNTEST.md "How steady the machine runs"):\n' \
		"$(awk -v ms="$ms" 'BEGIN { printf "%g", ms / 1000 }')"
	out=$("$dir/sb-machine" --as "$PROG" reference --ms "$ms" --slices 10) || exit
	while IFS= read -r line; do printf '  %s\n' "$line"; done <<<"$out"
	exit 0
}

# machine_reference VAR: the reference loop's reading as meta records it (reference_start,
# reference_end) into VAR: $SB_MACHINE_REFERENCE_MS (default 300) in 10 slices; empty when 0
# or when the loop could not run (a sweep goes on: the reading is evidence, not a measurement)
machine_reference() {
	local -n _ref=$1
	local ms
	_ref=''
	ms=$(machine_ms SB_MACHINE_REFERENCE_MS 300) || exit
	if [ "$ms" = 0 ]; then return 0; fi
	_ref=$("$(machine_tool)" --as "$PROG" reference --ms "$ms" --slices 10 --short 2>/dev/null) || _ref=''
}

# machine_hold: before the sweep: the machine lock (waiting for the sweep that
# holds it, or exit 3 with --no-wait), a killed sweep's --tune undone, --tune,
# and the short system check -> m_lock, m_tune, m_system; SB_MACHINE_LOCK_HOLDER
# for the runners (they warn about any other holder)
machine_hold() {
	local tool rc=0 line busy='' nowait=() parent=0
	machine_ms SB_MACHINE_REFERENCE_MS 300 >/dev/null || exit	# checked before anything waits or runs
	tool=$(machine_tool)
	[ -x "$tool" ] || die 3 "$(shown "$tool") is missing: run make"
	# its directory and the file made and checked (exit 3, one line, when another user could plant them)
	machine_lock_file=$("$tool" --as "$PROG" path) || exit 3
	machine_tune_file=$machine_lock_file.tuned
	if [ "$opt_no_lock" = 1 ]; then
		m_lock='none (--no-lock)'
	elif [ -n "${SB_MACHINE_LOCK_HOLDER-}" ] &&
		"$tool" holder --ours "$SB_MACHINE_LOCK_HOLDER" >/dev/null 2>&1; then
		# started by the sweep that holds the lock (a --kernel guest's sweep run on the
		# host by a stand-in for vm/boot.sh): it is ours, and so are the settings. Only
		# when that sweep holds the lock and is our ancestor: the variable alone is no lock.
		m_lock="held by the sweep that started this one, pid $SB_MACHINE_LOCK_HOLDER"
		parent=1
	else
		# read-only, never created here (sb-machine path made it; lock checks the descriptor)
		{ exec {machine_lock_fd}<"$machine_lock_file"; } 2>/dev/null ||
			die 3 "cannot open the machine lock $machine_lock_file"
		# in the background, so that a signal is handled at once (the tool dies with us)
		if [ "$opt_no_wait" = 1 ]; then nowait=(--no-wait); fi
		if [ "$opt_quiet" = 1 ]; then nowait+=(--quiet); fi
		"$tool" --as "$PROG" lock --fd "$machine_lock_fd" --pid "$$" "${nowait[@]}" \
			--test "${runnable[*]}" --command "$m_command" &
		wait "$!" || rc=$?
		if [ "$interrupted" = 1 ]; then exit 130; fi
		if [ "$rc" != 0 ]; then
			exec {machine_lock_fd}>&-
			machine_lock_fd=''
			exit "$((rc == 2 ? 2 : 3))"
		fi
		machine_locked=1
		export SB_MACHINE_LOCK_HOLDER=$$
		m_lock="held ($machine_lock_file)"
	fi
	# a tuned sweep that was killed: its settings first, only while this sweep holds
	# the lock (never with --no-lock: a live --tune sweep's settings are not ours)
	if [ "$machine_locked" = 1 ] && [ -e "$machine_tune_file" ]; then
		warn "note: a sweep killed while tuned left $machine_tune_file: restoring it"
		"$tool" --as "$PROG" restore "$machine_tune_file" --fd "$machine_lock_fd" >&2 || true
	fi
	m_tune=off
	if [ "$opt_tune" = 1 ] && [ "$parent" = 1 ]; then
		m_tune='by the sweep that started this one'
	elif [ "$opt_tune" = 1 ]; then
		printf '%s\n%s\n' "$tool" "$machine_tune_file" >"$TMP/tuned"	# for the janitor
		"$tool" --as "$PROG" tune "$machine_tune_file" >"$TMP/tune.out" || exit 3
		m_tune=''
		while IFS= read -r line; do	# "tune: /proc/sys/kernel/randomize_va_space: 2 -> 0"
			end_progress
			printf '%s\n' "$line" >&2	# even with --quiet: the machine's settings changed
			case $line in "tune: /"*) ;; *) continue ;; esac
			line=${line#tune: } line=${line#/sys/devices/system/cpu/} line=${line#/proc/sys/kernel/}
			line=${line/: /=} line=${line/ -> /->}
			m_tune="$m_tune${m_tune:+ }$line"
		done <"$TMP/tune.out"
		m_tune="on${m_tune:+: $m_tune}"
	fi
	rc=0
	m_system=$("$tool" --as "$PROG" check --short 2>"$TMP/system.err") || rc=$?
	if [ "$rc" = 2 ]; then	# a usage error (a bad SB_MACHINE_PROBE_MS): the sweep's, not a warning
		read -r line <"$TMP/system.err" || line=''
		die 2 "${line#"$PROG: "}"
	elif [ "$rc" != 0 ]; then
		m_system=''
	fi
	while IFS= read -r line; do
		if [ -z "$busy" ]; then busy=1; end_progress; printf '%s\n' "$line" >&2; fi
	done <"$TMP/system.err"
}

# machine_release: on every exit: --tune's settings back, the holder's name
# cleared (a name left in the file is a holder that died), the lock released
machine_release() {
	if [ -n "$machine_tune_file" ] && [ -n "$TMP" ] && [ -f "$TMP/tuned" ] && [ -e "$machine_tune_file" ] &&
		[ "$machine_locked" = 1 ]; then
		"$(machine_tool)" --as "$PROG" restore "$machine_tune_file" --fd "$machine_lock_fd" >&2 || true
		rm -f -- "$TMP/tuned"
	fi
	if [ -n "$machine_lock_fd" ]; then
		if [ "$machine_locked" = 1 ]; then "$(machine_tool)" --as "$PROG" clear --fd "$machine_lock_fd" || true; fi
		exec {machine_lock_fd}>&-
		machine_lock_fd=''
	fi
}

machine_meta_lines() {	# meta's lines about the machine check, the lock and the reference loop
	meta_lines system "$m_system" lock "$m_lock" tune "$m_tune" \
		reference_start "$m_ref_start" reference_end "$m_ref_end"
}
