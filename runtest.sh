#!/usr/bin/env bash
# runtest.sh: the scaling sweep: runs testcases at every task count, as processes and threads, into results/.
#
# Orchestration only. main (at the end) runs the phases in order; a phase sets
# the variables its comment names ("-> x"), readonly from then on except the
# sweep's per-run ones (start_run's run_*, sweep's t_dir/t_status). Shared at
# run time: only what the traps need (the block below).
# What the C tools do sits in marked functions: the runner writes whole
# samples.csv rows, checks its values and owns its option table, sb-summary
# shows the figures:
# (a) runner_format, samples_header, samples_rows  (b) point_figure  (c) table
# (d) check_runner_values  (e) sweep_options.  docs/ARCHITECTURE.md maps it all.
set -eu
# The signals that interrupt a sweep: a terminal's, and any a CI job or timeout(1)
# may send. A signal before main has installed its handlers is an interruption
# all the same.
SIGNALS=(INT TERM HUP QUIT USR1 USR2 ALRM PIPE VTALRM PROF XCPU XFSZ)
trap 'exit 130' "${SIGNALS[@]}"

PROG=runtest.sh
NAME_MAX=255		# the longest file name (Linux, the BSDs): bounds the run id
RUN_ID_TAIL=20		# a run id is the label, -YYYYmmddTHHMMSS and maybe -N
# make install rewrites the next line (build-aux/install.sh): the installed layout and version.
SB_INSTALL=''
# The shape of one run and the stopping rule of a point (docs/RUNTEST.md, "Measurement design")
DEF_WARMUP_MS=1000 DEF_DURATION_MS=1000 DEF_PERIOD=500	# one run: 1 s (auto: 1-2 s) warmup + 1 s measured
DEF_MIN_RUNS=3 DEF_MAX_RUNS=10	# independent runs a point
DEF_PRECISION=2000		# target half-width of the 95% interval, in 1/1000 % of the mean
DEF_POINT_BUDGET_MS=30000	# the most one point may take (its --min-runs always run)
QUICK_WARMUP_MS=500 QUICK_DURATION_MS=500 QUICK_PERIOD=250 QUICK_RUNS=2	# --quick
RUN_OVERHEAD_MS=300		# a run's start and stop of the tasks, for the estimates
AUTO_WARMUP_MAX=2		# seconds: the cap of a sweep run's steady-state warmup
# After SIGTERM, what a child has to stop before SIGKILL (docs/RUNTEST.md,
# "Failures and interruptions"): the runner's own grace for a testcase_prepare or
# testcase_cleanup that does not return is 2 s; a guest's boot.sh quits QEMU.
RUNNER_GRACE_MS=5000 VM_GRACE_MS=15000 PERF_GRACE_MS=30000	# (perf: a large recording to write)

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

usage() {
	local me
	me=$(me)
	sed "s#^usage: \./runtest\.sh#usage: $me#; s#^       \./runtest\.sh#       $me#" <<'EOF'
usage: ./runtest.sh TEST... [options]     run a scaling sweep of each TEST ("all": every one)
       ./runtest.sh --list                 the testcases: name, modes, description, parameters

Sweep (task counts):
  --max-procs N       largest task count (default: the cores hwloc finds; PUs with --smt)
  --min-procs N       smallest task count (default 1)
  --points P          auto (the default): seeds (1, 2, the topology points, the powers
                      of two, the largest), then the counts each mode's curve needs (its
                      peak, its bends); all: every count (will-it-scale); "topology": 1,
                      one last-level cache, each NUMA node's worth, each package's worth,
                      3/4 of the machine and all of it; or exactly a LIST, e.g. 1,2,4,8,96
                      (topology and LIST cannot be combined with the range options)
  --step S            every count: min, then the multiples of S, then max (--points all)
  --max-points N      --points auto: task counts a mode at most (default 24; seeds always run)
  --smt               count hardware threads (PUs), not cores; places tasks on PUs
Each point:
  --mode M            processes, threads, both (default; a testcase meant one way
                      runs that way) or all (every mode the binaries run)
  --duration S        measured seconds of each run (default 1; decimals allowed)
  --warmup S          seconds of warmup each run discards first (default: until the rate
                      settles, at most 2 s, where the runner can tell; else 1)
  --period-ms MS      sample period (default 500)
  --precision PCT     run a point until its 95% interval is within +-PCT % of its mean
                      (default 2), within the budgets below
  --min-runs N        independent runs of every point at least (default 3)
  --max-runs N        runs of a point at most (default 10)
  --point-budget S    seconds a point may take (default 30); --min-runs are always run
  --budget S          seconds the whole sweep may take (default 11 s times the points)
  --repeat R          exactly R runs of each point (no stopping rule, no budgets)
  --seed N            shuffle each round's order with seed N (default: alternate the direction)
  --quick             exploration: 2 runs of 0.5 s warmup + 0.5 s measured a point
  --placement P       cores, pus, spread or none (default cores, pus with --smt)
  --no-affinity       same as --placement none
  --param NAME=VALUE  a testcase parameter (repeatable; recorded in meta)
Results:
  --label NAME        names the run (default: the kernel release, uname -r)
  --results DIR       where runs go (default: results/ of this checkout)
  --dry-run           print the points, modes, placement and estimated time, then exit
  --quiet             no progress, no notes, no table (errors and warnings stay)
  --plot              draw the scaling curve in the terminal at the end (plot/plot.py)
The machine (docs/RUNTEST.md, "One sweep at a time"):
  --no-wait           fail at once (exit 3, naming it) when another sweep holds the machine,
                      instead of waiting for it
  --no-lock           measure without the machine lock, on top of any other sweep (in meta)
  --tune              governor performance, turbo off, ASLR off for the sweep; restored at its end
  --check-system      what on this machine disturbs a measurement, and how to change it
                      (as the only argument)
