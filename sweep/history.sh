# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/history.sh: the finished runs into the history (sb-history add), unless --no-history.
#
# Sourced by runtest.sh at the top of main (it uses warn and the sweep's variables: results, build_abs, runnable, t_dir, t_status); functions only, nothing runs here.

# history_add DIR...: the complete run directories DIR into $SB_HISTORY, else RESULTS/history.db.
# A failure is a warning: the measured sweep stands, its exit status is the sweep's
# (`sb-history add` or `rebuild` adds the runs later: the run directories are the truth).
history_add() {
	local db=${SB_HISTORY:-$results/history.db} tool=$build_abs/bin/sb-history err rc=0
	if [ "$opt_no_history" = 1 ] || [ $# = 0 ]; then return 0; fi
	if [ -n "$SB_INSTALL" ]; then tool=$sb_tools/sb-history; fi	# else build_tools made it
	err=$("$tool" --db "$db" add -- "$@" 2>&1 >/dev/null {janitor_fd}>&-) || rc=$?
	if [ "$rc" != 0 ]; then
		err=${err##*$'\n'}
		warn "warning: not added to the history (sb-history exit $rc): ${err#sb-history: }"
	fi
	return 0
}

# history_add_sweep: this sweep's complete runs (t_dir, t_status) into the history
history_add_sweep() {
	local t dirs=()
	for t in "${runnable[@]}"; do
		if [ -n "${t_dir[$t]+x}" ] && [ "${t_status[$t]}" = complete ]; then dirs+=("${t_dir[$t]}"); fi
	done
	history_add "${dirs[@]}"
}
