#!/usr/bin/env bash
# runtest.sh: the scaling sweep: runs testcases at every task count, as processes and threads, into results/.
#
# Orchestration only. main (at the end) runs the phases in order, their functions
# in sweep/ (testcases.sh, plan.sh, checks.sh, rundir.sh); a phase sets
# the variables its comment names ("-> x"), readonly from then on except the
# sweep's per-run ones (start_run's run_*, sweep's t_dir/t_status). Shared at
# run time: only what the traps need (the block below).
# What the C tools do sits in marked functions: the runner writes whole
# samples.csv rows, checks its values and owns its option table, sb-summary
# shows the figures:
# (a) runner_format, samples_header, samples_rows  (b) point_figure  (c) table
# (d) check_runner_values  (e) read_args (sb-sweepargs: the options' table).
# docs/ARCHITECTURE.md maps it all.
set -eu
# The signals that interrupt a sweep: a terminal's, and any a CI job or timeout(1)
# may send. A signal before main has installed its handlers is an interruption
# all the same.
SIGNALS=(INT TERM HUP QUIT USR1 USR2 ALRM PIPE VTALRM PROF XCPU XFSZ)
trap 'exit 130' "${SIGNALS[@]}"

PROG=runtest.sh
# make install rewrites the next line (build-aux/install.sh): the installed layout and version.
SB_INSTALL=''
# The shape of one run and the stopping rule of a point are sb-sweepargs' (read_args).
RUN_OVERHEAD_MS=150		# a run's start and stop, and the sweep's work between two runs: 0.1 s measured (docs/RUNTEST.md)
# After SIGTERM, what a child has to stop before SIGKILL (docs/RUNTEST.md,
# "Failures and interruptions"): the runner's own grace for a testcase_prepare or
# testcase_cleanup that does not return is 2 s; a guest's boot.sh quits QEMU.
RUNNER_GRACE_MS=5000 VM_GRACE_MS=15000 PERF_GRACE_MS=30000	# (perf: a large recording to write)
WORK_ROOM=131072	# bytes: TMPDIR's room for the working files, checked first (76 KB at most measured, 2 testcases)

# The state the traps read.
phase=setup		# setup: a signal exits at once; sweep: it stops the sweep
interrupted=0
signame=''		# the first signal's name (INT, TERM, ALRM ...)
stopped_note=''		# stop_child had to SIGKILL: the warning, said by its caller
last_error=''		# die's message (in this shell), for meta's error on the way out
termed=''		# the child on_signal sent SIGTERM (a second one would cut a prepare short)
child=''		# the runner at work
active_run=''		# the run directory whose meta is not final yet
progress_open=0		# a progress line without its newline is on the terminal
TMP=''			# the working directory (make_workdir), removed at exit
janitor_fd=''		# the pipe to the janitor (start_janitor)
janitor_out=''
vm_active=()		# --kernel: the run directories not final yet

# The command as the user runs it: ./runtest.sh in a checkout, scalebench-runtest installed.
me() { if [ -n "$SB_INSTALL" ]; then printf scalebench-runtest; else printf ./runtest.sh; fi; }

# ---- messages, numbers ----------------------------------------------------------

end_progress() {	# the progress line gets its newline before anything else is said
	if [ "$progress_open" = 1 ]; then
		printf '\n' >&2
		progress_open=0
	fi
}

note() { if [ "${opt_quiet:-0}" = 0 ]; then end_progress; printf '%s\n' "$*" >&2; fi; }
warn() { end_progress; printf '%s: %s\n' "$PROG" "$*" >&2; }
die() {	# die CODE MESSAGE...: (in a subshell, the message is kept for meta's error too)
	last_error=${*:2}
	if [ "$BASH_SUBSHELL" -gt 0 ] && [ -n "$TMP" ]; then printf '%s\n' "$last_error" >"$TMP/last_error" 2>/dev/null || true; fi
	warn "${*:2}"
	exit "$1"
}
usage_error() { die 2 "$* (see $(me) --help)"; }