Profiles (docs/PROFILE.md):
  --profile LIST      after the measured runs, one extra run under perf at these points of
                      each mode: task counts, "peak" (the mode's best), "max" (its largest);
                      not empty
  --profile-keep      keep perf.data too (large)
  -h, --help          this text
In a VM (docs/VM.md): the same sweep inside QEMU guests booted on chosen kernels:
  --kernel IMAGE      boot IMAGE (a bzImage) and run the sweep in it (repeatable: several
                      kernels are measured in alternating rounds, one run per point each)
  --vm-cpus N         vCPUs, pinned one-to-one to host cores (default: the largest point,
                      at most the host's cores)
  --vm-mem MIB        guest memory (default 1024)
  --vm-accel A        kvm, tcg or auto (default auto: KVM when /dev/kvm is usable)
  --vm-fs FS          how the guest sees the host's root: 9p, virtiofs or auto
  --vm-append ARGS    more kernel command line
  --vm-boot-timeout S seconds a guest may take to come up
  --version           scalebench's version and git revision (as the only argument)

Writes DIR/<test>/<label>-<YYYYmmddTHHMMSS>/{summary.csv,samples.csv,meta} and prints
the run directory on standard output. Exit: 0 done, 1 a point failed, 2 usage error,
3 environment error (build, results directory), 130 interrupted.
Testing: SB_BUILD selects the build directory (default build), SB_TESTS_DIR a
directory of <test>_processes/<test>_threads binaries to run instead of SB_BUILD/bin;
SB_VM_BOOT a program to use instead of vm/boot.sh.
EOF
}

# ---- messages, numbers ----------------------------------------------------------

end_progress() {	# the progress line gets its newline before anything else is said
	if [ "$progress_open" = 1 ]; then
		printf '\n' >&2
		progress_open=0
	fi
}

note() { if [ "${opt_quiet:-0}" = 0 ]; then end_progress; printf '%s\n' "$*" >&2; fi; }
warn() { end_progress; printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { last_error=${*:2}; warn "${*:2}"; exit "$1"; }	# die CODE MESSAGE...
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

parse_count() {	# parse_count VAR OPTION VALUE MIN: a whole number >= MIN into VAR
	case $3 in '' | *[!0-9]*) usage_error "$2: '$3' is not a whole number" ;; esac
	[ "${#3}" -le 9 ] || usage_error "$2: '$3' is too large"
	[ $((10#$3)) -ge "$4" ] || usage_error "$2: '$3' must be at least $4"
	printf -v "$1" '%d' $((10#$3))
}

parse_ms() {	# parse_ms VAR OPTION SECONDS [UNIT]: thousandths into VAR ("5", "0.5", "1.25")
	local int=${3%%.*} frac=''
	case $3 in
	'' | .* | *. | *[!0-9.]* | *.*.*) usage_error "$2: '$3' is not a number of ${4:-seconds} like 5 or 0.5" ;;
	*.*) frac=${3#*.} ;;
	esac
	[ "${#frac}" -le 3 ] || usage_error "$2: '$3' has more than 3 decimals"
	[ "${#int}" -le 6 ] || usage_error "$2: '$3' is too large"
	while [ "${#frac}" -lt 3 ]; do frac=${frac}0; done
	printf -v "$1" '%d' $((10#$int * 1000 + 10#$frac))
}

fmt_ms() {	# milliseconds as seconds: 5000 -> 5, 500 -> 0.5
	local f
	printf -v f '%03d' $(($1 % 1000))
	while [ "${f%0}" != "$f" ]; do f=${f%0}; done
	printf '%d%s' $(($1 / 1000)) "${f:+.$f}"
}

now_ms() {	# now_ms VAR: milliseconds into VAR (no $(...): a ^C would leave it empty)
	local t=${EPOCHREALTIME-}
	if [ -n "$t" ]; then
		t=${t/[.,]/}
		printf -v "$1" '%d' $((10#$t / 1000))
	else
		printf -v "$1" '%d' $(($(date +%s) * 1000))
	fi
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
# when FILE holds no measured row (the runner wrote its rows itself)
samples_rows() {
	awk -F, -v pre="$1,$2,$3," '
		index($0, pre) != 1 { exit 1 }
		{ print } $4 == "measure" { m++ }
		END { exit !m }' "$4"
}

# (b) point_figure MODE TASKS RUNDIR: "4.81M ops/s ±0.4%", nothing when absent
point_figure() { "$tool_summary" --point "$1:$2" "$3"; }

# (c) table RUNDIR: the end-of-sweep table, up to 12 of the points
table() { "$tool_summary" --table "$1"; }

# (d) check_runner_values: the runner judges its own values: the --placement
# name, the task counts (the largest the arguments name, before plan_points
# lists them), --period-ms and what opt_pass hands on. Its exit 2 (or 3) and
# its one-line message are the check. What the sweep computes with stays in
# check_args: whole numbers, the seconds of --duration and --warmup, at least
# one sample, --min-procs <= --max-procs.
check_runner_values() {
	local t=${runnable[0]} bin n=1 c rc=0
	bin=$tests_dir/${t}_processes
	if [ ! -x "$bin" ]; then bin=$tests_dir/${t}_threads; fi
	for c in "$opt_max" "$opt_min" "${opt_point_list[@]}"; do	# parse_count made them < 10^9
		if [ -n "$c" ] && [ "$c" -gt "$n" ]; then n=$c; fi
	done
	local err
	err=$("$bin" --check -t "$n" --placement "$placement" --period-ms "$period" "${opt_pass[@]}" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != 0 ]; then
		end_progress
		printf '%s: %s\n' "$PROG" "${err%%$'\n'*}" >&2
		exit "$((rc == 2 ? 2 : 3))"
	fi
}

# (e) The runner options a sweep takes and hands to every run: "OPTION ARG" a
# line (ARG "-": a flag), read from the runner's own option table (the rows
# sb-options --list-options marks sweep=yes), sb-options made first if need
# be. Those parse_args does not read itself go to the runner as given
# (opt_pass). parse_args asks only when it meets an option not its own, so
# --help and sweeps without runner options need no build.
sweep_options() {
	local b=${SB_BUILD:-build} out list f a s name names sbo
	case $b in /*) ;; *) b=$ROOT/$b ;; esac
	sbo=$b/bin/sb-options
	if [ -n "$SB_INSTALL" ]; then sbo=$sb_helpers/sb-options; fi	# installed: nothing to build
	if [ -z "$SB_INSTALL" ] && command -v "${MAKE:-make}" >/dev/null 2>&1 &&
		! out=$("${MAKE:-make}" -s -C "$ROOT" BUILD="$b" "$sbo" 2>&1); then
		printf '%s\n' "$out" | tail -n 25 >&2
		die 3 "the build failed (make output above)"
	fi
	[ -x "$sbo" ] || die 3 "$(shown "$sbo") is missing: run make"
	list=$("$sbo" --list-options) || die 3 "sb-options --list-options failed"
	while read -r f a s _; do
		[ "$s" = sweep=yes ] || continue
		a=${a#arg=}
		IFS=, read -r -a names <<<"${f#option=}"
		for name in "${names[@]}"; do printf '%s %s\n' "$name" "${a:--}"; done
	done <<<"$list"
}

# ---- files: complete or untouched -----------------------------------------------

# write_file DEST CMD...: CMD's output into DEST through a temporary name and
# a rename (CMD is one command, so its status is the write's). DEST ends up
# new or as it was, with no temporary file; a failure exits 3 naming DEST.
write_file() {
	local dest=$1 tmpf err
	shift
	tmpf=${dest%/*}/.${dest##*/}.$$.tmp
	# the rename would put a regular file in place of a symlink or device node (analysis/outpath.c)
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
# stderr is muted: then stopped_note keeps the line); its exit status into VAR
# (130 when bash had collected it already). Never a wait without a limit: a runner whose
# testcase_prepare waits for a server, blind to the signal, would hold the
# sweep for good. Polled: bash reaps the dead child while it waits for sleep,
# and a wait for a pid it has already reaped returns at once.
stop_child() {
	local start now killed=0 r=0
	now_ms start
	while kill -0 "$1" 2>/dev/null; do
		now_ms now
		if [ "$killed" = 0 ] && [ $((now - start)) -ge "$2" ]; then
			stopped_note="warning: $3 (pid $1) had not stopped $(fmt_ms "$2") s after SIGTERM: killed"
			kill -KILL "$1" 2>/dev/null || true
			killed=1
		fi
		sleep 0.05 || true
	done
	wait "$1" 2>/dev/null || r=$?
	if [ "$r" = 127 ]; then r=130; fi
	if [ $# -gt 3 ]; then printf -v "$4" '%d' "$r"; fi
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

# ---- phase: the arguments -------------------------------------------------------

# parse_args ARG...: -> opt_* (their syntax; check_args judges the values)
parse_args() {
	local arg opt val inline o a
	local -A sweep=()
	local sweep_read=0 sweep_list
	opt_tests=() opt_params=() opt_pass=() opt_max='' opt_min='' opt_step='' opt_points='' opt_points_given=0 opt_max_points=''
	opt_mode=both opt_duration_ms='' opt_warmup_ms='' opt_period='' opt_repeat='' opt_placement=''
	opt_precision='' opt_min_runs='' opt_max_runs='' opt_point_budget_ms='' opt_budget_ms='' opt_seed='' opt_quick=0
	opt_smt=0 opt_no_affinity=0 opt_label='' opt_results='' opt_dry_run=0 opt_list=0 opt_plot=0 opt_quiet=0
	opt_profile='' opt_profile_keep=0 opt_no_wait=0 opt_no_lock=0 opt_tune=0
	while [ $# -gt 0 ]; do
		arg=$1
		shift
		case $arg in
		--*=*) opt=${arg%%=*} val=${arg#*=} inline=1 ;;
		*) opt=$arg val='' inline=0 ;;
		esac
		case $opt in	# a: the argument it takes, "-" none
		--max-procs | --min-procs | --step | --points | --mode | --duration | --warmup | \
		--repeat | --label | --results | --precision | --min-runs | --max-runs | --point-budget | \
		--budget | --seed | --param | --period-ms | --placement | --profile | --max-points) a=VALUE ;;
		-h | --help | --list | --smt | --no-affinity | --dry-run | --quiet | --plot | --quick | --profile-keep | \
		--no-wait | --no-lock | --tune) a=- ;;
		-*)
			if [ "$sweep_read" = 0 ]; then
				sweep_list=$(sweep_options)	# its failure exits here
				while read -r o a; do sweep[$o]=$a; done <<<"$sweep_list"
				sweep_read=1
			fi
			a=${sweep[$opt]-}
			;;
		*) a='' ;;
		esac
		if [ -n "$a" ] && [ "$a" != - ] && [ "$inline" = 0 ]; then
			[ $# -gt 0 ] || usage_error "$opt needs a value"
			val=$1
			shift
		elif [ "$a" = - ] && [ "$inline" = 1 ]; then
			usage_error "$opt takes no value"
		fi
		case $opt in
		-h | --help) usage; exit 0 ;;
		--list) opt_list=1 ;;
		--max-procs) parse_count opt_max "$opt" "$val" 1 ;;
		--min-procs) parse_count opt_min "$opt" "$val" 1 ;;
		--step) parse_count opt_step "$opt" "$val" 1 ;;
		--points) opt_points=$val opt_points_given=1 ;;
		--max-points) parse_count opt_max_points "$opt" "$val" 1 ;;
		--mode)
			case $val in
			processes | threads | both | all) opt_mode=$val ;;
			*) usage_error "--mode: unknown mode '$val' (processes, threads, both)" ;;
			esac
			;;
		--duration) parse_ms opt_duration_ms "$opt" "$val" ;;
		--warmup) parse_ms opt_warmup_ms "$opt" "$val" ;;
		--period-ms) parse_count opt_period "$opt" "$val" 1 ;;
		--repeat) parse_count opt_repeat "$opt" "$val" 1 ;;
		--precision)
			parse_ms opt_precision "$opt" "$val" percent
			[ "$opt_precision" -gt 0 ] || usage_error "$opt: '$val' must be more than 0"
			;;
		--min-runs) parse_count opt_min_runs "$opt" "$val" 1 ;;
		--max-runs) parse_count opt_max_runs "$opt" "$val" 1 ;;
		--point-budget) parse_ms opt_point_budget_ms "$opt" "$val" ;;
		--budget) parse_ms opt_budget_ms "$opt" "$val" ;;
		--seed) parse_count opt_seed "$opt" "$val" 0 ;;
		--quick) opt_quick=1 ;;
		--placement) opt_placement=$val ;;
		--no-affinity) opt_no_affinity=1 ;;
		--smt) opt_smt=1 ;;
		--param)
			[[ $val =~ ^[A-Za-z0-9_]+= ]] || usage_error "--param: '$val' is not NAME=VALUE"
			case $val in *$'\n'* | *$'\r'*) usage_error "--param: the value of '${val%%=*}' spans lines" ;; esac
			opt_params+=("$val")
			opt_pass+=(--param "$val")
			;;
		--label) opt_label=$val ;;
		--results)
			[ -n "$val" ] || usage_error "--results: empty directory name"
			opt_results=$val
			;;
		--dry-run) opt_dry_run=1 ;;
		--quiet) opt_quiet=1 ;;
		--plot) opt_plot=1 ;;
		--profile)	# profile/record.sh; empty is refused as --points '' is, not taken for none
			[ -n "$val" ] || usage_error "--profile: empty list (give task counts, 'peak' or 'max')"
			opt_profile=$val
			;;
		--profile-keep) opt_profile_keep=1 ;;
		--no-wait) opt_no_wait=1 ;;	# machine/machine.sh
		--no-lock) opt_no_lock=1 ;;
		--tune) opt_tune=1 ;;
		--) opt_tests+=("$@"); break ;;
		-*)
			[ -n "$a" ] || usage_error "unknown option '$opt'"
			# a runner option the sweep does not read itself: to the runner as given
			if [ "$a" = - ]; then opt_pass+=("$opt"); else opt_pass+=("$opt" "$val"); fi
			;;
		*) opt_tests+=("$arg") ;;
		esac
	done
}

