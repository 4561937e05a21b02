# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/rundir.sh: a run directory's files: the machine's facts, meta, samples.csv and summary.csv published, the latest link.
#
# Sourced by runtest.sh at the top of main (it uses warn, die, shown, reason, write_file and the sweep's variables); functions only, nothing runs here.

# ---- phase: the machine (meta's facts) ---------------------------------------------

git_revision() {
	local line rev='' dirty=''
	if [ -n "$SB_INSTALL" ]; then printf '%s' "$sb_git"; return 0; fi
	# (one git: the commit and whether tracked files changed, from one status)
	while IFS= read -r line; do
		case $line in
		'# branch.oid '[0-9a-f]*) rev=${line#'# branch.oid '} ;;
		'#'*) ;;
		?*) dirty=-dirty ;;
		esac
	done < <(git -C "$ROOT" --no-optional-locks status --porcelain=v2 --branch --untracked-files=no 2>/dev/null || true)
	if [ -z "$rev" ]; then printf 'unknown'; else printf '%s%s' "${rev:0:12}" "$dirty"; fi
}

# machine_facts ARG...: -> aslr, aslr_wrap (the runner's prefix), m_* (meta's facts); then machine_hold
machine_facts() {
	local cc va=2 m_arch k v out
	aslr=off aslr_wrap=()
	# the machine's (sb-rundir facts): host, kernel, arch, os, cpu, and this sweep's start
	# (BOOT_ID/STARTTIME: with sweep_host and sweep_pid a reader tells a live sweep's
	# `running` from an abandoned one, pid reuse included)
	out=$("$tool_rundir" facts "$$") || die 3 "sb-rundir facts failed"
	while IFS='=' read -r k v; do
		case $k in host | kernel | arch | os | cpu | start) printf -v "m_$k" '%s' "$v" ;; esac
	done <<<"$out"
	{ read -r va </proc/sys/kernel/randomize_va_space; } 2>/dev/null || va=2
	if [ "$va" = 0 ]; then
		:
	elif setarch "$m_arch" -R true >/dev/null 2>&1; then
		aslr_wrap=(setarch "$m_arch" -R)
	else
		aslr=on
		warn "warning: cannot turn address-space randomisation off (setarch -R failed): runs with it on"
	fi
	read -ra cc <<<"${CC:-cc}"
	m_compiler=$("${cc[@]}" --version 2>/dev/null || true)
	m_compiler=${m_compiler%%$'\n'*}
	m_cflags=${CFLAGS:--O2 -g} m_git=$(git_revision)
	m_command=$(printf '%q ' "$0" "$@")
	m_command=${m_command% }
	readonly aslr aslr_wrap m_host m_kernel m_os m_cpu m_compiler m_cflags m_git m_command m_start
	machine_hold	# one sweep at a time, --tune, the system check (machine/machine.sh)
}

# ---- one run directory ----------------------------------------------------------

meta_lines() {	# meta_lines KEY VALUE...: key=value lines, each value on one line
	local v
	while [ $# -gt 0 ]; do
		v=${2//$'\n'/ }
		printf '%s=%s\n' "$1" "${v//$'\r'/ }"
		shift 2
	done
}

meta_text() {	# meta_text: the current run's meta (sb-rundir sets run_id, date and the status keys)
	# (no $(...) here: it runs after every run, and each subshell is a fork)
	local maxp='' order=alternate	# (the times' words: sb-sweepargs' and sb-plan's)
	if [ "$points_mode" = auto ]; then maxp=$max_points; fi
	if [ -n "$opt_seed" ]; then order=shuffle; fi
	meta_lines test "$run_test" description "${t_desc[$run_test]}" label "$label" \
		host "$m_host" kernel "$m_kernel" os "$m_os" cpu_model "$m_cpu" \
		topology "${topo[topology]}" hwloc_version "${topo[hwloc_version]}" \
		placement "$placement" aslr "$aslr" modes "${t_run_modes[$run_test]}" points "$points_csv" \
		points_mode "$points_mode" max_points "$maxp" \
		duration "$duration_text" warmup "$warmup_text" \
		period_ms "$period" repeat "$opt_repeat" min_runs "$min_runs" max_runs "$max_runs" \
		precision "$precision_text" point_budget "$point_budget_text" budget "${plan_text[budget]-}" \
		order "$order" seed "$opt_seed" \
		schedule "$schedule${schedule:+${round_sched:+ }}$round_sched" unmet "${plan_unmet-}" \
		late_warnings "$late_warnings" params "${t_params[$run_test]}" commit "$opt_commit" \
		command "$m_command" compiler "$m_compiler" cflags "$m_cflags" git_revision "$m_git" \
		sweep_host "$m_host" sweep_pid "$$" sweep_start "$m_start"
	vm_meta_lines
	machine_meta_lines
}

# rundir CMD ARG...: sb-rundir (the run directory's one writer: meta's keys, the
# status, the run id, the latest link); its failure is runtest.sh's, in its words
rundir() {
	local out rc=0
	out=$("$tool_rundir" "$@" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then die "$rc" "${out#sb-rundir: }"; fi
	if [ -n "$out" ]; then printf '%s\n' "$out"; fi
}

write_meta() {	# write_meta STATUS [ERROR FAILED_MODE FAILED_TASKS]: the whole meta and the status
	local a=() e=${2-}
	e=${e//$'\n'/ } e=${e//$'\r'/ }
	if [ -n "$e" ]; then a+=(--error "$e"); fi
	if [ -n "${3-}" ]; then a+=(--point "$3" "$4"); fi
	meta_text | rundir status "$(shown "$run_dir")" "$1" "${a[@]}" --stdin
}

publish() {	# samples.csv from the work copy, then summary.csv from it
	local err rc=0
	write_file "$run_dir/samples.csv" cat -- "$TMP/samples.csv"
	err=$("$tool_summary" -o "$run_dir/summary.csv" "$run_dir/samples.csv" 2>&1) || rc=$?
	if [ "$rc" = 3 ]; then die 3 "cannot write $(shown "$run_dir/summary.csv"): $(reason "$err")"; fi
	if [ -n "$err" ]; then printf '%s\n' "$err" >&2; fi
	if [ "$rc" != 0 ]; then exit "$rc"; fi
}

add_point() {	# a finished point: its rows into samples.csv, summary.csv, meta
	local err
	# (mapfile and one printf: no cat, and a failed write is the printf's status)
	err=$({ mapfile -t rows <"$TMP/point" && if [ ${#rows[@]} -gt 0 ]; then
		printf '%s\n' "${rows[@]}" >>"$TMP/samples.csv"; fi; } 2>&1) ||
		die 3 "cannot write $TMP/samples.csv: $(reason "$err")"
	publish
	write_meta running
}