shown() {	# PATH, relative to the current directory when it is below it
	case $1 in
	"$PWD"/*) printf '%s' "${1#"$PWD"/}" ;;
	*) printf '%s' "$1" ;;
	esac
}

reason() {	# the end of a tool's error message: "cat: write error: No space left on device" -> the last part
	local m=${1##*$'\n'}
	m=${m##*: }
	printf '%s' "${m:-failed}"
}

clock() {	# clock VAR: now, seconds since the epoch (microseconds where bash has them), for sb-plan
	if [ -n "${EPOCHREALTIME-}" ]; then printf -v "$1" '%s' "$EPOCHREALTIME"; else printf -v "$1" '%(%s)T' -1; fi
}

# ---- the swap points: what the runner and sb-summary will do ---------------------

# (a) runner_format ARRAY RUN: the runner's output options for run RUN, into
# ARRAY: complete samples.csv rows (mode, tasks, run included), no header
runner_format() {
	local -n _fmt=$1
	_fmt=(--format samples --run "$2" --no-header)
}

# (a) samples_header TEST: the header line of samples.csv, as the runner writes it
samples_header() {
	local b
	for b in "$tests_dir/${1}_processes" "$tests_dir/${1}_threads"; do
		if [ -x "$b" ]; then
			"$b" --format samples --print-header
			return
		fi
	done
	return 1
}

# (a) samples_rows MODE TASKS RUN FILE: the runner's rows, unchanged; status 1
# (and nothing printed) when a row is not this run's or none is measured (the
# runner wrote its rows itself). bash's read, not awk: one exec fewer a run.
samples_rows() {
	local pre="$1,$2,$3," line rest measured=0 rows=()
	while IFS= read -r line || [ -n "$line" ]; do
		[[ $line == "$pre"* ]] || return 1
		rest=${line#"$pre"}
		if [ "${rest%%,*}" = measure ]; then measured=1; fi
		rows+=("$line")
	done <"$4"
	[ "$measured" = 1 ] || return 1
	printf '%s\n' "${rows[@]}"
}

# (b) point_figure MODE TASKS RUNDIR: "4.81M ops/s ±0.4%", nothing when absent
point_figure() { "$tool_summary" --point "$1:$2" "$3"; }

# (c) table RUNDIR: the end-of-sweep table, up to 12 of the points
table() { "$tool_summary" --table "$1"; }

# (d) check_runner_values: the runner judges its own values: the --placement
# name, the task counts (args_largest: the largest the arguments name, before
# plan_points lists them), --period-ms and what opt_pass hands on. Its exit 2
# (or 3) and its one-line message are the check. What the sweep computes with
# is sb-sweepargs': whole numbers, the seconds of --duration and --warmup, at
# least one sample, --min-procs <= --max-procs.
check_runner_values() {
	local t=${runnable[0]} bin rc=0 err
	bin=$tests_dir/${t}_processes
	if [ ! -x "$bin" ]; then bin=$tests_dir/${t}_threads; fi
	err=$("$bin" --check -t "$args_largest" --placement "$placement" --period-ms "$period" "${opt_pass[@]}" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != 0 ]; then
		end_progress
		printf '%s: %s\n' "$PROG" "${err%%$'\n'*}" >&2
		exit "$((rc == 2 ? 2 : 3))"
	fi
}

# made VAR [--installed DIR] NAME...: the directory of the tools NAME..., made first in a
# checkout (SB_BUILD's bin/); installed, DIR's (nothing to build); into VAR
made() {
	local -n _dir=$1
	local b=${SB_BUILD:-build} out n
	shift
	case $b in /*) ;; *) b=$ROOT/$b ;; esac
	_dir=$b/bin
	if [ "$1" = --installed ]; then
		if [ -n "$SB_INSTALL" ]; then _dir=$2; fi
		shift 2
	fi
	if [ -z "$SB_INSTALL" ] && command -v "${MAKE:-make}" >/dev/null 2>&1 &&
		! out=$("${MAKE:-make}" -s -C "$ROOT" BUILD="$b" "${@/#/$b/bin/}" 2>&1); then
		printf '%s\n' "$out" | tail -n 25 >&2
		die 3 "the build failed (make output above)"
	fi
	for n in "$@"; do [ -x "$_dir/$n" ] || die 3 "$(shown "$_dir/$n") is missing: run make"; done
}

# make_helpers: the helpers runtest.sh needs before it reads its arguments (installed:
# LIBEXECDIR/scalebench's) -> tool_args (sb-sweepargs), tool_workdir (sb-workdir: the
# working directory, its janitor)
make_helpers() {
	local dir
	made dir --installed "${sb_helpers-}" sb-sweepargs sb-workdir
	readonly tool_args=$dir/sb-sweepargs tool_workdir=$dir/sb-workdir
}

# (e) read_args ARG...: runtest.sh's options are one table in C (sb-sweepargs,
# sweep/cmd_sweepargs.c): it parses and checks the arguments, the runner
# options the sweep hands on (its own option table's sweep=yes rows) included,
# and answers NUL-terminated NAME VALUE pairs, one a list's element: the opt_*,
# vm_* and the run's shape (period, samples, the stopping rule, the label ...).
# Its one-line message and exit 2 are the check; -h/--help is its --usage.
read_args() {
	local tool=$tool_args pairs=() i n k v
	# (its status as the last pair: a process substitution's is lost)
	mapfile -d '' -t pairs < <(rc=0; "$tool" --me "$(me)" -- "$@" || rc=$?; printf 'status\0%s\0' "$rc")
	n=${#pairs[@]}
	if [ "$n" -lt 2 ] || [ "${pairs[n - 2]}" != status ]; then die 3 "sb-sweepargs gave no answer"; fi
	if [ "${pairs[n - 1]}" != 0 ]; then exit "${pairs[n - 1]}"; fi	# it said why, in one line
	opt_tests=() opt_params=() opt_pass=() opt_point_list=() vm_kernels=() vm_boot_opts=() vm_rest=()
	for ((i = 0; i < n - 2; i += 2)); do
		k=${pairs[i]} v=${pairs[i + 1]}
		case $k in
		help) "$tool" --me "$(me)" --usage; exit 0 ;;
		opt_tests) opt_tests+=("$v") ;;
		opt_params) opt_params+=("$v") ;;
		opt_pass) opt_pass+=("$v") ;;
		opt_point_list) opt_point_list+=("$v") ;;
		vm_kernels) vm_kernels+=("$v") ;;
		vm_boot_opts) vm_boot_opts+=("$v") ;;
		vm_rest) vm_rest+=("$v") ;;
		*) [[ $k =~ ^[a-z_]+$ ]] || die 3 "sb-sweepargs: bad name '$k'"; printf -v "$k" '%s' "$v" ;;
		esac
	done
	results=${opt_results:-${default_results:-$ROOT/results}}
	readonly opt_tests opt_params opt_pass opt_point_list points_mode placement period samples \
		warmup_samples rounded_note label results adaptive min_runs max_runs precision point_budget_ms
}

# ---- files: complete or untouched -----------------------------------------------

# write_file DEST CMD...: CMD's output into DEST through a temporary name and
# a rename (CMD is one command, so its status is the write's). DEST ends up
# new or as it was, with no temporary file; a failure exits 3 naming DEST.
write_file() {
	local dest=$1 tmpf err
	shift
	tmpf=${dest%/*}/.${dest##*/}.$$.tmp
	# the rename would put a regular file in place of a symlink or device node (analysis/io/outpath.c)
	if [ -L "$dest" ] || { [ -e "$dest" ] && [ ! -f "$dest" ]; }; then
		die 2 "$(shown "$dest"): not a regular file: not replaced"
	fi
	if ! err=$({ "$@" >"$tmpf"; } 2>&1) || ! err=$(mv -f -- "$tmpf" "$dest" 2>&1); then
		rm -f -- "$tmpf"
		die 3 "cannot write $(shown "$dest"): $(reason "$err")"
	fi
}

