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
# A signal before main has installed its handlers is an interruption all the same.
trap 'exit 130' INT TERM HUP

PROG=runtest.sh
NAME_MAX=255		# the longest file name (Linux, the BSDs): bounds the run id
RUN_ID_TAIL=20		# a run id is the label, -YYYYmmddTHHMMSS and maybe -N
# make install rewrites the next line (build-aux/install.sh): the installed layout and version.
SB_INSTALL=''

# The state the traps read.
phase=setup		# setup: a signal exits at once; sweep: it stops the sweep
interrupted=0
sigflag=0		# a signal came during the current wait
child=''		# the runner at work
active_run=''		# the run directory whose meta is not final yet
progress_open=0		# a progress line without its newline is on the terminal
TMP=''			# the working directory (make_workdir), removed at exit

usage() {
	cat <<'EOF'
usage: ./runtest.sh TEST... [options]     run a scaling sweep of each TEST ("all": every one)
       ./runtest.sh --list                 the testcases: name, modes, description, parameters

Sweep (task counts):
  --max-procs N       largest task count (default: the cores hwloc finds; PUs with --smt)
  --min-procs N       smallest task count (default 1)
  --step S            min, then the multiples of S, then max (default 1)
  --points LIST       exactly these task counts, e.g. 1,2,4,8,96; "topology": 1, one
                      last-level cache, each NUMA node's worth, each package's worth,
                      3/4 of the machine and all of it (cannot be combined with the above)
  --smt               count hardware threads (PUs), not cores; places tasks on PUs
Each point:
  --mode M            processes, threads, both (default; a testcase meant one way
                      runs that way) or all (every mode the binaries run)
  --duration S        measured seconds per point (default 5; decimals allowed)
  --warmup S          seconds of warmup discarded first (default 5)
  --period-ms MS      sample period (default 1000)
  --repeat R          independent runs of each point (default 1)
  --placement P       cores, pus, spread or none (default cores, pus with --smt)
  --no-affinity       same as --placement none
  --param NAME=VALUE  a testcase parameter (repeatable; recorded in meta)
Results:
  --label NAME        names the run (default: the kernel release, uname -r)
  --results DIR       where runs go (default: results/ of this checkout)
  --dry-run           print the points, modes, placement and estimated time, then exit
  --quiet             no progress, no notes, no table (errors and warnings stay)
  --plot              draw the scaling curve in the terminal at the end (plot/plot.py)
  -h, --help          this text
  --version           scalebench's version and git revision (as the only argument)

Writes DIR/<test>/<label>-<YYYYmmddTHHMMSS>/{summary.csv,samples.csv,meta} and prints
the run directory on standard output. Exit: 0 done, 1 a point failed, 2 usage error,
3 environment error (build, results directory), 130 interrupted.
Testing: SB_BUILD selects the build directory (default build), SB_TESTS_DIR a
directory of <test>_processes/<test>_threads binaries to run instead of SB_BUILD/bin.
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
die() { warn "${*:2}"; exit "$1"; }	# die CODE MESSAGE...
usage_error() { die 2 "$* (see ./runtest.sh --help)"; }

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

parse_ms() {	# parse_ms VAR OPTION SECONDS: milliseconds into VAR ("5", "0.5", "1.25")
	local int=${3%%.*} frac=''
	case $3 in
	'' | .* | *. | *[!0-9.]* | *.*.*) usage_error "$2: '$3' is not a number of seconds like 5 or 0.5" ;;
	*.*) frac=${3#*.} ;;
	esac
	[ "${#frac}" -le 3 ] || usage_error "$2: '$3' has more than 3 decimals (milliseconds)"
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

fmt_eta() {	# fmt_eta VAR SECONDS: "45s", "14m", "2h05m" into VAR
	if [ "$2" -lt 60 ]; then
		printf -v "$1" '%ds' "$2"
	elif [ "$2" -lt 3600 ]; then
		printf -v "$1" '%dm' $((($2 + 30) / 60))
	else
		printf -v "$1" '%dh%02dm' $(($2 / 3600)) $((($2 % 3600) / 60))
	fi
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
	"$bin" --check -t "$n" --placement "$placement" --period-ms "$period" "${opt_pass[@]}" \
		>/dev/null 2>"$TMP/check.err" || rc=$?
	if [ "$rc" != 0 ]; then
		end_progress
		printf '%s: %s\n' "$PROG" "$(head -n 1 "$TMP/check.err")" >&2
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
	if [ -n "$SB_INSTALL" ]; then sbo=$sb_tools/sb-options; fi	# installed: nothing to build
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
	if ! err=$({ "$@" >"$tmpf"; } 2>&1) || ! err=$(mv -f -- "$tmpf" "$dest" 2>&1); then
		rm -f -- "$tmpf"
		die 3 "cannot write $(shown "$dest"): $(reason "$err")"
	fi
}

# Run a command (or function) in a subshell deaf to the terminal's ^C, so that
# writing results is never cut in half; the script itself still sees the signal.
protect() { (trap '' INT TERM HUP; "$@"); }

# ---- traps ----------------------------------------------------------------------

on_signal() {
	interrupted=1
	sigflag=1
	if [ "$phase" = setup ]; then
		exit 130
	fi
	# TERM, not INT: a background job starts with SIGINT ignored until the
	# runner installs its handlers, and TERM ends it cleanly either way.
	if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null || true; fi
}

on_exit() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
	fi
	# Leaving mid-run (a helper died, a disk filled): a true status, if it can
	# be written (write_file never harms the last good meta).
	if [ -n "$active_run" ] && [ "$interrupted" = 1 ]; then
		(write_meta interrupted) 2>/dev/null || true
		rc=130
	elif [ -n "$active_run" ]; then
		(write_meta failed "runtest.sh stopped with exit status $rc") 2>/dev/null || true
	fi
	end_progress
	if [ -n "$TMP" ]; then rm -rf -- "$TMP"; fi
	exit "$rc"
}

