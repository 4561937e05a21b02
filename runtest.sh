#!/usr/bin/env bash
# runtest.sh: the scaling sweep: runs testcases at every task count, as processes and threads, into results/.
set -eu

PROG=runtest.sh
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
ORIG_ARGS=("$@")
MAX_TASKS=4194304	# the runner's limit (PID_MAX_LIMIT)

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
  --mode M            processes, threads or both (default both)
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

Writes DIR/<test>/<label>-<YYYYmmddTHHMMSS>/{summary.csv,samples.csv,meta} and prints
the run directory on standard output. Exit: 0 done, 1 a point failed, 2 usage error,
3 environment error (build, results directory), 130 interrupted.
Testing: SB_BUILD selects the build directory (default build), SB_TESTS_DIR a
directory of <test>_processes/<test>_threads binaries to run instead of SB_BUILD/bin.
EOF
}

# ---- messages ----------------------------------------------------------------

quiet=0
progress_open=0		# a progress line without its newline is on the terminal

end_progress() {
	if [ "$progress_open" = 1 ]; then
		printf '\n' >&2
		progress_open=0
	fi
}

note() {
	if [ "$quiet" = 0 ]; then
		end_progress
		printf '%s\n' "$*" >&2
	fi
}

warn() {
	end_progress
	printf '%s: %s\n' "$PROG" "$*" >&2
}

die() {
	local code=$1
	shift
	warn "$*"
	exit "$code"
}

usage_error() {
	die 2 "$* (see ./runtest.sh --help)"
}