# Run a command (or function) in a subshell deaf to the terminal's ^C, so that
# writing results is never cut in half; the script itself still sees the signal.
protect() { (trap '' "${SIGNALS[@]}"; "$@"); }

# ---- traps ----------------------------------------------------------------------

on_signal() {	# on_signal NAME
	# a closed output: from now on writes fail with EPIPE instead (a trap that
	# wrote there would raise SIGPIPE again, and again)
	if [ "$1" = PIPE ]; then trap '' PIPE; fi
	interrupted=1
	signame=${signame:-$1}
	if [ "$phase" = setup ]; then
		interrupted_line || true
		exit 130
	fi
	# TERM, not INT: a background job starts with SIGINT ignored until the
	# runner installs its handlers, and TERM ends it cleanly either way.
	if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null || true; termed=$child; fi
}

# interrupted_line: "interrupted", and by what when it was no terminal's or
# service manager's signal (SIGALRM from timeout -s ALRM ...)
interrupted_line() {
	case $signame in
	'' | INT | TERM | HUP) if [ "$phase" != setup ]; then warn "interrupted"; fi ;;
	*) warn "interrupted by SIG$signame" || true ;;
	esac
}

# stop_child PID GRACE_MS WHAT [VAR]: a child that has had SIGTERM: wait for it
# at most GRACE_MS, then SIGKILL it (and say so, naming WHAT, unless the caller's
# stderr is muted: then stopped_note keeps the line); 130 into VAR. Never a
# wait without a limit: sb-workdir --stop polls (bash reaps the dead child
# meanwhile) and SIGKILLs after the grace.
stop_child() {
	stopped_note=$("$tool_workdir" --stop "$1" "$2" "$3") || true
	# Gone, so bash has reaped it: no `wait` for its status. bash 5.2's wait for a
	# child reaped while a trap ran can block for good in waitpid(-1), that is for
	# the janitor, which waits for runtest.sh (seen in runtest_failures.t's SIGINT
	# case). Its status would not matter: the caller was interrupted, so 130.
	if [ $# -gt 3 ]; then printf -v "$4" '%d' 130; fi
}

on_exit() {
	local rc=$?
	trap - EXIT "${SIGNALS[@]}"
	if [ -n "$child" ]; then
		if [ "$termed" != "$child" ]; then kill -TERM "$child" 2>/dev/null || true; fi
		stopped_note=''
		stop_child "$child" "$RUNNER_GRACE_MS" "the runner"
		if [ -n "$stopped_note" ]; then warn "$stopped_note"; fi
	fi
	profile_stop 2>/dev/null || true	# a perf recording (profile/record.sh)
	machine_release || true		# --tune undone, the machine lock released (machine/machine.sh)
	# Leaving mid-run (a helper died, a disk filled): a true status, if it can
	# be written (write_file never harms the last good meta).
	if [ -n "$active_run" ] && [ "$interrupted" = 1 ]; then
		(write_meta interrupted) 2>/dev/null || true
		rc=130
	elif [ -n "$active_run" ]; then
		if [ -z "$last_error" ] && [ -n "$TMP" ]; then read -r last_error <"$TMP/last_error" 2>/dev/null || true; fi
		(write_meta failed "${last_error:-runtest.sh stopped with exit status $rc}") 2>/dev/null || true
	fi
	if [ -n "${vm_active[*]-}" ]; then vm_abandon "$rc"; fi
	end_progress
	if [ -n "$TMP" ]; then
		if [ -s "$TMP/probe" ] && read -r probe <"$TMP/probe"; then rm -f -- "$probe"; fi
		rm -rf -- "$TMP"
	fi
	exit "$rc"
}

# ---- the working directory and its janitor ----------------------------------------

make_workdir() {	# -> TMP (on_exit removes it; the janitor too if runtest.sh is killed)
	local dir=${TMPDIR:-/tmp} line=''
	# the working directory's path travels in lines (the janitor's answer, $TMP/... files)
	case $dir in *[[:cntrl:]]*)
		die 3 "TMPDIR $(printf '%q' "$dir") holds a control character (a newline?): set TMPDIR to a directory whose name has none" ;;
	esac
	[ -e "$dir" ] || die 3 "TMPDIR $dir does not exist"
	[ -d "$dir" ] || die 3 "TMPDIR $dir is not a directory"
	start_janitor "$dir"
	read -r line <&"$janitor_out" || true
	case $line in
	"ok $dir/runtest."*) TMP=${line#ok } ;;
	*) die 3 "cannot make a working directory in TMPDIR $dir: $(reason "${line#err }")" ;;
	esac
	# room for the working files of a sweep (about 80 KB, a block each), not just for one:
	# a TMPDIR with a few KB free failed later with bash's own write errors and exit 1
	tmp_full line "$WORK_ROOM"
	if [ -n "$line" ]; then die 3 "$line"; fi
}

