# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/args.sh: runtest.sh's arguments: --help, their syntax (parse_args), their values (check_args), a run's shape, a point's stopping rule.
#
# Sourced by runtest.sh at the top of main (it uses me, note, warn, die, usage_error and the DEF_* constants); functions only, nothing runs here.

# ---- --help, numbers ----------------------------------------------------------------

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
  --point-budget S    seconds a point may take (default 30, more than 0); --min-runs always run
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
  --commit SHA        the measured kernel's commit, in meta and the history (default $SB_COMMIT)
  --no-history        do not add the finished runs to DIR/history.db (or $SB_HISTORY: sb-history)
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

parse_count() {	# parse_count VAR OPTION VALUE MIN: a whole number >= MIN into VAR
	case $3 in '' | *[!0-9]*) usage_error "$2: '$3' is not a whole number" ;; esac
	[ "${#3}" -le 9 ] || usage_error "$2: '$3' is too large"
	[ $((10#$3)) -ge "$4" ] || usage_error "$2: '$3' must be at least $4"
	printf -v "$1" '%d' $((10#$3))
}

# parse_ms VAR OPTION SECONDS [UNIT|positive]: thousandths into VAR ("5", "0.5", "1.25");
# positive: seconds, more than 0
parse_ms() {
	local int=${3%%.*} frac='' unit=${4:-seconds}
	if [ "$unit" = positive ]; then unit=seconds; fi
	case $3 in
	'' | .* | *. | *[!0-9.]* | *.*.*) usage_error "$2: '$3' is not a number of $unit like 5 or 0.5" ;;
	*.*) frac=${3#*.} ;;
	esac
	[ "${#frac}" -le 3 ] || usage_error "$2: '$3' has more than 3 decimals"
	[ "${#int}" -le 6 ] || usage_error "$2: '$3' is too large"
	while [ "${#frac}" -lt 3 ]; do frac=${frac}0; done
	printf -v "$1" '%d' $((10#$int * 1000 + 10#$frac))
	if [ "${4-}" = positive ] && [ "${!1}" = 0 ]; then usage_error "$2: '$3' must be more than 0 seconds"; fi
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
	opt_commit=${SB_COMMIT-} opt_no_history=0
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
		--budget | --seed | --param | --period-ms | --placement | --profile | --max-points | --commit) a=VALUE ;;
		-h | --help | --list | --smt | --no-affinity | --dry-run | --quiet | --plot | --quick | --profile-keep | \
		--no-wait | --no-lock | --tune | --no-history) a=- ;;
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
		# a budget of 0 s: nothing beyond --min-runs, or no limit? Neither: refused
		--point-budget) parse_ms opt_point_budget_ms "$opt" "$val" positive ;;
		--budget) parse_ms opt_budget_ms "$opt" "$val" positive ;;
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
		--commit)	# sweep/history.sh
			[[ $val =~ ^[0-9A-Fa-f]{7,64}$ ]] || usage_error "--commit: '$val' is not a commit hash (7 to 64 hex digits)"
			opt_commit=$val
			;;
		--no-history) opt_no_history=1 ;;
		--) opt_tests+=("$@"); break ;;
		-*)
			[ -n "$a" ] || usage_error "unknown option '$opt'"
			# a runner option the sweep does not read itself: to the runner as given
			if [ "$a" = - ]; then opt_pass+=("$opt"); else opt_pass+=("$opt" "$val"); fi
			;;
		*) opt_tests+=("$arg") ;;
		esac
	done
	[[ -z $opt_commit || $opt_commit =~ ^[0-9A-Fa-f]{7,64}$ ]] ||
		usage_error "SB_COMMIT: '$opt_commit' is not a commit hash (7 to 64 hex digits)"
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
		if ! { read -r label </proc/sys/kernel/osrelease; } 2>/dev/null; then label=$(uname -r); fi
		label=${label//[!A-Za-z0-9._-]/_}
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