# "x" relative to the current directory when it is below it
shown() {
	case $1 in
	"$PWD"/*) printf '%s' "${1#"$PWD"/}" ;;
	*) printf '%s' "$1" ;;
	esac
}

# ---- strict numbers ----------------------------------------------------------

# parse_count OPTION VALUE MIN -> $num
parse_count() {
	case $2 in
	'' | *[!0-9]*) usage_error "$1: '$2' is not a whole number" ;;
	esac
	if [ "${#2}" -gt 9 ]; then
		usage_error "$1: '$2' is too large"
	fi
	num=$((10#$2))
	if [ "$num" -lt "$3" ]; then
		usage_error "$1: '$2' must be at least $3"
	fi
}

# parse_ms OPTION SECONDS -> $num milliseconds ("5", "0.5", "1.25")
parse_ms() {
	local int frac=''
	case $2 in
	'' | .* | *. | *[!0-9.]* | *.*.*) usage_error "$1: '$2' is not a number of seconds like 5 or 0.5" ;;
	esac
	int=${2%%.*}
	case $2 in *.*) frac=${2#*.} ;; esac
	if [ "${#frac}" -gt 3 ]; then
		usage_error "$1: '$2' has more than 3 decimals (milliseconds)"
	fi
	if [ "${#int}" -gt 6 ]; then
		usage_error "$1: '$2' is too large"
	fi
	while [ "${#frac}" -lt 3 ]; do frac=${frac}0; done
	num=$((10#$int * 1000 + 10#$frac))
}

# milliseconds as seconds: 5000 -> 5, 500 -> 0.5
fmt_ms() {
	local s=$(($1 / 1000)) r=$(($1 % 1000)) f
	if [ "$r" = 0 ]; then
		printf '%d' "$s"
	else
		f=$(printf '%03d' "$r")
		while [ "${f%0}" != "$f" ]; do f=${f%0}; done
		printf '%d.%s' "$s" "$f"
	fi
}

# fmt_eta SECONDS: $eta as "45s", "14m", "2h05m"
fmt_eta() {
	local s=$1
	if [ "$s" -lt 60 ]; then
		printf -v eta '%ds' "$s"
	elif [ "$s" -lt 3600 ]; then
		printf -v eta '%dm' $(((s + 30) / 60))
	else
		printf -v eta '%dh%02dm' $((s / 3600)) $(((s % 3600) / 60))
	fi
}

# now_ms: $ms_now, milliseconds (no subshell: see protect)
now_ms() {
	if [ -n "${EPOCHREALTIME-}" ]; then
		local t=${EPOCHREALTIME/[.,]/}
		ms_now=$((10#$t / 1000))
	else
		ms_now=$(($(date +%s) * 1000))
	fi
}

# ---- options -----------------------------------------------------------------

tests=()
user_params=()		# NAME=VALUE as given
opt_max='' opt_min='' opt_step='' opt_points='' mode=both
duration_ms=5000 warmup_ms=5000 period=1000 repeat=1
placement='' smt=0 no_affinity=0 label='' results='' dry_run=0 list=0 plot=0

while [ $# -gt 0 ]; do
	arg=$1
	shift
	case $arg in
	--*=*) opt=${arg%%=*} val=${arg#*=} inline=1 ;;
	*) opt=$arg val='' inline=0 ;;
	esac
	case $opt in
	--max-procs | --min-procs | --step | --points | --mode | --duration | --warmup | \
	--period-ms | --repeat | --placement | --param | --label | --results)
		if [ "$inline" = 0 ]; then
			if [ $# -eq 0 ]; then
				usage_error "$opt needs a value"
			fi
			val=$1
			shift
		fi
		;;
	-h | --help | --list | --smt | --no-affinity | --dry-run | --quiet | --plot)
		if [ "$inline" = 1 ]; then
			usage_error "$opt takes no value"
		fi
		;;
	esac
	case $opt in
	-h | --help) usage; exit 0 ;;
	--list) list=1 ;;
	--max-procs) parse_count "$opt" "$val" 1; opt_max=$num ;;
	--min-procs) parse_count "$opt" "$val" 1; opt_min=$num ;;
	--step) parse_count "$opt" "$val" 1; opt_step=$num ;;
	--points) opt_points=$val ;;
	--mode)
		case $val in
		processes | threads | both) mode=$val ;;
		*) usage_error "--mode: unknown mode '$val' (processes, threads, both)" ;;
		esac
		;;
	--duration) parse_ms "$opt" "$val"; duration_ms=$num ;;
	--warmup) parse_ms "$opt" "$val"; warmup_ms=$num ;;
	--period-ms) parse_count "$opt" "$val" 1; period=$num ;;
	--repeat) parse_count "$opt" "$val" 1; repeat=$num ;;
	--placement)
		case $val in
		cores | pus | spread | none) placement=$val ;;
		*) usage_error "--placement: unknown placement '$val' (cores, pus, spread, none)" ;;
		esac
		;;
	--no-affinity) no_affinity=1 ;;
	--smt) smt=1 ;;
	--param)
		if ! [[ $val =~ ^[A-Za-z0-9_]+= ]]; then
			usage_error "--param: '$val' is not NAME=VALUE"
		fi
		case $val in
		*$'\n'* | *$'\r'*) usage_error "--param: the value of '${val%%=*}' spans lines" ;;
		esac
		user_params+=("$val")
		;;
	--label) label=$val ;;
	--results)
		if [ -z "$val" ]; then
			usage_error "--results: empty directory name"
		fi
		results=$val
		;;
	--dry-run) dry_run=1 ;;
	--quiet) quiet=1 ;;
	--plot) plot=1 ;;
	--) tests+=("$@"); break ;;
	-*) usage_error "unknown option '$opt'" ;;
	*) tests+=("$arg") ;;
	esac
done

# ---- checks that need nothing but the arguments ------------------------------

if [ "$list" = 0 ] && [ ${#tests[@]} -eq 0 ]; then
	usage_error "no testcase given"
fi
for t in ${tests[@]+"${tests[@]}"}; do
	if ! [[ $t =~ ^[A-Za-z0-9_]+$ ]]; then
		usage_error "'$t' is not a testcase name (letters, digits and _ only)"
	fi
done
if [ -n "$opt_points" ] && [ -n "$opt_max$opt_min$opt_step" ]; then
	usage_error "--points cannot be combined with --max-procs, --min-procs or --step"
fi
if [ -n "$opt_min" ] && [ -n "$opt_max" ] && [ "$opt_min" -gt "$opt_max" ]; then
	usage_error "--min-procs $opt_min is larger than --max-procs $opt_max"
fi
for n in "$opt_max" "$opt_min"; do
	if [ -n "$n" ] && [ "$n" -gt "$MAX_TASKS" ]; then
		usage_error "$n tasks: more than any kernel can run ($MAX_TASKS)"
	fi
done
points_list=()
if [ -n "$opt_points" ] && [ "$opt_points" != topology ]; then
	IFS=, read -ra _p <<<"$opt_points"
	case $opt_points in ,* | *, | *,,*) _p=('') ;; esac
	for p in ${_p[@]+"${_p[@]}"}; do
		parse_count "--points" "$p" 1
		if [ "$num" -gt "$MAX_TASKS" ]; then
			usage_error "--points: $num tasks: more than any kernel can run ($MAX_TASKS)"
		fi
		points_list+=("$num")
	done
	if [ ${#points_list[@]} -eq 0 ]; then
		usage_error "--points: empty list"
	fi
	mapfile -t points_list < <(printf '%s\n' "${points_list[@]}" | sort -n -u)
fi
if [ "$no_affinity" = 1 ]; then
	if [ -n "$placement" ] && [ "$placement" != none ]; then
		usage_error "--no-affinity contradicts --placement $placement"
	fi
	placement=none
fi
if [ -z "$placement" ]; then
	if [ "$smt" = 1 ]; then placement=pus; else placement=cores; fi
fi
samples=$(((duration_ms + period / 2) / period))
warmup_samples=$(((warmup_ms + period / 2) / period))
if [ "$samples" -lt 1 ]; then
	usage_error "--duration $(fmt_ms "$duration_ms") s is less than one sample of --period-ms $period"
fi
if [ $((samples * period)) -ne "$duration_ms" ] || [ $((warmup_samples * period)) -ne "$warmup_ms" ]; then
	rounded_note="note: whole sample periods: $samples measured and $warmup_samples warmup samples of $period ms"
else
	rounded_note=''
fi
if [ -z "$label" ]; then
	# The kernel release, made safe for a directory name (6.8.0-rc1+ -> 6.8.0-rc1_).
	label=$(uname -r | tr -c 'A-Za-z0-9._\n-' '_')
	label=${label#[.-]}
elif ! [[ $label =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]]; then
	usage_error "--label: '$label' must be letters, digits, '.', '_' and '-', not starting with '.' or '-'"
fi
if [ -z "$results" ]; then
	results=$ROOT/results
fi

# ---- temporary files, signals ------------------------------------------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/runtest.XXXXXX")
phase=setup		# setup: a signal exits at once; sweep: it stops the sweep
interrupted=0
sigflag=0
child=''
active_run=''		# the run directory whose meta is not final yet

on_signal() {
	interrupted=1
	sigflag=1
	if [ "$phase" = setup ]; then
		exit 130
	fi
	if [ -n "$child" ]; then
		# TERM, not INT: a background job starts with SIGINT ignored until the
		# runner installs its handlers, and TERM ends it cleanly either way.
		kill -TERM "$child" 2>/dev/null || true
	fi
}

on_exit() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
	fi
	if [ -n "$active_run" ]; then
		# Leaving mid-run (a helper died, a disk filled): leave a true status behind.
		if [ "$interrupted" = 1 ]; then
			write_meta interrupted 2>/dev/null || true
			rc=130
		else
			write_meta failed "runtest.sh stopped with exit status $rc" 2>/dev/null || true
		fi
	fi
	end_progress
	rm -rf -- "$tmp"
	exit "$rc"
}
trap on_exit EXIT
trap on_signal INT TERM HUP

# Run a command (or function) in a subshell deaf to the terminal's ^C, so that
# writing results is never cut in half; the script itself still sees the signal.
protect() {
	(
		trap '' INT TERM HUP
		"$@"
	)
}

# ---- build -------------------------------------------------------------------

build=${SB_BUILD:-build}
case $build in
/*) build_abs=$build ;;
*) build_abs=$ROOT/$build ;;
esac
if [ -n "${SB_TESTS_DIR-}" ]; then
	case $SB_TESTS_DIR in
	/*) tests_dir=$SB_TESTS_DIR ;;
	*) tests_dir=$PWD/$SB_TESTS_DIR ;;
	esac
	own_tests=0
else
	tests_dir=$build_abs/bin
	own_tests=1
fi

known_tests() {
	local f n
	if [ "$own_tests" = 1 ]; then
		for f in "$ROOT"/tests/*.c; do
			if [ -f "$f" ]; then
				n=${f##*/}
				printf '%s\n' "${n%.c}"
			fi
		done
	else
		for f in "$tests_dir"/*_processes "$tests_dir"/*_threads; do
			if [ -x "$f" ]; then
				n=${f##*/}
				n=${n%_processes}
				printf '%s\n' "${n%_threads}"
			fi
		done | sort -u
	fi
}