# check_args: what needs nothing but the arguments -> opt_point_list (sorted),
# points_mode, placement, period, samples, warmup_samples, rounded_note, label, results
check_args() {
	local t p list=()
	[ "$opt_list" = 1 ] || [ ${#opt_tests[@]} -gt 0 ] || usage_error "no testcase given"
	for t in "${opt_tests[@]}"; do
		[[ $t =~ ^[A-Za-z0-9_]+$ ]] || usage_error "'$t' is not a testcase name (letters, digits and _ only)"
	done
	# --points auto unless a list, topology, all or --step says otherwise
	points_mode=auto
	case $opt_points_given,$opt_points in
	0,*) if [ -n "$opt_step" ]; then points_mode=all; fi ;;
	1,auto | 1,all) points_mode=$opt_points ;;
	1,topology) points_mode=topology ;;
	*) points_mode=list ;;
	esac
	if [ "$points_mode" = list ] || [ "$points_mode" = topology ]; then
		[ -z "$opt_max$opt_min$opt_step" ] ||
			usage_error "--points cannot be combined with --max-procs, --min-procs or --step"
	fi
	if [ "$points_mode" = auto ] && [ -n "$opt_step" ]; then usage_error "--step measures every count: it goes with --points all, not auto"; fi
	if [ "$points_mode" != auto ] && [ -n "$opt_max_points" ]; then usage_error "--max-points goes with --points auto"; fi
	if [ -n "$opt_min" ] && [ -n "$opt_max" ] && [ "$opt_min" -gt "$opt_max" ]; then
		usage_error "--min-procs $opt_min is larger than --max-procs $opt_max"
	fi
	opt_point_list=()
	if [ "$points_mode" = list ]; then
		IFS=, read -ra list <<<"$opt_points"
		case $opt_points in ,* | *, | *,,*) list=('') ;; esac
		for t in "${list[@]}"; do
			parse_count p --points "$t" 1
			opt_point_list+=("$p")
		done
		[ ${#opt_point_list[@]} -gt 0 ] || usage_error "--points: empty list"
		mapfile -t opt_point_list < <(printf '%s\n' "${opt_point_list[@]}" | sort -n -u)
	fi
	profile_check_args
	placement=$opt_placement
	if [ "$opt_no_affinity" = 1 ]; then
		[ -z "$placement" ] || [ "$placement" = none ] || usage_error "--no-affinity contradicts --placement $placement"
		placement=none
	fi
	if [ -z "$placement" ] && [ "$opt_smt" = 1 ]; then placement=pus; fi
	placement=${placement:-cores}
	run_shape
	stop_rule
	label=$opt_label
	if [ -z "$label" ]; then
		# The kernel release, made safe for a directory name (6.8.0-rc1+ -> 6.8.0-rc1_).
		label=$(uname -r | tr -c 'A-Za-z0-9._\n-' '_')
		label=${label#[.-]}
	elif ! [[ $label =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]]; then
		usage_error "--label: '$label' must be letters, digits, '.', '_' and '-', not starting with '.' or '-'"
	fi
	if [ $((${#label} + RUN_ID_TAIL)) -gt "$NAME_MAX" ]; then
		usage_error "--label: ${#label} characters: too long for a directory name with the date (at most $((NAME_MAX - RUN_ID_TAIL)))"
	fi
	results=${opt_results:-${default_results:-$ROOT/results}}
	readonly opt_tests opt_params opt_pass opt_max opt_min opt_step opt_points opt_points_given \
		opt_point_list opt_max_points points_mode opt_mode opt_duration_ms opt_warmup_ms opt_period opt_repeat opt_placement \
		opt_smt opt_no_affinity opt_label opt_results opt_dry_run opt_list opt_plot opt_quiet \
		opt_precision opt_min_runs opt_max_runs opt_point_budget_ms opt_budget_ms opt_seed opt_quick \
		placement period samples warmup_samples rounded_note label results \
		adaptive min_runs max_runs precision point_budget_ms
}

# run_shape: one run's samples (the defaults, --quick, then what was given)
# -> period, samples, warmup_samples, rounded_note
run_shape() {
	local duration_ms=$DEF_DURATION_MS warmup_ms=$DEF_WARMUP_MS
	period=$DEF_PERIOD
	if [ "$opt_quick" = 1 ]; then
		duration_ms=$QUICK_DURATION_MS warmup_ms=$QUICK_WARMUP_MS period=$QUICK_PERIOD
	fi
	duration_ms=${opt_duration_ms:-$duration_ms} warmup_ms=${opt_warmup_ms:-$warmup_ms} period=${opt_period:-$period}
	samples=$(((duration_ms + period / 2) / period))
	warmup_samples=$(((warmup_ms + period / 2) / period))
	if [ "$samples" -lt 1 ]; then
		usage_error "--duration $(fmt_ms "$duration_ms") s is less than one sample of --period-ms $period"
	fi
	rounded_note=''
	if [ $((samples * period)) -ne "$duration_ms" ] || [ $((warmup_samples * period)) -ne "$warmup_ms" ]; then
		rounded_note="note: whole sample periods: $samples measured and $warmup_samples warmup samples of $period ms"
	fi
}

# stop_rule: how many runs a point gets -> adaptive (0: exactly min_runs = max_runs),
# min_runs, max_runs, precision (1/1000 %; empty: none), point_budget_ms (empty: none)
stop_rule() {
	adaptive=1 min_runs=$DEF_MIN_RUNS max_runs='' precision=$DEF_PRECISION point_budget_ms=$DEF_POINT_BUDGET_MS
	if [ -n "$opt_repeat" ]; then
		if [ -n "$opt_precision$opt_min_runs$opt_max_runs$opt_point_budget_ms$opt_budget_ms" ]; then
			usage_error "--repeat $opt_repeat is exactly $opt_repeat runs a point: it cannot be combined with --precision, --min-runs, --max-runs, --point-budget or --budget"
		fi
		adaptive=0 min_runs=$opt_repeat max_runs=$opt_repeat precision='' point_budget_ms=''
		return
	fi
	# (--quick keeps the precision target: with --max-runs above its runs it is adaptive again)
	if [ "$opt_quick" = 1 ]; then min_runs=$QUICK_RUNS max_runs=$QUICK_RUNS; fi
	min_runs=${opt_min_runs:-$min_runs}
	if [ -n "$opt_max_runs" ]; then
		max_runs=$opt_max_runs
	elif [ "$opt_quick" = 1 ] && [ -z "$opt_precision" ]; then
		max_runs=$min_runs
	else
		max_runs=$((min_runs > DEF_MAX_RUNS ? min_runs : DEF_MAX_RUNS))
	fi
	precision=${opt_precision:-$precision}
	point_budget_ms=${opt_point_budget_ms:-$point_budget_ms}
	if [ "$min_runs" -gt "$max_runs" ]; then
		usage_error "--min-runs $min_runs is more than --max-runs $max_runs"
	fi
	if [ "$min_runs" = "$max_runs" ]; then adaptive=0 precision='' point_budget_ms=''; fi
}

make_workdir() {	# -> TMP (on_exit removes it; the janitor too if runtest.sh is killed)
	local dir=${TMPDIR:-/tmp} line=''
	[ -e "$dir" ] || die 3 "TMPDIR $dir does not exist"
	[ -d "$dir" ] || die 3 "TMPDIR $dir is not a directory"
	start_janitor "$dir"
	read -r line <&"$janitor_out" || true
	case $line in
	"ok $dir/runtest."*) TMP=${line#ok } ;;
	*) die 3 "cannot make a working directory in TMPDIR $dir: $(reason "${line#err }")" ;;
	esac
	tmp_full line
	if [ -n "$line" ]; then die 3 "$line"; fi
}

# tmp_full VAR: why the working directory takes no more data, into VAR (empty
# when it does). Every tool's message goes to a file there: on a full disk it
# is lost, and this line is what reaches the terminal instead.
tmp_full() {
	local err='' m=''
	if ! err=$({ printf '%4096s' '' >"$TMP/.room"; } 2>&1); then
		m="TMPDIR ${TMP%/*} has no room for runtest.sh's working files: $(reason "$err")"
	fi
	rm -f -- "$TMP/.room"
	printf -v "$1" '%s' "$m"
}

# start_janitor DIR: a process that outlives runtest.sh by design. It makes the
# working directory in DIR (so that no moment exists when the directory is
# there and nobody will remove it), says "ok PATH" (or "err MESSAGE"), then
# reads its standard input, a pipe only runtest.sh writes, to its end: however
# runtest.sh ended (SIGKILL included) it then stops the runner at work
# ($TMP/child), marks the run in progress ($TMP/active) interrupted and
# removes the directory. The runner and make do not get the
# pipe (they may outlive runtest.sh). -> janitor_fd, janitor_out
start_janitor() {
	coproc JANITOR {
		trap '' "${SIGNALS[@]}"
		if ! made=$(mktemp -d "$1/runtest.XXXXXX" 2>&1); then
			printf 'err %s\n' "${made//$'\n'/ }"
			exit 0
		fi
		printf 'ok %s\n' "$made"
		exec >/dev/null 2>&1
		cat >/dev/null
		# the runner at work: SIGTERM, then SIGKILL after the grace (a testcase_prepare
		# that blocks every signal would outlive us otherwise)
		if read -r pid <"$made/child" && kill -TERM "$pid"; then
			for ((i = 0; i < RUNNER_GRACE_MS / 50; i++)); do
				# (gone, or dead and not yet reaped: its new parent may reap late)
				case $(ps -o stat= -p "$pid") in '' | Z*) break ;; esac
				sleep 0.05
			done
			if [ "$i" -ge $((RUNNER_GRACE_MS / 50)) ]; then kill -KILL "$pid" || true; fi
		fi
		if read -r probe <"$made/probe"; then rm -f -- "$probe"; fi
		# --tune's settings back (machine/machine.sh), once runtest.sh's lock is free
		if { read -r tool && read -r saved; } <"$made/tuned"; then "$tool" restore "$saved" --with-lock; fi
		# a run whose meta still says running was cut short (SIGKILL): say so, atomically
		if read -r run <"$made/active" && grep -qx 'status=running' "$run/meta"; then
			if ! { sed 's/^status=running$/status=interrupted/' "$run/meta" >"$run/.meta.$$.tmp" &&
				mv -f -- "$run/.meta.$$.tmp" "$run/meta"; }; then
				rm -f -- "$run/.meta.$$.tmp"
			fi
		fi
		rm -rf -- "$made"
	} 2>/dev/null
	# (a copy: bash keeps a coprocess's own descriptors from subshells, and a
	# protected write that runtest.sh's death leaves running must hold the pipe too)
	exec {janitor_fd}>&"${JANITOR[1]}"
	janitor_out=${JANITOR[0]}
}

# ---- phase: the testcases, the build, the topology ------------------------------

# find_testcases: -> build, build_abs, tests_dir, own_tests, selected
find_testcases() {
	local t known=()
	build=${SB_BUILD:-build}
	case $build in /*) build_abs=$build ;; *) build_abs=$ROOT/$build ;; esac
	own_tests=1 tests_dir=$build_abs/bin
	if [ -n "${SB_TESTS_DIR-}" ]; then
		own_tests=0
		case $SB_TESTS_DIR in /*) tests_dir=$SB_TESTS_DIR ;; *) tests_dir=$PWD/$SB_TESTS_DIR ;; esac
	fi
	readonly build build_abs tests_dir own_tests
	mapfile -t known < <(known_tests)
	selected=()
	if [ "$opt_list" = 1 ]; then selected=("${known[@]}"); fi
	for t in "${opt_tests[@]}"; do
		if [ "$t" = all ]; then
			selected+=("${known[@]}")
		elif [[ " ${known[*]} " == *" $t "* ]]; then
			selected+=("$t")
		else
			usage_error "unknown testcase '$t'; known: ${known[*]-none}"
		fi
	done
	# each testcase once, in the order given
	mapfile -t selected < <(printf '%s\n' "${selected[@]}" | awk 'NF && !seen[$0]++')
	[ ${#selected[@]} -gt 0 ] || die 2 "no testcases found in $(shown "$tests_dir")"
	readonly selected
}

known_tests() {	# the testcase names, one a line
	local f n
	if [ "$own_tests" = 1 ]; then
		for f in "$ROOT"/tests/*.c; do
			n=${f##*/}
			if [ -f "$f" ]; then printf '%s\n' "${n%.c}"; fi
		done
	else
		for f in "$tests_dir"/*_processes "$tests_dir"/*_threads; do
			n=${f##*/}
			n=${n%_processes}
			if [ -x "$f" ]; then printf '%s\n' "${n%_threads}"; fi
		done | sort -u
	fi
}

build_tools() {	# make what the sweep runs -> tool_summary, tool_topology, tool_plan
	local t targets=("$build/bin/sb-summary" "$build/bin/sb-topology" "$build/bin/sb-plan" "$build/bin/sb-machine")
	if [ -n "$SB_INSTALL" ]; then installed_tools; return 0; fi
	if [ "$own_tests" = 1 ]; then
		for t in "${selected[@]}"; do
			targets+=("$build/bin/${t}_processes" "$build/bin/${t}_threads")
		done
	fi
	command -v "${MAKE:-make}" >/dev/null 2>&1 ||
		die 3 "make not found: install GNU make (or run 'make deps' as root)"
	if ! "${MAKE:-make}" -s -C "$ROOT" BUILD="$build" "${targets[@]}" >"$TMP/make.log" 2>&1 {janitor_fd}>&-; then
		end_progress
		tail -n 25 "$TMP/make.log" >&2
		tmp_full t
		die 3 "${t:-the build failed (make output above)}"
	fi
	if [ -s "$TMP/make.log" ] && [ "$opt_quiet" = 0 ]; then cat "$TMP/make.log" >&2; fi
	readonly tool_summary=$build_abs/bin/sb-summary tool_topology=$build_abs/bin/sb-topology \
		tool_plan=$build_abs/bin/sb-plan
}

read_topology() {	# -> topo[key], sb-topology's key=value lines
	local rc=0 k v
	declare -gA topo=()
	local err full
	# (its messages in memory: a file in TMPDIR is lost when that disk is full)
	err=$("$tool_topology" 2>&1 >"$TMP/topology") || rc=$?
	if [ "$rc" != 0 ]; then
		if [ -n "$err" ]; then printf '%s\n' "$err" >&2; fi
		if [ "$rc" = 2 ]; then exit 2; fi
		tmp_full full
		die 3 "${full:-sb-topology failed (exit status $rc)}"
	fi
	while IFS='=' read -r k v; do topo[$k]=$v; done <"$TMP/topology"
	readonly topo
}

split_param() {	# split_param ARRAY "NAME<tab>DEFAULT<tab>KIND<tab>HELP": the 4 fields, maybe empty
	local -n _f=$1
	local rest=$2
	_f=("${rest%%$'\t'*}")
	rest=${rest#*$'\t'}
	_f+=("${rest%%$'\t'*}")
	rest=${rest#*$'\t'}
	_f+=("${rest%%$'\t'*}" "${rest#*$'\t'}")
}

# read_info TEST: the runner's --info -> t_info (the file), t_desc,
# t_modes, t_params, t_run_modes (empty: nothing to run with --mode) of TEST
read_info() {
	local t=$1 bin=$tests_dir/${1}_processes line k v rc=0 mlist='' fld meant='' meant_else=''
	local -A given=()
	if [ ! -x "$bin" ]; then bin=$tests_dir/${t}_threads; fi
	[ -x "$bin" ] || die 3 "no binary $(shown "$tests_dir")/${t}_processes or _threads"
	t_info[$t]=$TMP/info.$t
	local err full
	err=$("$bin" "${opt_pass[@]}" --info 2>&1 >"${t_info[$t]}") || rc=$?
	if [ "$rc" != 0 ]; then
		end_progress
		if [ -n "$err" ]; then printf '%s\n' "$err" >&2; fi
		if [ "$rc" = 2 ]; then exit 2; fi
		tmp_full full
		die 3 "${full:-$t: '--info' failed (exit status $rc)}"
	fi
	t_desc[$t]='' t_modes[$t]=processes,threads t_params[$t]=''
	for line in "${opt_params[@]}"; do given[${line%%=*}]=${line#*=}; done
	while IFS= read -r line; do
		k=${line%%=*} v=${line#*=}
		case $k in
		description) t_desc[$t]=$v ;;
		modes) t_modes[$t]=$v ;;
		meant) meant=$v ;;
		meant_else) meant_else=$v ;;
		param)
			split_param fld "$v"
			if [ -n "${given[${fld[0]}]+x}" ]; then fld[1]=${given[${fld[0]}]}; fi
			t_params[$t]="${t_params[$t]}${t_params[$t]:+ }${fld[0]}=${fld[1]}"
			;;
		esac
	done <"${t_info[$t]}"
	case $opt_mode in
	both) mlist=${meant:-${t_modes[$t]}} ;;
	all) mlist=${t_modes[$t]} ;;
	*) case ,${t_modes[$t]}, in *,"$opt_mode",*) mlist=$opt_mode ;; esac ;;
	esac
	if [ "$opt_mode" = both ] && [ -n "$meant" ] && [ "$opt_list" = 0 ]; then
		note "note: $t runs as $mlist only by default: the other way $meant_else (--mode all runs it)"
	elif [ "$opt_mode" = both ] && [ -n "$mlist" ] && [ "$mlist" != processes,threads ] && [ "$opt_list" = 0 ]; then
		note "note: $t runs as $mlist only (it says so with SB_MODES)"
	fi
	t_run_modes[$t]=$mlist
}