# ---- phase: the arguments -------------------------------------------------------

# parse_args ARG...: -> opt_* (their syntax; check_args judges the values)
parse_args() {
	local arg opt val inline o a
	local -A sweep=()
	local sweep_read=0 sweep_list
	opt_tests=() opt_params=() opt_pass=() opt_max='' opt_min='' opt_step='' opt_points='' opt_points_given=0
	opt_mode=both opt_duration_ms=5000 opt_warmup_ms=5000 opt_period=1000 opt_repeat=1 opt_placement=''
	opt_smt=0 opt_no_affinity=0 opt_label='' opt_results='' opt_dry_run=0 opt_list=0 opt_plot=0 opt_quiet=0
	while [ $# -gt 0 ]; do
		arg=$1
		shift
		case $arg in
		--*=*) opt=${arg%%=*} val=${arg#*=} inline=1 ;;
		*) opt=$arg val='' inline=0 ;;
		esac
		case $opt in	# a: the argument it takes, "-" none
		--max-procs | --min-procs | --step | --points | --mode | --duration | --warmup | \
		--repeat | --label | --results) a=VALUE ;;
		-h | --help | --list | --smt | --no-affinity | --dry-run | --quiet | --plot) a=- ;;
		*)
			if [ "$sweep_read" = 0 ]; then
				sweep_list=$(sweep_options)	# its failure exits here
				while read -r o a; do sweep[$o]=$a; done <<<"$sweep_list"
				sweep_read=1
			fi
			a=${sweep[$opt]-}
			;;
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
# placement, period, samples, warmup_samples, rounded_note, label, results
check_args() {
	local t p list=()
	[ "$opt_list" = 1 ] || [ ${#opt_tests[@]} -gt 0 ] || usage_error "no testcase given"
	for t in "${opt_tests[@]}"; do
		[[ $t =~ ^[A-Za-z0-9_]+$ ]] || usage_error "'$t' is not a testcase name (letters, digits and _ only)"
	done
	if [ "$opt_points_given" = 1 ] && [ -n "$opt_max$opt_min$opt_step" ]; then
		usage_error "--points cannot be combined with --max-procs, --min-procs or --step"
	fi
	if [ -n "$opt_min" ] && [ -n "$opt_max" ] && [ "$opt_min" -gt "$opt_max" ]; then
		usage_error "--min-procs $opt_min is larger than --max-procs $opt_max"
	fi
	opt_point_list=()
	if [ "$opt_points_given" = 1 ] && [ "$opt_points" != topology ]; then
		IFS=, read -ra list <<<"$opt_points"
		case $opt_points in ,* | *, | *,,*) list=('') ;; esac
		for t in "${list[@]}"; do
			parse_count p --points "$t" 1
			opt_point_list+=("$p")
		done
		[ ${#opt_point_list[@]} -gt 0 ] || usage_error "--points: empty list"
		mapfile -t opt_point_list < <(printf '%s\n' "${opt_point_list[@]}" | sort -n -u)
	fi
	placement=$opt_placement
	if [ "$opt_no_affinity" = 1 ]; then
		[ -z "$placement" ] || [ "$placement" = none ] || usage_error "--no-affinity contradicts --placement $placement"
		placement=none
	fi
	if [ -z "$placement" ] && [ "$opt_smt" = 1 ]; then placement=pus; fi
	placement=${placement:-cores}
	period=$opt_period
	samples=$(((opt_duration_ms + period / 2) / period))
	warmup_samples=$(((opt_warmup_ms + period / 2) / period))
	if [ "$samples" -lt 1 ]; then
		usage_error "--duration $(fmt_ms "$opt_duration_ms") s is less than one sample of --period-ms $period"
	fi
	rounded_note=''
	if [ $((samples * period)) -ne "$opt_duration_ms" ] || [ $((warmup_samples * period)) -ne "$opt_warmup_ms" ]; then
		rounded_note="note: whole sample periods: $samples measured and $warmup_samples warmup samples of $period ms"
	fi
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
		opt_point_list opt_mode opt_duration_ms opt_warmup_ms opt_period opt_repeat opt_placement \
		opt_smt opt_no_affinity opt_label opt_results opt_dry_run opt_list opt_plot opt_quiet \
		placement period samples warmup_samples rounded_note label results
}

make_workdir() {	# -> TMP (on_exit removes it)
	local dir=${TMPDIR:-/tmp} made
	[ -e "$dir" ] || die 3 "TMPDIR $dir does not exist"
	[ -d "$dir" ] || die 3 "TMPDIR $dir is not a directory"
	made=$(mktemp -d "$dir/runtest.XXXXXX" 2>&1) ||
		die 3 "cannot make a working directory in TMPDIR $dir: $(reason "$made")"
	TMP=$made
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

build_tools() {	# make what the sweep runs -> tool_summary, tool_topology
	local t targets=("$build/bin/sb-summary" "$build/bin/sb-topology")
	if [ -n "$SB_INSTALL" ]; then installed_tools; return 0; fi
	if [ "$own_tests" = 1 ]; then
		for t in "${selected[@]}"; do
			targets+=("$build/bin/${t}_processes" "$build/bin/${t}_threads")
		done
	fi
	command -v "${MAKE:-make}" >/dev/null 2>&1 ||
		die 3 "make not found: install GNU make (or run 'make deps' as root)"
	if ! "${MAKE:-make}" -s -C "$ROOT" BUILD="$build" "${targets[@]}" >"$TMP/make.log" 2>&1; then
		end_progress
		tail -n 25 "$TMP/make.log" >&2
		die 3 "the build failed (make output above)"
	fi
	if [ -s "$TMP/make.log" ] && [ "$opt_quiet" = 0 ]; then cat "$TMP/make.log" >&2; fi
	readonly tool_summary=$build_abs/bin/sb-summary tool_topology=$build_abs/bin/sb-topology
}

read_topology() {	# -> topo[key], sb-topology's key=value lines
	local rc=0 k v
	declare -gA topo=()
	"$tool_topology" >"$TMP/topology" 2>"$TMP/topology.err" || rc=$?
	if [ "$rc" != 0 ]; then
		cat "$TMP/topology.err" >&2
		if [ "$rc" = 2 ]; then exit 2; fi
		die 3 "sb-topology failed (exit status $rc)"
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
	"$bin" "${opt_pass[@]}" --info >"${t_info[$t]}" 2>"$TMP/info.err" || rc=$?
	if [ "$rc" != 0 ]; then
		end_progress
		cat "$TMP/info.err" >&2
		if [ "$rc" = 2 ]; then exit 2; fi
		die 3 "$t: '--info' failed (exit status $rc)"
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

# plan_points: -> points_list, npoints, largest, points_csv, capacity,
# cap_unit, plan_runs (runner runs in all), run_ms (one run's estimate)
plan_points() {
	local unit=cores machine=${topo[cores]} tp=${topo[topology_points]} pmax pmin step p t modes
	if [ "$opt_smt" = 1 ]; then unit=pus machine=${topo[pus]} tp=${topo[topology_points_pus]}; fi
	points_list=("${opt_point_list[@]}")
	if [ "$opt_points" = topology ]; then
		IFS=, read -ra points_list <<<"$tp"
	elif [ "$opt_points_given" = 0 ]; then
		pmax=${opt_max:-$machine} pmin=${opt_min:-1} step=${opt_step:-1}
		if [ "$pmin" -gt "$pmax" ]; then
			usage_error "--min-procs $pmin is larger than the default --max-procs $pmax ($unit here)"
		fi
		points_list=("$pmin")
		for ((p = (pmin / step + 1) * step; p < pmax; p += step)); do points_list+=("$p"); done
		if [ "$pmax" -gt "$pmin" ]; then points_list+=("$pmax"); fi
	fi
	npoints=${#points_list[@]}
	largest=${points_list[npoints - 1]}
	points_csv=$(IFS=,; printf '%s' "${points_list[*]}")
	case $placement in
	pus | none) capacity=${topo[pus]} cap_unit=PUs ;;
	*) capacity=${topo[cores]} cap_unit=cores ;;
	esac
	plan_runs=0
	for t in "${runnable[@]}"; do
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		plan_runs=$((plan_runs + npoints * ${#modes[@]} * opt_repeat))
	done
	run_ms=$(((warmup_samples + samples) * period + 300))	# + start and stop of the tasks
	readonly points_list npoints largest points_csv capacity cap_unit plan_runs run_ms
}

print_plan() {	# --dry-run
	local t modes eta
	for t in "${runnable[@]}"; do
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		printf '%s: %s\n' "$t" "${t_desc[$t]}"
		printf '  points:    %s (%d)\n' "$points_csv" "$npoints"
		printf '  modes:     %s\n' "${t_run_modes[$t]}"
		printf '  each:      %s s warmup + %s s measured in %d ms samples, %d run(s)\n' \
			"$(fmt_ms $((warmup_samples * period)))" "$(fmt_ms $((samples * period)))" "$period" "$opt_repeat"
		printf '  params:    %s\n' "${t_params[$t]:-none}"
		printf '  placement: %s, at %d tasks:\n' "$placement" "$largest"
		"$tests_dir/${t}_${modes[0]}" -t "$largest" --placement "$placement" \
			"${opt_pass[@]}" --print-placement | sed 's/^/    /'
	done
	printf 'topology:  %s\n' "${topo[topology]}"
	fmt_eta eta $(((plan_runs * run_ms + 999) / 1000))
	printf 'estimated: %d runner runs, about %s\n' "$plan_runs" "$eta"
}

# ---- phase: the results directory, the machine ----------------------------------

check_results() {	# each results/<test>: made, writable, not full, its latest ours to replace
	local t dir probe err
	for t in "${runnable[@]}"; do
		dir=$results/$t
		err=$(mkdir -p -- "$dir" 2>&1) ||
			die 3 "cannot create the results directory $(shown "$dir"): ${err##*$'\n'}"
		probe=$(mktemp "$dir/.probe.XXXXXX" 2>/dev/null) ||
			die 3 "the results directory $(shown "$dir") is not writable"
		# a page of data: an empty file still fits on a full disk
		if ! err=$({ head -c 4096 /dev/zero >"$probe"; } 2>&1); then
			rm -f -- "$probe"
			die 3 "cannot write in the results directory $(shown "$dir"): $(reason "$err")"
		fi
		rm -f -- "$probe"
		if [ -d "$dir/latest" ] && [ ! -L "$dir/latest" ]; then
			die 3 "$(shown "$dir/latest") is a directory, not the link to the newest run: move it away"
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

# machine_facts ARG...: -> aslr, aslr_wrap (the runner's prefix), m_* (meta's facts)
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
	m_host=$(uname -n) m_kernel=$(uname -srvm) m_os=$(os_name) m_cpu=$(cpu_model)
	m_compiler=$("${cc[@]}" --version 2>/dev/null | head -n 1 || true)
	m_cflags=${CFLAGS:--O2 -g} m_git=$(git_revision)
	m_command=$(printf '%q ' "$0" "$@")
	m_command=${m_command% }
	readonly aslr aslr_wrap m_host m_kernel m_os m_cpu m_compiler m_cflags m_git m_command
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
		duration "$(fmt_ms $((samples * period)))" warmup "$(fmt_ms $((warmup_samples * period)))" \
		period_ms "$period" repeat "$opt_repeat" params "${t_params[$run_test]}" \
		command "$m_command" compiler "$m_compiler" cflags "$m_cflags" git_revision "$m_git"
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
	protect publish
	protect point_latest "$results/$1" "$run_id"
}

# ---- one point ------------------------------------------------------------------

# run_once TEST MODE TASKS RUN: one runner, its rows appended to $TMP/point
# -> RUN_STATUS (0 done, 1 failed, 130 interrupted), RUN_ERROR, RUN_ERROR_RC (1, 2, 3)
run_once() {
	local t=$1 m=$2 n=$3 rc=0 r2 line fmt
	RUN_STATUS=0 RUN_ERROR='' RUN_ERROR_RC=0
	runner_format fmt "$4"
	# bash reports a job killed by a signal ("Killed") on its standard error
	# when it notices the death: inside this group, where nobody hears it.
	{
		"${aslr_wrap[@]}" "$tests_dir/${t}_$m" -t "$n" -s "$samples" --warmup "$warmup_samples" \
			--period-ms "$period" --placement "$placement" "${opt_pass[@]}" "${fmt[@]}" \
			>"$TMP/out" 2>"$TMP/err" &
		child=$!
		while :; do
			sigflag=0 rc=0
			wait "$child" || rc=$?
			if [ "$sigflag" = 0 ]; then break; fi
			# A signal came during the wait: rc may be the trap's, not the runner's.
			if kill -0 "$child"; then continue; fi
			r2=0
			wait "$child" || r2=$?
			if [ "$r2" != 127 ]; then rc=$r2; fi
			break
		done
		child=''
	} 2>/dev/null
	if [ "$rc" = 0 ] && samples_rows "$m" "$n" "$4" "$TMP/out" >>"$TMP/point"; then
		# the runner's notes, each once (oversubscription is warned about up front)
		while IFS= read -r line; do
			case $line in *": oversubscribed: "*) continue ;; esac
			if [ -z "${runner_notes[$line]+x}" ]; then
				runner_notes[$line]=1
				note "$line"
			fi
		done <"$TMP/err"
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
		RUN_ERROR=${RUN_ERROR:-the runner exited with status $rc}
		RUN_STATUS=1 RUN_ERROR_RC=1
		case $rc in 2 | 3) RUN_ERROR_RC=$rc ;; esac
	fi
}

# measure_point TEST MODE TASKS: --repeat runs into $TMP/point -> POINT_STATUS
# (as RUN_STATUS), POINT_RUNS (the runs completed), POINT_MS (the time spent)
measure_point() {
	local r t0 t1
	POINT_STATUS=0 POINT_RUNS=0 POINT_MS=0
	: >"$TMP/point"
	for ((r = 1; r <= opt_repeat; r++)); do
		now_ms t0
		run_once "$1" "$2" "$3" "$r"
		now_ms t1
		POINT_MS=$((POINT_MS + t1 - t0))
		POINT_STATUS=$RUN_STATUS
		if [ "$RUN_STATUS" != 0 ]; then break; fi
		POINT_RUNS=$((POINT_RUNS + 1))
	done
}

progress() {	# progress TEST MODE TASKS FIGURE RUNS_DONE RUNS_PLANNED MS_SPENT
	local line est=$(((($6 - $5) * run_ms) / 1000)) eta
	if [ "$5" -gt 0 ]; then est=$(($7 * ($6 - $5) / $5 / 1000)); fi
	fmt_eta eta "$est"
	printf -v line '%s  %-9s  %d/%d tasks  %s   [%d/%d points, %s left]' "$1" "$2" "$3" "$largest" \
		"$4" $(($5 / opt_repeat)) $(($6 / opt_repeat)) "$eta"
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

# sweep: every runnable testcase, point by point -> t_dir, t_status, sweep_rc
sweep() {
	local t n m status planned before fig modes runs_total=$plan_runs runs_done=0 ms_spent=0
	declare -gA t_dir=() t_status=() runner_notes=()
	sweep_rc=0
	for t in "${runnable[@]}"; do
		if [ "$interrupted" = 1 ]; then break; fi
		start_run "$t"
		t_dir[$t]=$run_dir
		IFS=, read -ra modes <<<"${t_run_modes[$t]}"
		planned=$((npoints * ${#modes[@]} * opt_repeat)) before=$runs_done status=complete
		for n in "${points_list[@]}"; do
			for m in "${modes[@]}"; do
				if [ "$interrupted" = 1 ]; then
					status=interrupted
					break 2
				fi
				measure_point "$t" "$m" "$n"
				runs_done=$((runs_done + POINT_RUNS)) ms_spent=$((ms_spent + POINT_MS))
				if [ "$POINT_STATUS" = 130 ]; then
					status=interrupted
					break 2
				elif [ "$POINT_STATUS" != 0 ]; then
					status=failed
					protect write_meta failed "$RUN_ERROR" "$m" "$n"
					warn "$t: $m at $n tasks failed: $RUN_ERROR"
					if [ "$RUN_ERROR_RC" -gt "$sweep_rc" ]; then sweep_rc=$RUN_ERROR_RC; fi
					break 2
				fi
				protect add_point
				fig=$(protect point_figure "$m" "$n" "$run_dir")
				progress "$t" "$m" "$n" "$fig" "$runs_done" "$runs_total" "$ms_spent"
			done
		done
		if [ "$status" != failed ]; then protect write_meta "$status"; fi
		active_run=''
		t_status[$t]=$status
		# what this testcase did not run leaves the estimate
		runs_total=$((runs_total - planned + runs_done - before))
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
# sb_tools (sb-summary and sb-topology), default_results (./results): nothing in a checkout
installed_layout() {
	[ -n "$SB_INSTALL" ] || return 0
	sb_tools=$ROOT
	export SB_TOOLS_DIR=$sb_tools	# plot.py's tools
	export SB_TESTS_DIR=${SB_TESTS_DIR:-$(installed_dir "$sb_rel_libexec" "$sb_libexec")}
	ROOT=$(installed_dir "$sb_rel_data" "$sb_datadir")
	default_results=$PWD/results
}

installed_tools() {	# -> tool_summary, tool_topology: the installed ones, nothing to build
	readonly tool_summary=$sb_tools/sb-summary tool_topology=$sb_tools/sb-topology
}

main() {
	if [ $((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1])) -lt 404 ]; then
		die 3 "needs bash 4.4 or later (this is $BASH_VERSION)"
	fi
	shopt -s inherit_errexit
	trap on_exit EXIT
	trap on_signal INT TERM HUP
	ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
	installed_layout
	readonly ROOT
	if [ "${1-}" = --version ]; then print_version; exit 0; fi

	parse_args "$@"		# the arguments, before anything else
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
	plan_points
	if [ "$opt_dry_run" = 1 ]; then
		print_plan
		exit 0
	fi
	if [ -n "$rounded_note" ]; then note "$rounded_note"; fi
	if [ "$largest" -gt "$capacity" ]; then
		warn "warning: points above $capacity tasks are oversubscribed (placement $placement: $capacity $cap_unit)"
	fi
	check_results		# writable, before anything runs
	machine_facts "$@"

	phase=sweep
	sweep
	phase=report
	end_progress
	report
	if [ "$opt_plot" = 1 ] && [ "$interrupted" = 0 ]; then plot_runs; fi
	if [ "$interrupted" = 1 ]; then
		warn "interrupted"
		exit 130
	fi
	exit "$sweep_rc"
}

main "$@"