mapfile -t known < <(known_tests)
selected=()
if [ "$list" = 1 ]; then
	selected=(${known[@]+"${known[@]}"})
fi
for t in ${tests[@]+"${tests[@]}"}; do
	if [ "$t" = all ]; then
		selected+=(${known[@]+"${known[@]}"})
		continue
	fi
	found=0
	for k in ${known[@]+"${known[@]}"}; do
		if [ "$k" = "$t" ]; then found=1; fi
	done
	if [ "$found" = 0 ]; then
		usage_error "unknown testcase '$t'; known: ${known[*]-none}"
	fi
	selected+=("$t")
done
# each testcase once, in the order given
mapfile -t selected < <(printf '%s\n' ${selected[@]+"${selected[@]}"} | awk 'NF && !seen[$0]++')
if [ ${#selected[@]} -eq 0 ]; then
	die 2 "no testcases found in $(shown "$tests_dir")"
fi

targets=("$build/bin/sb-summary" "$build/bin/sb-topology")
if [ "$own_tests" = 1 ]; then
	for t in "${selected[@]}"; do
		targets+=("$build/bin/${t}_processes" "$build/bin/${t}_threads")
	done
fi
if ! command -v "${MAKE:-make}" >/dev/null 2>&1; then
	die 3 "make not found: install GNU make (or run 'make deps' as root)"
fi
if ! "${MAKE:-make}" -s -C "$ROOT" BUILD="$build" "${targets[@]}" >"$tmp/make.log" 2>&1; then
	end_progress
	tail -n 25 "$tmp/make.log" >&2
	die 3 "the build failed (make output above)"
fi
if [ -s "$tmp/make.log" ] && [ "$quiet" = 0 ]; then
	cat "$tmp/make.log" >&2
fi
tool_summary=$build_abs/bin/sb-summary
tool_topology=$build_abs/bin/sb-topology

# ---- topology ----------------------------------------------------------------

declare -A topo=()
topo_rc=0
"$tool_topology" >"$tmp/topology" 2>"$tmp/topology.err" || topo_rc=$?
if [ "$topo_rc" != 0 ]; then
	cat "$tmp/topology.err" >&2
	if [ "$topo_rc" = 2 ]; then exit 2; fi
	die 3 "sb-topology failed (exit status $topo_rc)"
fi
while IFS='=' read -r k v; do
	topo[$k]=$v
done <"$tmp/topology"

if [ "$smt" = 1 ]; then
	unit=pus machine=${topo[pus]}
else
	unit=cores machine=${topo[cores]}
fi

# ---- the testcases: description, modes, parameters ---------------------------

declare -A t_desc=() t_modes=() t_params=() t_bin=()
param_args=()
for p in ${user_params[@]+"${user_params[@]}"}; do
	param_args+=(--param "$p")
done

# split_param "NAME<tab>DEFAULT<tab>KIND<tab>HELP" (fields may be empty) -> $p_name ...
split_param() {
	local rest=$1
	p_name=${rest%%$'\t'*}
	rest=${rest#*$'\t'}
	p_def=${rest%%$'\t'*}
	rest=${rest#*$'\t'}
	p_kind=${rest%%$'\t'*}
	p_help=${rest#*$'\t'}
}

read_info() {
	local t=$1 bin='' line k v rc=0 mlist
	if [ -x "$tests_dir/${t}_processes" ]; then
		bin=$tests_dir/${t}_processes
	elif [ -x "$tests_dir/${t}_threads" ]; then
		bin=$tests_dir/${t}_threads
	else
		die 3 "no binary $(shown "$tests_dir")/${t}_processes or _threads"
	fi
	"$bin" ${param_args[@]+"${param_args[@]}"} --info >"$tmp/info" 2>"$tmp/info.err" || rc=$?
	if [ "$rc" != 0 ]; then
		end_progress
		cat "$tmp/info.err" >&2
		if [ "$rc" = 2 ]; then exit 2; fi
		die 3 "$t: '--info' failed (exit status $rc)"
	fi
	t_bin[$t]=$bin
	t_desc[$t]=''
	t_modes[$t]=processes,threads
	t_params[$t]=''
	declare -A given=()
	for line in ${user_params[@]+"${user_params[@]}"}; do
		given[${line%%=*}]=${line#*=}
	done
	while IFS= read -r line; do
		k=${line%%=*} v=${line#*=}
		case $k in
		description) t_desc[$t]=$v ;;
		modes) t_modes[$t]=$v ;;
		param)
			split_param "$v"
			if [ -n "${given[$p_name]+x}" ]; then p_def=${given[$p_name]}; fi
			t_params[$t]="${t_params[$t]}${t_params[$t]:+ }$p_name=$p_def"
			;;
		esac
	done <"$tmp/info"
	mlist=''
	case $mode in
	both) mlist=${t_modes[$t]} ;;
	*) case ,${t_modes[$t]}, in *,"$mode",*) mlist=$mode ;; esac ;;
	esac
	if [ -z "$mlist" ]; then
		return 1
	fi
	if [ "$mode" = both ] && [ "$mlist" != processes,threads ] && [ "$list" = 0 ]; then
		note "note: $t runs as $mlist only (it says so with SB_MODES)"
	fi
	t_run_modes[$t]=$mlist
}

declare -A t_run_modes=()
runnable=()
for t in "${selected[@]}"; do
	if read_info "$t"; then
		runnable+=("$t")
	elif [ "$list" = 1 ] || [[ " ${tests[*]-} " != *" $t "* ]]; then
		note "note: $t runs as ${t_modes[$t]} only: skipped with --mode $mode"
	else
		usage_error "$t runs as ${t_modes[$t]} only: nothing to run with --mode $mode"
	fi
done

if [ "$list" = 1 ]; then
	for t in "${selected[@]}"; do
		printf '%-20s %-18s %s\n' "$t" "${t_modes[$t]}" "${t_desc[$t]}"
		while IFS= read -r line; do
			case $line in
			param=*)
				split_param "${line#param=}"
				printf '%-20s --param %s=%s  (%s) %s\n' '' "$p_name" "$p_def" "$p_kind" "$p_help"
				;;
			esac
		done < <("${t_bin[$t]}" --info)
	done
	exit 0