load_testcases() {	# -> t_* of every selected testcase, runnable (those with modes to run)
	local t
	declare -gA t_info=() t_desc=() t_modes=() t_params=() t_run_modes=()
	runnable=()
	for t in "${selected[@]}"; do
		read_info "$t"
		if [ -n "${t_run_modes[$t]}" ]; then
			runnable+=("$t")
		elif [ "$opt_list" = 1 ] || [[ " ${opt_tests[*]-} " != *" $t "* ]]; then
			note "note: $t runs as ${t_modes[$t]} only: skipped with --mode $opt_mode"
		else
			usage_error "$t runs as ${t_modes[$t]} only: nothing to run with --mode $opt_mode"
		fi
	done
	readonly t_info t_desc t_modes t_params t_run_modes runnable
}

list_testcases() {	# --list
	local t line fld
	for t in "${selected[@]}"; do
		printf '%-20s %-18s %s\n' "$t" "${t_modes[$t]}" "${t_desc[$t]}"
		while IFS= read -r line; do
			case $line in
			param=*)
				split_param fld "${line#param=}"
				printf '%-20s --param %s=%s  (%s) %s\n' '' "${fld[0]}" "${fld[1]}" "${fld[2]}" "${fld[3]}"
				;;
			esac
		done <"${t_info[$t]}"
	done
}