# tmp_full VAR [BYTES]: why the working directory takes no more data (BYTES of
# it, default a page), into VAR (empty when it does). Every tool's message goes
# to a file there: on a full disk it is lost, and this line is what reaches the
# terminal instead.
tmp_full() {
	local err='' m=''
	if ! err=$({ printf "%${2:-4096}s" '' >"$TMP/.room"; } 2>&1); then
		m="TMPDIR ${TMP%/*} has no room for runtest.sh's working files: $(reason "$err")"
	fi
	rm -f -- "$TMP/.room"
	printf -v "$1" '%s' "$m"
}

# start_janitor DIR: a process that outlives runtest.sh by design (sb-workdir,
# sweep/cmd_workdir.c). It makes the working directory in DIR (so that no
# moment exists when the directory is there and nobody will remove it),
# removes those of earlier sweeps killed with their janitor (SIGKILL of the
# whole process group: only directories whose owners file names a runtest.sh
# and a janitor both provably gone), says "ok PATH" (or "err MESSAGE"), then
# reads its standard input, a pipe only runtest.sh writes, to its end:
# however runtest.sh ended (SIGKILL included) it then stops the runner at work
# ($TMP/child: SIGTERM, SIGKILL after RUNNER_GRACE_MS), removes a pending
# results probe ($TMP/probe), restores --tune's settings ($TMP/tuned), marks
# the run in progress ($TMP/active) interrupted and removes the directory.
# The runner and make do not get the pipe (they may outlive runtest.sh).
# -> janitor_fd, janitor_out
start_janitor() {
	coproc JANITOR { exec "$tool_workdir" "$1" "$$" "$RUNNER_GRACE_MS"; }
	# (a copy: bash keeps a coprocess's own descriptors from subshells, and a
	# protected write that runtest.sh's death leaves running must hold the pipe too)
	exec {janitor_fd}>&"${JANITOR[1]}"
	janitor_out=${JANITOR[0]}
}

# ---- one run directory (its files: sweep/rundir.sh) --------------------------------

