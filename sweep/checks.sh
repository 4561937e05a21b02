# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/checks.sh: before anything runs: the runners accept the sweep's options, the results directories are writable and have room.
#
# Sourced by runtest.sh at the top of main (it uses die, shown, reason and the plan's variables); functions only, nothing runs here.

# ---- phase: the runners, the results directories ----------------------------------

# check_runners: every runnable testcase's runner, in each mode, --check of the
# sweep's options at its largest point (check_runner_values asks the first one only:
# a second testcase's --param dir, a mode's own limits) (parameters,
# their directories, the placement, TMPDIR), before a run directory exists: its
# one line and its exit code (2 input, 3 environment)
check_runners() {
	local t m modes rc err
	for t in "${runnable[@]}"; do
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		for m in "${modes[@]}"; do
			rc=0
			err=$("$tests_dir/${t}_$m" --check -t "$largest" --placement "$placement" "${opt_pass[@]}" 2>&1 >/dev/null) || rc=$?
			if [ "$rc" != 0 ]; then
				err=$(awk 'NF { last = $0 } END { print last }' <<<"$err")
				case $rc in 2 | 3) ;; *) rc=3 ;; esac
				die "$rc" "${err:-${t}_$m --check failed with status $rc}"
			fi
		done
	done
}

check_results() {	# each results/<test>: made, ours, writable, not full, its latest ours to replace
	local t dir probe err owner
	for t in "${runnable[@]}"; do
		dir=$results/$t
		err=$(mkdir -p -- "$dir" 2>&1) ||
			die 3 "cannot create the results directory $(shown "$dir"): ${err##*$'\n'}"
		# another user's (made first in a shared results directory): whatever the sweep writes
		# there would go where its owner's links point (docs/RUNTEST.md, "Security"). Not in a
		# guest (SB_VM): its results are the host's private staging directory, whose files a
		# 9p share shows with the host user's uid
		owner=$(LC_ALL=C ls -ldn -- "$dir" 2>/dev/null | awk '{ print $3 }')
		if [ -z "${SB_VM-}" ] && [ "$owner" != "$EUID" ] && [ "$owner" != 0 ]; then
			die 3 "the results directory $(shown "$dir") belongs to another user (uid ${owner:-unknown}): not written; remove it or choose another --results"
		fi
		# named first, so that on_exit and the janitor remove it however runtest.sh ends;
		# made new (noclobber: O_EXCL), never written through a link planted at its name
		probe=$dir/.probe.$$
		printf '%s\n' "$probe" >"$TMP/probe"
		rm -f -- "$probe"
		(set -C && : >"$probe") 2>/dev/null ||
			die 3 "the results directory $(shown "$dir") is not writable"
		# a page of data: an empty file still fits on a full disk
		if ! err=$({ printf '%4096s' '' >"$probe"; } 2>&1); then
			rm -f -- "$probe"
			die 3 "cannot write in the results directory $(shown "$dir"): $(reason "$err")"
		fi
		rm -f -- "$probe" "$TMP/probe"
		if [ -d "$dir/latest" ] && [ ! -L "$dir/latest" ]; then
			die 3 "$(shown "$dir/latest") is a directory, not the link to the newest run: move it away"
		fi
	done
}

# check_space: the results directories hold at least what the run will write:
# samples.csv (a row of about 128 bytes per sample of every planned run) twice
# (the new copy is written before the old one goes); a testcase's meta,
# points.csv, summary.csv, samples.csv and the temporary copy of one of them,
# a 4 KB block each however small; and the room sb-rundir create keeps for the
# final meta (analysis/rundir/writer.h, SB_RUNDIR_RESERVE: 64 KB, one testcase's
# at a time, freed when its meta is final).
check_space() {
	local t need kb df_out reserve_kb=64
	need=$(((plan_runs * (warmup_samples + samples) * 128 * 2 + plan_runs * 256 + ${#runnable[@]} * 5 * 4096 + 1023) / 1024 + reserve_kb))
	for t in "${runnable[@]}"; do
		df_out=$(df -Pk -- "$results/$t" 2>/dev/null) || df_out=''
		read -r _ _ _ kb _ <<<"${df_out#*$'\n'}"	# line 2, field 4: the KB available
		case $kb in '' | *[!0-9]*) continue ;; esac	# unknown: the writes will tell
		if [ "$kb" -lt "$need" ]; then
			die 3 "the results directory $(shown "$results/$t") has $kb KB free; this run writes about $need KB"
		fi
	done
	# TMPDIR: a testcase's samples.csv is built there first, beside a run's rows twice (the
	# runner's output, the point's), and the working files still to come
	need=$(((plan_runs * (warmup_samples + samples) * 128 * 3 + 1023) / 1024 + 64))
	df_out=$(df -Pk -- "$TMP" 2>/dev/null) || df_out=''
	read -r _ _ _ kb _ <<<"${df_out#*$'\n'}"
	case $kb in '' | *[!0-9]*) return 0 ;; esac
	if [ "$kb" -lt "$need" ]; then
		die 3 "TMPDIR ${TMP%/*} has $kb KB free; runtest.sh's working files need about $need KB"
	fi
}