# ---- phase: the plan ------------------------------------------------------------

# choose_warmup: each run's warmup -> warmup_args (the runner's options),
# warmup_text (meta's warmup). --warmup S (and --quick) is a fixed count of
# samples; otherwise, when the runner has it, --warmup auto: the warmup ends
# when the rate has settled, after --warmup-min and at most AUTO_WARMUP_MAX
# seconds (the runner's own rule; --warmup-min/--warmup-max pass through)
choose_warmup() {
	local t=${runnable[0]} m
	m=${t_run_modes[$t]%%,*}
	warmup_args=(--warmup "$warmup_samples") warmup_text=$(fmt_ms $((warmup_samples * period)))
	if [ -z "$opt_warmup_ms" ] && [ "$opt_quick" = 0 ] &&
		"$tests_dir/${t}_$m" --list-options 2>/dev/null | grep -q '^option=--warmup arg=N|auto '; then
		warmup_args=(--warmup auto --warmup-max "$AUTO_WARMUP_MAX") warmup_text=auto
	fi
	readonly warmup_args warmup_text
}

# plan_conf: the sweep's options and the topology facts, for sb-plan -> $TMP/plan.conf
plan_conf() {
	local unit=cores machine=${topo[cores]} tp=${topo[topology_points]} t modes total=0
	if [ "$opt_smt" = 1 ]; then unit=pus machine=${topo[pus]} tp=${topo[topology_points_pus]}; fi
	if [ "${opt_min:-1}" -gt "${opt_max:-$machine}" ]; then
		usage_error "--min-procs $opt_min is larger than the default --max-procs $machine ($unit here)"
	fi
	for t in "${runnable[@]}"; do
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		total=$((total + ${#modes[@]}))
	done
	meta_lines modes_total "$total" points_mode "$points_mode" points "$(IFS=,; printf '%s' "${opt_point_list[*]}")" \
		min "${opt_min:-1}" max "${opt_max:-$machine}" step "${opt_step:-1}" units "$machine" smt "$opt_smt" \
		per_llc "${topo[${unit}_per_llc]}" per_numa "${topo[${unit}_per_numa]}" \
		per_package "${topo[${unit}_per_package]}" numa "${topo[numa]}" packages "${topo[packages]}" \
		topology_points "$tp" min_runs "$min_runs" max_runs "$max_runs" adaptive "$adaptive" \
		precision "$precision" point_budget_ms "$point_budget_ms" budget_ms "$opt_budget_ms" \
		seed "$opt_seed" run_ms "$run_ms" max_points "$opt_max_points" \
		extra "$(printf '%s' "${opt_profile-}" | tr ',' '\n' | grep -x '[0-9]*' | paste -s -d, -)" >"$TMP/plan.conf"
}

# plan_points: sb-plan's plan -> points_list, npoints, largest, points_csv (the
# counts planned so far: auto's seeds, then what it adds), plan_text (--dry-run's words),
# max_points, capacity, cap_unit, plan_budget_points (the points a mode counts in
# the budget), plan_points_all (of every testcase), plan_runs (runner runs at
# least), run_ms (one run's estimate), budget_ms (the sweep's, empty when not
# adaptive), plan_max_ms (the most it may take)
plan_points() {
	local k v out rc=0 t modes
	run_ms=$(((warmup_samples + samples) * period + RUN_OVERHEAD_MS))
	if [ "$warmup_text" = auto ]; then	# the steady-state warmup at its cap
		run_ms=$((AUTO_WARMUP_MAX * 1000 + samples * period + RUN_OVERHEAD_MS))
	fi
	plan_conf
	out=$("$tool_plan" plan "$TMP/plan.conf" 2>&1) || rc=$?
	if [ "$rc" = 2 ]; then usage_error "${out#sb-plan: }"; elif [ "$rc" != 0 ]; then die 3 "$out"; fi
	declare -gA plan_text=()
	while IFS='=' read -r k v; do
		case $k in
		points) points_csv=$v ;;
		largest) largest=$v ;;
		max_points) max_points=$v ;;
		budget_points) plan_budget_points=$v ;;
		runs_min) plan_runs=$v ;;
		budget_ms) budget_ms=$v ;;
		max_ms) plan_max_ms=$v ;;
		text_*) plan_text[${k#text_}]=$v ;;
		esac
	done <<<"$out"
	IFS=, read -ra points_list <<<"$points_csv"
	npoints=${#points_list[@]}
	if [ "$adaptive" = 0 ]; then budget_ms=''; fi
	case $placement in
	pus | none) capacity=${topo[pus]} cap_unit=PUs ;;
	*) capacity=${topo[cores]} cap_unit=cores ;;
	esac
	plan_points_all=0
	for t in "${runnable[@]}"; do
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		plan_points_all=$((plan_points_all + plan_budget_points * ${#modes[@]}))
	done
	readonly points_list npoints largest plan_text max_points capacity cap_unit plan_budget_points \
		plan_points_all plan_runs run_ms budget_ms plan_max_ms
}

# placement_rows TESTCASE MODE: --dry-run's placement of the largest point, one
# row per place; the tasks beyond them (oversubscription) wrap around, in one line
placement_rows() {
	local rows=$largest which
	if [ "$placement" = none ]; then rows=1; fi	# every task alike
	if [ "$rows" -gt "$capacity" ]; then rows=$capacity; fi
	"$tests_dir/${1}_$2" -t "$rows" --placement "$placement" "${opt_pass[@]}" --print-placement | sed 's/^/    /'
	if [ "$largest" -gt "$rows" ]; then
		which="tasks $rows-$((largest - 1))"
		if [ "$largest" = $((rows + 1)) ]; then which="task $rows"; fi
		if [ "$rows" = 1 ]; then
			printf '    %s: as task 0\n' "$which"
		else
			printf '    %s: wrap around, task i placed as task i %% %d\n' "$which" "$rows"
		fi
	fi
}

print_plan() {	# --dry-run
	local t modes
	for t in "${runnable[@]}"; do
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		printf '%s: %s\n' "$t" "${t_desc[$t]}"
		printf '  points:    %s (%d)\n' "$points_csv" "$npoints"
		if [ -n "${plan_text[seeds]-}" ]; then
			printf '  auto:      these seeds, then up to %d counts a mode: the peak'"'"'s neighbours, and the\n' "$max_points"
			printf '             midpoints where no straight line explains the curve (--points all: every count)\n'
			printf '  seeds:     %s\n' "${plan_text[seeds]}"
		fi
		printf '  modes:     %s\n' "${t_run_modes[$t]}"
		printf '  each run:  %s warmup + %s s measured in %d ms samples\n' \
			"$(if [ "$warmup_text" = auto ]; then echo "steady-state (at most ${AUTO_WARMUP_MAX} s)"; else echo "$warmup_text s"; fi)" \
			"$(fmt_ms $((samples * period)))" "$period"
		printf '  runs:      %s\n' "${plan_text[runs]}"
		printf '  params:    %s\n' "${t_params[$t]:-none}"
		printf '  placement: %s, at %d tasks:\n' "$placement" "$largest"
		placement_rows "$t" "${modes[0]}"
	done
	printf 'topology:  %s\n' "${topo[topology]}"
	printf 'order:     %s\n' "${plan_text[order]}"
	printf 'estimated: %s\n' "${plan_text[estimated]}"
}

# ---- phase: the results directory, the machine ----------------------------------

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

check_results() {	# each results/<test>: made, writable, not full, its latest ours to replace
	local t dir probe err
	for t in "${runnable[@]}"; do
		dir=$results/$t
		err=$(mkdir -p -- "$dir" 2>&1) ||
			die 3 "cannot create the results directory $(shown "$dir"): ${err##*$'\n'}"
		# named first, so that on_exit and the janitor remove it however runtest.sh ends
		probe=$dir/.probe.$$
		printf '%s\n' "$probe" >"$TMP/probe"
		{ : >"$probe"; } 2>/dev/null ||
			die 3 "the results directory $(shown "$dir") is not writable"
		# a page of data: an empty file still fits on a full disk
		if ! err=$({ head -c 4096 /dev/zero >"$probe"; } 2>&1); then
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
# (the new copy is written before the old one goes), summary.csv and meta.
check_space() {
	local t need kb
	need=$(((plan_runs * (warmup_samples + samples) * 128 * 2 + plan_runs * 256 + ${#runnable[@]} * 8192 + 1023) / 1024))
	for t in "${runnable[@]}"; do
		kb=$(df -Pk -- "$results/$t" 2>/dev/null | awk 'NR == 2 { print $4 }') || kb=''
		case $kb in '' | *[!0-9]*) continue ;; esac	# unknown: the writes will tell
		if [ "$kb" -lt "$need" ]; then
			die 3 "the results directory $(shown "$results/$t") has $kb KB free; this run writes about $need KB"
		fi
	done
}

os_name() {	# PRETTY_NAME of /etc/os-release, else the system's name
	local v
	if [ -r /etc/os-release ] && v=$(grep -m 1 '^PRETTY_NAME=' /etc/os-release); then
		v=${v#PRETTY_NAME=} v=${v#\"}
		printf '%s' "${v%\"}"
	else
		uname -s
	fi
}

cpu_model() {
	local model=''
	if [ -r /proc/cpuinfo ]; then
		model=$(awk -F': *' '/^(model name|Model|Hardware|cpu model|cpu)[ \t]*:/ { print $2; exit }' /proc/cpuinfo)
	fi
	if [ -z "$model" ]; then model=$(sysctl -n hw.model 2>/dev/null || uname -m); fi
	printf '%s' "$model"
}

git_revision() {
	local rev
	if [ -n "$SB_INSTALL" ]; then printf '%s' "$sb_git"; return 0; fi
	if ! rev=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null); then
		printf 'unknown'
	elif [ -n "$(git -C "$ROOT" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		printf '%s-dirty' "$rev"
	else
		printf '%s' "$rev"
	fi
}

# machine_facts ARG...: -> aslr, aslr_wrap (the runner's prefix), m_* (meta's facts); then machine_hold
machine_facts() {
	local cc
	aslr=off aslr_wrap=()
	if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 2)" = 0 ]; then
		:
	elif setarch "$(uname -m)" -R true >/dev/null 2>&1; then
		aslr_wrap=(setarch "$(uname -m)" -R)
	else
		aslr=on
		warn "warning: cannot turn address-space randomisation off (setarch -R failed): runs with it on"
	fi
	read -ra cc <<<"${CC:-cc}"
	m_host=$(uname -n) m_kernel=$(uname -srvm) m_os=$(os_name) m_cpu=$(cpu_model) m_start=$(start_id)
	m_compiler=$("${cc[@]}" --version 2>/dev/null | head -n 1 || true)
	m_cflags=${CFLAGS:--O2 -g} m_git=$(git_revision)
	m_command=$(printf '%q ' "$0" "$@")
	m_command=${m_command% }
	readonly aslr aslr_wrap m_host m_kernel m_os m_cpu m_compiler m_cflags m_git m_command m_start
	machine_hold	# one sweep at a time, --tune, the system check (machine/machine.sh)
}

# start_id: this sweep's boot id and start time ("BOOT_ID/TICKS", /proc's; empty
# where there is none), meta's sweep_start: with sweep_host and sweep_pid a
# reader tells a live sweep's `running` from an abandoned one, pid reuse included
start_id() {
	local boot stat f
	{ read -r boot </proc/sys/kernel/random/boot_id && read -r stat <"/proc/$$/stat"; } 2>/dev/null || return 0
	read -ra f <<<"${stat##*) }"	# (after the name, which may hold anything): field 3 on
	printf '%s/%s' "$boot" "${f[19]-}"
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

meta_text() {	# meta_text STATUS [ERROR FAILED_MODE FAILED_TASKS]: the current run's meta
	meta_lines test "$run_test" description "${t_desc[$run_test]}" label "$label" run_id "$run_id" \
		status "$1" error "${2-}" failed_mode "${3-}" failed_tasks "${4-}" date "$run_date" \
		host "$m_host" kernel "$m_kernel" os "$m_os" cpu_model "$m_cpu" \
		topology "${topo[topology]}" hwloc_version "${topo[hwloc_version]}" \
		placement "$placement" aslr "$aslr" modes "${t_run_modes[$run_test]}" points "$points_csv" \
		points_mode "$points_mode" max_points "$(if [ "$points_mode" = auto ]; then echo "$max_points"; fi)" \
		duration "$(fmt_ms $((samples * period)))" warmup "$warmup_text" \
		period_ms "$period" repeat "$opt_repeat" min_runs "$min_runs" max_runs "$max_runs" \
		precision "$(if [ -n "$precision" ]; then fmt_ms "$precision"; fi)" \
		point_budget "$(if [ -n "$point_budget_ms" ]; then fmt_ms "$point_budget_ms"; fi)" \
		budget "$(if [ -n "$budget_ms" ]; then fmt_ms "$budget_ms"; fi)" \
		order "$(if [ -n "$opt_seed" ]; then echo shuffle; else echo alternate; fi)" seed "$opt_seed" \
		schedule "$schedule${schedule:+${round_sched:+ }}$round_sched" unmet "$(unmet_points)" \
		late_warnings "$late_warnings" params "${t_params[$run_test]}" \
		command "$m_command" compiler "$m_compiler" cflags "$m_cflags" git_revision "$m_git" \
		sweep_host "$m_host" sweep_pid "$$" sweep_start "$m_start"
	vm_meta_lines
	machine_meta_lines
}

write_meta() {	# write_meta STATUS [ERROR FAILED_MODE FAILED_TASKS]
	local text
	text=$(meta_text "$@")
	write_file "$run_dir/meta" printf '%s\n' "$text"
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
	err=$({ cat -- "$TMP/point" >>"$TMP/samples.csv"; } 2>&1) ||
		die 3 "cannot write $TMP/samples.csv: $(reason "$err")"
	publish
	write_meta running
}

make_run_dir() {	# make_run_dir DIR: DIR/<label>-<stamp>[-N], made by mkdir -> "ID STAMP"
	local stamp id n=1 err
	stamp=$(date -u +%Y%m%dT%H%M%S)
	id=$label-$stamp
	while ! err=$(mkdir -- "$1/$id" 2>&1); do
		[ -e "$1/$id" ] || die 3 "cannot create $(shown "$1/$id"): $(reason "$err")"
		n=$((n + 1))
		id=$label-$stamp-$n
	done
	printf '%s %s\n' "$id" "$stamp"
}

point_latest() {	# point_latest DIR ID: DIR/latest -> ID, replaced by a rename
	local link=$1/.latest.$$.tmp err
	err=$(ln -s -- "$2" "$link" 2>&1) || die 3 "cannot write $(shown "$1/latest"): $(reason "$err")"
	if ! mv -T -f -- "$link" "$1/latest" 2>/dev/null; then
		rm -f -- "$link"
		# (no mv -T): ln -n replaces a link, but it would write into a directory
		if [ -d "$1/latest" ] && [ ! -L "$1/latest" ]; then
			die 3 "$(shown "$1/latest") is a directory, not the link to the newest run: move it away"
		fi
		err=$(ln -s -f -n -- "$2" "$1/latest" 2>&1) || die 3 "cannot write $(shown "$1/latest"): $(reason "$err")"
	fi
}

# start_run TEST: a run directory with its first files -> run_test, run_id,
# run_date, run_dir (what write_meta reads), active_run
start_run() {
	local s
	protect make_run_dir "$results/$1" >"$TMP/run_id"
	read -r run_id s <"$TMP/run_id"
	run_date=${s:0:4}-${s:4:2}-${s:6:2}T${s:9:2}:${s:11:2}:${s:13:2}Z
	run_test=$1 run_dir=$results/$1/$run_id
	samples_header "$1" >"$TMP/samples.csv" || die 3 "$1: the runner cannot print its samples.csv header"
	if ! (protect write_meta running); then
		rmdir -- "$run_dir" 2>/dev/null || true	# nothing in it: no run directory without meta
		exit 3
	fi
	active_run=$run_dir
	printf '%s\n' "$run_dir" >"$TMP/active"
	protect publish
	protect point_latest "$results/$1" "$run_id"
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
		rm -f -- "$TMP/child"
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

# plan_next [--ran MODE:TASKS:MS] T0: sb-plan counts the run just made (its
# values are in the run directory) and says what runs next, in rounds: round
# k runs every point not done once, in its order (alternate, or --seed's
# shuffle); a point is done at its --precision, --max-runs or --point-budget,
# or when a run would overrun this testcase's share of --budget; --points
# auto adds counts between rounds -> next_run ("MODE TASKS RUN ROUND", empty:
# done), points_csv, plan_unmet, plan_progress
plan_next() {
	local out rc=0 line now t0=${*: -1} left=-1
	now_ms now
	if [ "$adaptive" = 1 ]; then left=$((budget_ms > sweep_elapsed_ms ? budget_ms - sweep_elapsed_ms : 0)); fi
	# protected: a ^C must not cut its points.csv in half (the sweep stops after it)
	out=$(protect "$tool_plan" next "$TMP/plan.conf" "$TMP/plan.state" --run-dir "$run_dir" "${@:1:$#-1}" \
		--elapsed $((now - t0)) --per-run $((sweep_runs > 0 ? sweep_ms / sweep_runs : run_ms)) \
		--later "$later_points" --budget-left "$left" 2>"$TMP/plan.err") || rc=$?
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

unmet_points() { printf '%s' "${plan_unmet-}"; }	# the points that stopped short of --precision

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
	local t=$1 m n r round last_round='' status=complete fig allow=-1 t0 r0 r1 ran=() modes own err rc=0
	IFS=, read -ra modes <<<"${t_run_modes[$t]}"
	own=$((plan_budget_points * ${#modes[@]}))	# this testcase's points, as the budget counts them
	later_points=$((later_points - own))
	schedule='' round_sched='' late_warnings=0 plan_unmet=''
	start_run "$t"
	t_dir[$t]=$run_dir
	now_ms t0
	if [ "$adaptive" = 1 ]; then
		allow=$(((budget_ms - sweep_elapsed_ms) * own / (own + later_points)))
	fi
	err=$(protect "$tool_plan" init "$TMP/plan.conf" "$TMP/plan.state" --modes "${t_run_modes[$t]}" \
		--allow "$allow" --run-dir "$run_dir" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then die 3 "$err"; fi
	points_csv=${err#points }
	while [ "$status" = complete ]; do
		plan_next "${ran[@]}" "$t0"
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
		now_ms r0
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
		now_ms r1
		ran=(--ran "$m:$n:$((r1 - r0))")
		sweep_ms=$((sweep_ms + r1 - r0)) sweep_runs=$((sweep_runs + 1))
		sweep_elapsed_ms=$((sweep_elapsed_ms + r1 - r0))
		fig=$(protect point_figure "$m" "$n" "$run_dir")
	done
	schedule="$schedule${schedule:+${round_sched:+ }}$round_sched" round_sched=''
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
	sweep_rc=0 sweep_ms=0 sweep_runs=0 sweep_elapsed_ms=0 later_points=$plan_points_all
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
# sb_tools (sb-summary and sb-topology), sb_helpers (sb-options, an internal helper in
# LIBEXECDIR/scalebench), default_results (./results): nothing in a checkout
installed_layout() {
	[ -n "$SB_INSTALL" ] || return 0
	sb_tools=$ROOT
	export SB_TOOLS_DIR=$sb_tools	# plot.py's tools
	sb_helpers=$(installed_dir "$sb_rel_libexec" "$sb_libexec")
	export SB_TESTS_DIR=${SB_TESTS_DIR:-$sb_helpers}
	ROOT=$(installed_dir "$sb_rel_data" "$sb_datadir")
	default_results=$PWD/results
}

installed_tools() {	# -> tool_summary, tool_topology, tool_plan: the installed ones, nothing to build
	readonly tool_summary=$sb_tools/sb-summary tool_topology=$sb_tools/sb-topology tool_plan=$sb_tools/sb-plan
}

main() {
	if [ $((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1])) -lt 404 ]; then
		die 3 "needs bash 4.4 or later (this is $BASH_VERSION)"
	fi
	local s
	shopt -s inherit_errexit
	trap on_exit EXIT
	for s in "${SIGNALS[@]}"; do
		# shellcheck disable=SC2064 # (the name, now)
		trap "on_signal $s" "$s"
	done
	ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
	installed_layout
	readonly ROOT
	# shellcheck source=profile/record.sh
	. "$ROOT/profile/record.sh" || die 3 "cannot read $ROOT/profile/record.sh"
	# shellcheck source=vm/sweep.sh
	. "$ROOT/vm/sweep.sh" || die 3 "cannot read $ROOT/vm/sweep.sh"
	# shellcheck source=machine/machine.sh
	. "$ROOT/machine/machine.sh" || die 3 "cannot read $ROOT/machine/machine.sh"
	if [ "${1-}" = --version ]; then print_version; exit 0; fi
	if [ "${1-}" = --check-system ]; then machine_check_system "${@:2}"; fi

	vm_take_args "$@"	# --kernel, --vm-*: -> vm_kernels ...; the rest -> vm_rest
	parse_args "${vm_rest[@]}"	# the arguments, before anything else
	check_args
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
	if [ "$opt_plot" = 1 ] && [ "$interrupted" = 0 ]; then plot_runs; fi
	if [ "$interrupted" = 1 ]; then
		interrupted_line
		exit 130
	fi
	exit "$sweep_rc"
}

main "$@"