# start_run TEST: a run directory with its first files (sb-rundir create: the
# run id, meta) -> run_test, run_id, run_dir (what write_meta reads), active_run
start_run() {
	run_test=$1
	samples_header "$1" >"$TMP/samples.csv" || die 3 "$1: the runner cannot print its samples.csv header"
	run_id=$(meta_text | protect rundir create "$(shown "$results/$1")" "$label" --stdin)
	run_dir=$results/$1/$run_id
	active_run=$run_dir
	printf '%s\n%s\n' "$tool_rundir" "$run_dir" >"$TMP/active"
	protect publish
	protect rundir latest "$(shown "$results/$1")" "$run_id"
}

# ---- one point ------------------------------------------------------------------

# run_once TEST MODE TASKS RUN: one runner, its rows appended to $TMP/point
# -> RUN_STATUS (0 done, 1 failed, 130 interrupted), RUN_ERROR, RUN_ERROR_RC (1, 2, 3)
run_once() {
	local t=$1 m=$2 n=$3 rc=0 fmt r2
	RUN_STATUS=0 RUN_ERROR='' RUN_ERROR_RC=0 stopped_note=''
	runner_format fmt "$4"
	# bash reports a job killed by a signal ("Killed") on its standard error
	# when it notices the death: inside this group, where nobody hears it.
	{
		# The runner's pid is in $TMP/child before it runs (and before this job lets
		# go of the janitor's pipe), so a janitor woken by runtest.sh's death finds it.
		{
			printf '%s\n' "$BASHPID" >"$TMP/child"
			exec "${aslr_wrap[@]}" "$tests_dir/${t}_$m" -t "$n" -s "$samples" "${warmup_args[@]}" \
				--period-ms "$period" --placement "$placement" "${opt_pass[@]}" "${fmt[@]}" \
				>"$TMP/out" 2>"$TMP/err" {janitor_fd}>&-
		} &
		child=$!
		if [ "$interrupted" = 0 ]; then wait "$child" || rc=$?; fi
		# A signal ends the wait early (rc is then the trap's): on_signal has
		# sent the runner SIGTERM; it has the grace period, then SIGKILL.
		if [ "$interrupted" = 1 ]; then
			# (a signal before child was set: on_signal could not send SIGTERM)
			if [ "$termed" != "$child" ]; then kill -TERM "$child" 2>/dev/null || true; fi
			stop_child "$child" "$RUNNER_GRACE_MS" "the runner" rc
		fi
		child=''
		: >"$TMP/child"	# (no rm a run: the janitor reads an empty file as no child)
	} 2>/dev/null
	if [ -n "$stopped_note" ]; then warn "$stopped_note"; fi
	if [ "$rc" = 0 ] && samples_rows "$m" "$n" "$4" "$TMP/out" >>"$TMP/point"; then
		runner_messages
	elif [ "$rc" = 0 ]; then
		RUN_ERROR="$t: $m at $n tasks: unexpected output from the runner (see $(shown "$tests_dir")/${t}_$m ${fmt[*]})"
		RUN_STATUS=1 RUN_ERROR_RC=1
	elif [ "$interrupted" = 1 ] || [ "$rc" = 130 ] || [ "$rc" = 143 ]; then
		interrupted=1 RUN_STATUS=130
	else
		RUN_ERROR=$(awk 'NF { last = $0 } END { print last }' "$TMP/err")
		if [ "$rc" -gt 128 ]; then
			RUN_ERROR="${RUN_ERROR:+$RUN_ERROR; }the runner was killed by signal $((rc - 128))"
		fi
		# (its stderr is a file in TMPDIR: a full disk there loses the message)
		if [ -z "$RUN_ERROR" ] || [ "$rc" = 3 ]; then
			tmp_full r2
			if [ -n "$r2" ]; then RUN_ERROR=${RUN_ERROR:+$RUN_ERROR; }$r2; fi
		fi
		RUN_ERROR=${RUN_ERROR:-the runner exited with status $rc}
		RUN_STATUS=1 RUN_ERROR_RC=1
		case $rc in 2 | 3) RUN_ERROR_RC=$rc ;; esac
	fi
}

# ---- the rounds: sb-plan says which point runs next -----------------------------