fi
if [ ${#runnable[@]} -eq 0 ]; then
	die 2 "nothing to run with --mode $mode"
fi

# ---- the points --------------------------------------------------------------

if [ "$opt_points" = topology ]; then
	if [ "$smt" = 1 ]; then tp=${topo[topology_points_pus]}; else tp=${topo[topology_points]}; fi
	IFS=, read -ra points_list <<<"$tp"
elif [ -z "$opt_points" ]; then
	pmax=${opt_max:-$machine}
	pmin=${opt_min:-1}
	step=${opt_step:-1}
	if [ "$pmin" -gt "$pmax" ]; then
		usage_error "--min-procs $pmin is larger than the default --max-procs $pmax ($unit here)"
	fi
	points_list=("$pmin")
	for ((p = (pmin / step + 1) * step; p < pmax; p += step)); do
		points_list+=("$p")
	done
	if [ "$pmax" -gt "$pmin" ]; then
		points_list+=("$pmax")
	fi
fi
npoints=${#points_list[@]}
largest=${points_list[npoints - 1]}
points_csv=$(IFS=,; printf '%s' "${points_list[*]}")
case $placement in
pus | none) capacity=${topo[pus]} cap_unit=PUs ;;
*) capacity=${topo[cores]} cap_unit=cores ;;
esac

total_runs=0
for t in "${runnable[@]}"; do
	IFS=, read -ra _m <<<"${t_run_modes[$t]}"
	total_runs=$((total_runs + npoints * ${#_m[@]} * repeat))
done
run_ms=$(((warmup_samples + samples) * period + 300))	# + start and stop of the tasks

if [ "$dry_run" = 1 ]; then
	for t in "${runnable[@]}"; do
		IFS=, read -ra _m <<<"${t_run_modes[$t]}"
		printf '%s: %s\n' "$t" "${t_desc[$t]}"
		printf '  points:    %s (%d)\n' "$points_csv" "$npoints"
		printf '  modes:     %s\n' "${t_run_modes[$t]}"
		printf '  each:      %s s warmup + %s s measured in %d ms samples, %d run(s)\n' \
			"$(fmt_ms $((warmup_samples * period)))" "$(fmt_ms $((samples * period)))" "$period" "$repeat"
		printf '  params:    %s\n' "${t_params[$t]:-none}"
		printf '  placement: %s, at %d tasks:\n' "$placement" "$largest"
		"$tests_dir/${t}_${_m[0]}" -t "$largest" --placement "$placement" \
			${param_args[@]+"${param_args[@]}"} --print-placement | sed 's/^/    /'
	done
	est=$(((total_runs * run_ms + 999) / 1000))
	printf 'topology:  %s\n' "${topo[topology]}"
	fmt_eta "$est"
	printf 'estimated: %d runner runs, about %s\n' "$total_runs" "$eta"
	exit 0
fi

if [ -n "$rounded_note" ]; then note "$rounded_note"; fi
if [ "$largest" -gt "$capacity" ]; then
	warn "warning: points above $capacity tasks are oversubscribed (placement $placement: $capacity $cap_unit)"
fi

# ---- the results directory: writable before anything runs -------------------

for t in "${runnable[@]}"; do
	if ! mkdir -p -- "$results/$t" 2>"$tmp/mkdir.err"; then
		die 3 "cannot create the results directory $(shown "$results/$t"): $(tail -n 1 "$tmp/mkdir.err")"
	fi
	if ! probe=$(mktemp "$results/$t/.probe.XXXXXX" 2>/dev/null); then
		die 3 "the results directory $(shown "$results/$t") is not writable"
	fi
	rm -f -- "$probe"
done

# ---- facts about the machine, once -------------------------------------------

aslr=on
aslr_wrap=()
if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 2)" = 0 ]; then
	aslr=off
elif setarch "$(uname -m)" -R true >/dev/null 2>&1; then
	aslr=off
	aslr_wrap=(setarch "$(uname -m)" -R)
else
	warn "warning: cannot turn address-space randomisation off (setarch -R failed): runs with it on"
fi

os_name() {
	local line v
	if [ -r /etc/os-release ]; then
		while IFS= read -r line; do
			case $line in
			PRETTY_NAME=*)
				v=${line#PRETTY_NAME=}
				v=${v#\"}
				printf '%s' "${v%\"}"
				return
				;;
			esac
		done </etc/os-release
	fi
	uname -s
}

cpu_model() {
	local m=''
	if [ -r /proc/cpuinfo ]; then
		m=$(awk -F': *' '/^(model name|Model|Hardware|cpu model|cpu)[ \t]*:/ { print $2; exit }' /proc/cpuinfo)
	fi
	if [ -z "$m" ]; then
		m=$(sysctl -n hw.model 2>/dev/null || uname -m)
	fi
	printf '%s' "$m"
}

compiler() {
	local cc
	read -ra cc <<<"${CC:-cc}"
	"${cc[@]}" --version 2>/dev/null | head -n 1 || true
}

git_revision() {
	local rev
	if rev=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null); then
		if [ -n "$(git -C "$ROOT" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
			rev=$rev-dirty
		fi
		printf '%s' "$rev"
	else
		printf 'unknown'
	fi
}

m_host=$(uname -n)
m_kernel=$(uname -srvm)
m_os=$(os_name)
m_cpu=$(cpu_model)
m_compiler=$(compiler)
m_cflags=${CFLAGS:--O2 -g}
m_git=$(git_revision)
m_command=$(printf '%q ' "$0" ${ORIG_ARGS[@]+"${ORIG_ARGS[@]}"})
m_command=${m_command% }

# ---- one run directory ---------------------------------------------------------

# The current test's facts, read by write_meta.
cur_test='' cur_desc='' cur_modes='' cur_params='' run_id='' rundir='' run_date=''

meta_line() {
	local v=${2//$'\n'/ }
	printf '%s=%s\n' "$1" "${v//$'\r'/ }"
}

# write_meta STATUS [ERROR FAILED_MODE FAILED_TASKS]: a new meta, renamed into place
write_meta() {
	local f="$rundir/.meta.$$.tmp"
	{
		meta_line test "$cur_test"
		meta_line description "$cur_desc"
		meta_line label "$label"
		meta_line run_id "$run_id"
		meta_line status "$1"
		meta_line error "${2-}"
		meta_line failed_mode "${3-}"
		meta_line failed_tasks "${4-}"
		meta_line date "$run_date"
		meta_line host "$m_host"
		meta_line kernel "$m_kernel"
		meta_line os "$m_os"
		meta_line cpu_model "$m_cpu"
		meta_line topology "${topo[topology]}"
		meta_line hwloc_version "${topo[hwloc_version]}"
		meta_line placement "$placement"
		meta_line aslr "$aslr"
		meta_line modes "$cur_modes"
		meta_line points "$points_csv"
		meta_line duration "$(fmt_ms $((samples * period)))"
		meta_line warmup "$(fmt_ms $((warmup_samples * period)))"
		meta_line period_ms "$period"
		meta_line repeat "$repeat"
		meta_line params "$cur_params"
		meta_line command "$m_command"
		meta_line compiler "$m_compiler"
		meta_line cflags "$m_cflags"
		meta_line git_revision "$m_git"
	} >"$f"
	mv -f -- "$f" "$rundir/meta"
}

# a finished point: its rows into samples.csv, summary.csv, meta
add_point() {
	cat -- "$tmp/point" >>"$tmp/samples.csv"
	publish
	write_meta running
}

# samples.csv from the work copy, then summary.csv from it
publish() {
	local f="$rundir/.samples.$$.tmp"
	cp -- "$tmp/samples.csv" "$f"
	mv -f -- "$f" "$rundir/samples.csv"
	"$tool_summary" -o "$rundir/summary.csv" "$rundir/samples.csv"
}

# make_run_dir TEST: results/TEST/<label>-<stamp>[-N], made atomically by mkdir
make_run_dir() {
	local base=$1 id n=1
	run_stamp=$(date -u +%Y%m%dT%H%M%S)
	id=$label-$run_stamp
	while ! mkdir -- "$base/$id" 2>/dev/null; do
		if [ ! -e "$base/$id" ]; then
			die 3 "cannot create $(shown "$base/$id")"
		fi
		n=$((n + 1))
		id=$label-$run_stamp-$n
	done
	printf '%s\n%s\n' "$id" "$run_stamp"
}

point_latest() {
	local base=$1 id=$2
	ln -s -- "$id" "$base/.latest.$$.tmp"
	if ! mv -T -f -- "$base/.latest.$$.tmp" "$base/latest" 2>/dev/null; then
		rm -f -- "$base/.latest.$$.tmp"
		ln -s -f -n -- "$id" "$base/latest"
	fi
}

start_run() {
	local t=$1 lines s
	cur_test=$t
	cur_desc=${t_desc[$t]}
	cur_modes=${t_run_modes[$t]}
	cur_params=${t_params[$t]}
	mapfile -t lines < <(protect make_run_dir "$results/$t")
	if [ ${#lines[@]} -ne 2 ]; then
		die 3 "cannot create a run directory under $(shown "$results/$t")"
	fi
	run_id=${lines[0]}
	s=${lines[1]}
	run_date=${s:0:4}-${s:4:2}-${s:6:2}T${s:9:2}:${s:11:2}:${s:13:2}Z
	rundir=$results/$t/$run_id
	active_run=$rundir
	printf '%s\n' 'mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct' \
		>"$tmp/samples.csv"
	protect write_meta running
	protect publish
	protect point_latest "$results/$t" "$run_id"
}

# ---- one point ---------------------------------------------------------------

RUNNER_HEADER='phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct'
declare -A seen_msg=()
point_error='' point_rc=0

# run_once TEST MODE TASKS RUN: 0 ok (rows appended to $tmp/point), 1 failed, 130 interrupted
run_once() {
	local t=$1 m=$2 n=$3 r=$4 rc=0 r2 line
	${aslr_wrap[@]+"${aslr_wrap[@]}"} "$tests_dir/${t}_$m" -t "$n" -s "$samples" \
		--warmup "$warmup_samples" --period-ms "$period" --placement "$placement" \
		${param_args[@]+"${param_args[@]}"} --format csv >"$tmp/out" 2>"$tmp/err" &
	child=$!
	while :; do
		sigflag=0
		rc=0
		wait "$child" || rc=$?
		if [ "$sigflag" = 0 ]; then
			break
		fi
		# A signal came during the wait: rc may be the trap's, not the runner's.
		if kill -0 "$child" 2>/dev/null; then
			continue
		fi
		r2=0
		wait "$child" 2>/dev/null || r2=$?
		if [ "$r2" != 127 ]; then rc=$r2; fi
		break
	done
	child=''
	if [ "$rc" = 0 ]; then
		if awk -F, -v pre="$m,$n,$r" -v hdr="$RUNNER_HEADER" '
			NR == 1 { if ($0 != hdr) exit 1; next }
			NF != 9 { exit 1 }
			{ print pre "," $0; if ($1 == "measure") measured++ }
			END { exit !(NR > 1 && measured > 0) }' "$tmp/out" >>"$tmp/point"; then
			# the runner's notes (oversubscription is warned about once, up front)
			while IFS= read -r line; do
				case $line in *": oversubscribed: "*) continue ;; esac
				if [ -z "${seen_msg[$line]+x}" ]; then
					seen_msg[$line]=1
					note "$line"
				fi
			done <"$tmp/err"
			return 0
		fi
		point_error="$t: ${m} at $n tasks: unexpected output from the runner (see $(shown "$tests_dir")/${t}_$m --format csv)"
		point_rc=1
		return 1
	fi
	if [ "$interrupted" = 1 ] || [ "$rc" = 130 ] || [ "$rc" = 143 ]; then
		interrupted=1
		return 130
	fi
	point_error=$(awk 'NF { last = $0 } END { print last }' "$tmp/err")
	if [ "$rc" -gt 128 ]; then
		point_error="${point_error:+$point_error; }the runner was killed by signal $((rc - 128))"
	elif [ -z "$point_error" ]; then
		point_error="the runner exited with status $rc"
	fi
	case $rc in 2 | 3) point_rc=$rc ;; *) point_rc=1 ;; esac
	return 1
}

# "4.81M ops/s ±0.4%" for MODE at TASKS from summary.csv
point_figure() {
	awk -F, -v t="$2" -v m="$1" '
		function human(v) {
			if (v >= 1e9) { v /= 1e9; u = "G" } else if (v >= 1e6) { v /= 1e6; u = "M" }
			else if (v >= 1e3) { v /= 1e3; u = "K" } else u = ""
			return sprintf(v >= 100 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v, u)
		}
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == t && $(c[m]) != "" {
			s = human($(c[m])) " ops/s"
			ci = $(c[m "_ci"])
			if (ci != "" && $(c[m]) > 0) s = s sprintf(" \302\261%.1f%%", 100 * ci / $(c[m]))
			print s
		}' "$rundir/summary.csv"
}

done_runs=0
spent_ms=0
progress() {
	local line left est
	left=$((total_runs - done_runs))
	if [ "$done_runs" -gt 0 ]; then
		est=$((spent_ms * left / done_runs / 1000))
	else
		est=$((left * run_ms / 1000))
	fi
	fmt_eta "$est"
	printf -v line '%s  %-9s  %d/%d tasks  %s   [%d/%d points, %s left]' "$1" "$2" "$3" "$largest" \
		"$4" $((done_runs / repeat)) $((total_runs / repeat)) "$eta"
	if [ "$quiet" = 1 ]; then
		return 0
	fi
	if [ -t 2 ]; then
		printf '\r%s\033[K' "$line" >&2
		progress_open=1
	else
		printf '%s\n' "$line" >&2
	fi
}

# ---- the end: a short table --------------------------------------------------

table() {
	awk -F, '
		function human(v) {
			if (v == "") return "-"
			if (v >= 1e9) { v /= 1e9; u = "G" } else if (v >= 1e6) { v /= 1e6; u = "M" }
			else if (v >= 1e3) { v /= 1e3; u = "K" } else u = ""
			return sprintf(v >= 100 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v, u)
		}
		function pct(ci, v) { return (ci == "" || v == "" || v == 0) ? "" : sprintf("%.1f%%", 100 * ci / v) }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == 0 { next }
		{ n++; row[n] = $0 }
		END {
			if (!n) { print "  (no completed point)"; exit }
			printf "  %6s %10s %7s %10s %7s %10s\n", "tasks", "processes", "+-", "threads", "+-", "vs linear"
			k = n > 12 ? 12 : n
			for (j = 0; j < k; j++) {
				i = k > 1 ? 1 + int(j * (n - 1) / (k - 1) + 0.5) : 1
				if (i == last) continue
				last = i
				split(row[i], f, ",")
				p = f[c["processes"]]; t = f[c["threads"]]; l = f[c["linear"]]
				b = (p != "" && (t == "" || p + 0 >= t + 0)) ? p : t
				printf "  %6s %10s %7s %10s %7s %10s\n", f[1], human(p), pct(f[c["processes_ci"]], p),
					human(t), pct(f[c["threads_ci"]], t),
					(l != "" && l > 0 && b != "") ? sprintf("%.0f%%", 100 * b / l) : "-"
			}
		}' "$1"
}

# ---- the sweep -----------------------------------------------------------------

phase=sweep
final_rc=0
declare -A t_status=() t_dir=()

for t in "${runnable[@]}"; do
	if [ "$interrupted" = 1 ]; then
		break
	fi
	start_run "$t"
	t_dir[$t]=$rundir
	IFS=, read -ra modes_now <<<"${t_run_modes[$t]}"
	planned=$((npoints * ${#modes_now[@]} * repeat))
	runs_before=$done_runs
	status=complete
	for n in "${points_list[@]}"; do
		for m in "${modes_now[@]}"; do
			if [ "$interrupted" = 1 ]; then
				status=interrupted
				break 2
			fi
			: >"$tmp/point"
			res=0
			for ((r = 1; r <= repeat; r++)); do
				now_ms
				t0=$ms_now
				run_once "$t" "$m" "$n" "$r" || res=$?
				now_ms
				spent_ms=$((spent_ms + ms_now - t0))
				if [ "$res" != 0 ]; then
					break
				fi
				done_runs=$((done_runs + 1))
			done
			if [ "$res" = 130 ]; then
				status=interrupted
				break 2
			fi
			if [ "$res" != 0 ]; then
				status=failed
				protect write_meta failed "$point_error" "$m" "$n"
				warn "$t: $m at $n tasks failed: $point_error"
				if [ "$point_rc" -gt "$final_rc" ]; then final_rc=$point_rc; fi
				break 2
			fi
			protect add_point
			fig=$(protect point_figure "$m" "$n")
			progress "$t" "$m" "$n" "$fig"
		done
	done
	case $status in
	complete) protect write_meta complete ;;
	interrupted) protect write_meta interrupted ;;
	esac
	active_run=''
	t_status[$t]=$status
	# what this testcase did not run leaves the estimate
	total_runs=$((total_runs - planned + done_runs - runs_before))
done
phase=report
end_progress

for t in "${runnable[@]}"; do
	if [ -z "${t_dir[$t]+x}" ]; then
		continue
	fi
	printf '%s\n' "$(shown "${t_dir[$t]}")"
	if [ "$quiet" = 0 ]; then
		printf '%s: %s, %s\n' "$t" "${t_status[$t]}" "$(shown "${t_dir[$t]}")" >&2
		table "${t_dir[$t]}/summary.csv" >&2
	fi
done

if [ "$plot" = 1 ] && [ "$interrupted" = 0 ]; then
	for t in "${runnable[@]}"; do
		if [ -z "${t_dir[$t]+x}" ]; then
			continue
		fi
		if [ ! -f "$ROOT/plot/plot.py" ]; then
			note "note: plot/plot.py is not there: no plot"
			break
		fi
		if ! command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
			note "note: python3 not found: no plot"
			break
		fi
		"${PYTHON:-python3}" "$ROOT/plot/plot.py" --terminal "${t_dir[$t]}" >&2 ||
			warn "warning: plot/plot.py failed for $(shown "${t_dir[$t]}")"
	done
fi

if [ "$interrupted" = 1 ]; then
	warn "interrupted"
	exit 130
fi
exit "$final_rc"