# plan_next [--ran MODE:TASKS:T0:T1]: sb-plan counts the run just made (its
# values are in the run directory, its times are T0 and T1) and says what runs
# next, in rounds: round k runs every point not done once, in its order
# (alternate, or --seed's shuffle); a point is done at its --precision,
# --max-runs or --point-budget, or when a run would overrun this testcase's
# share of --budget (sb-plan keeps the sweep's clock in $TMP/plan.sweep);
# --points auto adds counts between rounds -> next_run ("MODE TASKS RUN
# ROUND", empty: done), points_csv, plan_unmet, plan_progress
plan_next() {
	local out rc=0 line now
	clock now
	# protected: a ^C must not cut its points.csv in half (the sweep stops after it)
	out=$(protect "$tool_plan" next "$TMP/plan.conf" "$TMP/plan.state" --run-dir "$run_dir" "$@" \
		--sweep "$TMP/plan.sweep" --now "$now" 2>"$TMP/plan.err") || rc=$?
	if [ "$rc" != 0 ]; then
		cat "$TMP/plan.err" >&2
		die 3 "sb-plan next failed (exit status $rc)"
	fi
	next_run=''
	while IFS= read -r line; do
		case $line in
		'run '*) next_run=${line#run } ;;
		'points '*) points_csv=${line#points } ;;
		unmet*) plan_unmet=${line#unmet} plan_unmet=${plan_unmet# } ;;
		'progress '*) plan_progress=${line#progress } ;;
		esac
	done <<<"$out"
}

# the runner's stderr lines of a run: notes once each; lateness warnings counted
runner_messages() {
	local line late=0
	while IFS= read -r line; do
		case $line in
		*[![:space:]]*) ;;
		*) continue ;;	# a blank line (a sanitizer's report has some) is no subscript
		esac
		case $line in
		*": oversubscribed: "*) continue ;;	# warned about up front
		*": warning: sampler woke up "*)
			if [ "$late" = 0 ]; then late_warnings=$((late_warnings + 1)) late=1; fi
			if [ -n "${runner_notes[late]+x}" ]; then continue; fi
			runner_notes[late]=1
			line="$line (runs that warned are counted in meta's late_warnings)"
			;;
		esac
		if [ -z "${runner_notes[$line]+x}" ]; then
			runner_notes[$line]=1
			note "$line"
		fi
	done <"$TMP/err"
}


# progress TEST MODE TASKS RUN FIGURE: a line after a run (sb-plan's points done and time left)
progress() {
	local line
	printf -v line '%s  %-9s  %d/%d tasks  run %d  %s   %s' "$1" "$2" "$3" "$largest" "$4" "$5" "$plan_progress"
	line+=$(vm_progress_tag)
	if [ "$opt_quiet" = 1 ]; then
		return 0
	elif [ -t 2 ]; then
		printf '\r%s\033[K' "$line" >&2
		progress_open=1
	else
		printf '%s\n' "$line" >&2
	fi
}

# ---- phase: the sweep, the report -----------------------------------------------

# sweep_test TEST: one testcase, in the rounds sb-plan gives (plan_next)
# -> t_dir[TEST], t_status[TEST]; sweep_rc, sweep_ms, sweep_runs
sweep_test() {
	local t=$1 m n r round last_round='' status=complete fig='' t0 r0 r1 ran=() err rc=0
	schedule='' round_sched='' late_warnings=0 plan_unmet=''
	machine_reference m_ref_start	# the reference loop, before the first run (machine/machine.sh)
	m_ref_end=''
	start_run "$t"
	t_dir[$t]=$run_dir
	clock t0
	# (sb-plan: this testcase's share of what --budget still holds, from its clock)
	err=$(protect "$tool_plan" init "$TMP/plan.conf" "$TMP/plan.state" --modes "${t_run_modes[$t]}" \
		--sweep "$TMP/plan.sweep" --now "$t0" --run-dir "$run_dir" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then die 3 "$err"; fi
	points_csv=${err#points }
	while [ "$status" = complete ]; do
		plan_next "${ran[@]}"
		if [ ${#ran[@]} -gt 0 ]; then progress "$t" "$m" "$n" "$r" "$fig"; fi
		if [ -z "$next_run" ]; then break; fi
		read -r m n r round <<<"$next_run"
		if [ "$round" != "$last_round" ]; then
			schedule="$schedule${schedule:+${round_sched:+ }}$round_sched" round_sched='' last_round=$round
		fi
		if [ "$interrupted" = 1 ]; then
			status=interrupted
			break
		fi
		clock r0
		: >"$TMP/point"
		run_once "$t" "$m" "$n" "$r"
		if [ "$RUN_STATUS" = 130 ]; then
			status=interrupted
			break
		elif [ "$RUN_STATUS" != 0 ]; then
			status=failed
			protect write_meta failed "$RUN_ERROR" "$m" "$n"
			warn "$t: $m at $n tasks failed: $RUN_ERROR"
			if [ "$RUN_ERROR_RC" -gt "$sweep_rc" ]; then sweep_rc=$RUN_ERROR_RC; fi
			break
		fi
		round_sched="$round_sched${round_sched:+,}$m:$n"
		protect add_point
		clock r1
		ran=(--ran "$m:$n:$r0:$r1")
		# the progress line's figure (one sb-summary a run): nothing shows it under --quiet
		# (runtest.py's sweeps: lkp's wall time)
		if [ "$opt_quiet" = 0 ]; then fig=$(protect point_figure "$m" "$n" "$run_dir"); fi
	done
	schedule="$schedule${schedule:+${round_sched:+ }}$round_sched" round_sched=''
	if [ "$status" = complete ]; then machine_reference m_ref_end; fi	# and after the last
	if [ "$status" = complete ]; then profile_testcase "$t" status; fi	# profile/record.sh
	if [ "$status" = complete ]; then protect write_meta complete; fi
	if [ "$status" = interrupted ]; then protect write_meta interrupted; fi
	active_run=''
	rm -f -- "$TMP/active"
	t_status[$t]=$status
}

# sweep: every runnable testcase -> t_dir, t_status, sweep_rc
sweep() {
	local t
	declare -gA t_dir=() t_status=() runner_notes=()
	sweep_rc=0
	for t in "${runnable[@]}"; do
		if [ "$interrupted" = 1 ]; then break; fi
		sweep_test "$t"
	done
}

report() {	# the run directories on stdout; each one's status and table on stderr
	local t
	for t in "${runnable[@]}"; do
		if [ -z "${t_dir[$t]+x}" ]; then continue; fi
		printf '%s\n' "$(shown "${t_dir[$t]}")"
		if [ "$opt_quiet" = 0 ]; then
			printf '%s: %s, %s\n' "$t" "${t_status[$t]}" "$(shown "${t_dir[$t]}")" >&2
			table "${t_dir[$t]}" >&2
			profile_report "${t_dir[$t]}" >&2
		fi
	done
}

plot_runs() {	# --plot: each run's curve in the terminal
	local t
	for t in "${runnable[@]}"; do
		if [ -z "${t_dir[$t]+x}" ]; then
			continue
		elif [ ! -f "$ROOT/plot/plot.py" ]; then
			note "note: plot/plot.py is not there: no plot"
			break
		elif ! command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
			note "note: python3 not found: no plot"
			break
		fi
		"${PYTHON:-python3}" "$ROOT/plot/plot.py" --terminal "${t_dir[$t]}" >&2 ||
			warn "warning: plot/plot.py failed for $(shown "${t_dir[$t]}")"
	done
}

# ---- an installed copy (make install) and --version -------------------------------

# print_version: "runtest.sh (scalebench) VERSION git REVISION"
print_version() {
	local v=${sb_version-}
	if [ -z "$SB_INSTALL" ]; then v=$(sed -n 1p "$ROOT/VERSION" 2>/dev/null) || v=''; fi
	printf '%s (scalebench) %s git %s\n' "$PROG" "${v:-unknown}" "$(git_revision)"
}

# installed_dir REL ABS: REL (from the installed command's directory) if it is there, else ABS,
# so that a copy installed under DESTDIR runs before it is moved into place
installed_dir() {
	if [ -d "$ROOT/$1" ]; then (CDPATH='' cd -- "$ROOT/$1" && pwd); else printf '%s' "$2"; fi
}

# installed_layout: -> ROOT (the data directory: plot/), SB_TESTS_DIR (the testcase binaries),
# sb_tools (sb-summary and sb-topology), sb_helpers (sb-sweepargs, sb-vmboot: internal helpers in
# LIBEXECDIR/scalebench), default_results (./results): nothing in a checkout
installed_layout() {
	[ -n "$SB_INSTALL" ] || return 0
	sb_tools=$ROOT
	export SB_TOOLS_DIR=$sb_tools	# plot.py's tools
	sb_helpers=$(installed_dir "$sb_rel_libexec" "$sb_libexec")
	export SB_HELPERS_DIR=$sb_helpers	# vm/boot.sh's sb-vmboot
	export SB_TESTS_DIR=${SB_TESTS_DIR:-$sb_helpers}
	ROOT=$(installed_dir "$sb_rel_data" "$sb_datadir")
	default_results=$PWD/results
}

installed_tools() {	# -> tool_summary, tool_topology, tool_plan: the installed ones, nothing to build
	readonly tool_summary=$sb_tools/sb-summary tool_topology=$sb_tools/sb-topology tool_plan=$sb_tools/sb-plan \
		tool_rundir=$sb_tools/sb-rundir tool_profile=$sb_tools/sb-profile
}

# check_fd_limit: enough descriptors for the sweep's own pipes and files (bash gives
# {var} descriptors from 10 up; the runner raises its own limit for its tasks): the
# soft limit raised to FD_MIN when the hard one allows, else exit 3 before anything is made
FD_MIN=15	# runtest.sh's own need, with the lock's descriptor (selftest/fault_matrix.t: 13 is not enough)
check_fd_limit() {
	local n
	n=$(ulimit -S -n)
	if [ "$n" = unlimited ] || [ "$n" -ge "$FD_MIN" ]; then return 0; fi
	ulimit -S -n "$FD_MIN" 2>/dev/null ||
		die 3 "the open-file limit is $n (ulimit -n): a sweep needs $FD_MIN; raise it (ulimit -n $FD_MIN)"
}

main() {
	if [ $((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1])) -lt 404 ]; then
		die 3 "needs bash 4.4 or later (this is $BASH_VERSION)"
	fi
	check_fd_limit
	local s
	shopt -s inherit_errexit
	trap on_exit EXIT
	for s in "${SIGNALS[@]}"; do
		# shellcheck disable=SC2064 # (the name, now)
		trap "on_signal $s" "$s"
	done
	# (its directory without dirname: each exec a sweep saves is 4-10 ms here)
	case $0 in */*) ROOT=${0%/*} ;; *) ROOT=. ;; esac
	ROOT=$(CDPATH='' cd -- "${ROOT:-/}" && pwd)
	installed_layout
	readonly ROOT
	# shellcheck source=profile/record.sh
	. "$ROOT/profile/record.sh" || die 3 "cannot read $ROOT/profile/record.sh"
	# shellcheck source=vm/sweep.sh
	. "$ROOT/vm/sweep.sh" || die 3 "cannot read $ROOT/vm/sweep.sh"
	# shellcheck source=machine/machine.sh
	. "$ROOT/machine/machine.sh" || die 3 "cannot read $ROOT/machine/machine.sh"
	# the phases' functions (sweep/*.sh): the testcases, the plan,
	# the checks before a run, a run directory's files
	# shellcheck source=sweep/testcases.sh
	. "$ROOT/sweep/testcases.sh" || die 3 "cannot read $ROOT/sweep/testcases.sh"
	# shellcheck source=sweep/plan.sh
	. "$ROOT/sweep/plan.sh" || die 3 "cannot read $ROOT/sweep/plan.sh"
	# shellcheck source=sweep/checks.sh
	. "$ROOT/sweep/checks.sh" || die 3 "cannot read $ROOT/sweep/checks.sh"
	# shellcheck source=sweep/rundir.sh
	. "$ROOT/sweep/rundir.sh" || die 3 "cannot read $ROOT/sweep/rundir.sh"
	# shellcheck source=sweep/history.sh
	. "$ROOT/sweep/history.sh" || die 3 "cannot read $ROOT/sweep/history.sh"
	# shellcheck source=sweep/calibrate.sh
	. "$ROOT/sweep/calibrate.sh" || die 3 "cannot read $ROOT/sweep/calibrate.sh"
	if [ "${1-}" = --version ]; then
		[ $# = 1 ] || usage_error "--version takes no other argument"
		print_version
		exit 0
	fi
	if [ "${1-}" = --check-system ]; then machine_check_system "${@:2}"; fi
	if [ "${1-}" = --calibrate ]; then calibrate_main "${@:2}"; fi

	make_helpers
	read_args "$@"		# the arguments, before anything else (sb-sweepargs)
	make_workdir
	find_testcases		# which testcases; make them and the tools
	build_tools
	read_topology
	load_testcases		# their --info: modes, parameters (the runner checks those)
	if [ "$opt_list" = 1 ]; then
		list_testcases
		exit 0
	fi
	[ ${#runnable[@]} -gt 0 ] || die 2 "nothing to run with --mode $opt_mode"
	check_runner_values	# the runner's own --check of what the sweep hands it
	choose_warmup
	plan_points
	profile_plan
	if [ ${#vm_kernels[@]} -gt 0 ]; then vm_main "$@"; fi	# --kernel: the sweep runs in guests
	if [ "$opt_dry_run" = 1 ]; then
		print_plan
		exit 0
	fi
	if [ -n "$rounded_note" ]; then note "$rounded_note"; fi
	if [ "$largest" -gt "$capacity" ]; then
		warn "warning: points above $capacity tasks are oversubscribed (placement $placement: $capacity $cap_unit)"
	fi
	check_runners		# the runners accept the options (--param dir=...)
	check_results		# writable, before anything runs
	check_space		# room for the run's files
	profile_preflight	# perf works, before anything runs
	machine_facts "$@"

	phase=sweep
	sweep
	phase=report
	end_progress
	report
	machine_release || true	# the machine free (--tune undone) before the history: it may wait
	if [ "$interrupted" = 0 ]; then history_add_sweep; fi	# sweep/history.sh
	if [ "$opt_plot" = 1 ] && [ "$interrupted" = 0 ]; then plot_runs; fi
	if [ "$interrupted" = 1 ]; then
		interrupted_line
		exit 130
	fi
	exit "$sweep_rc"
}

main "$@"
