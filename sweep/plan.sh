# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/plan.sh: the sweep's plan: the warmup, sb-plan's configuration and points, --dry-run's plan with each point's placement.
#
# Sourced by runtest.sh at the top of main (it uses note, warn, die, the testcases' t_* and opt_*); functions only, nothing runs here.

# ---- phase: the plan ------------------------------------------------------------

# choose_warmup: each run's warmup -> warmup_args (the runner's options),
# warmup_text (meta's warmup). --warmup S (and --quick) is a fixed count of
# samples; otherwise (--warmup auto, the default), when the runner has it: the
# warmup ends when the rate has settled, after auto_warmup_min (--warmup-min) and
# at most auto_warmup_max seconds (--warmup-max; both sb-sweepargs', checked there;
# the runner's own rule) -> warmup_max_ms, warmup_min_ms (plan.conf's: empty unless
# auto; the shortest is the rule's window of its short samples, runner/warmup.h).
# A runner without it takes the fixed warmup, and refuses --warmup-min/--warmup-max.
choose_warmup() {
	local t=${runnable[0]} m
	m=${t_run_modes[$t]%%,*}
	warmup_args=(--warmup "$warmup_samples") warmup_text=$warmup_fixed_text warmup_max_ms='' warmup_min_ms=''
	if [ "$opt_fixed_warmup" = 0 ] &&
		"$tests_dir/${t}_$m" --list-options 2>/dev/null | grep -q '^option=--warmup arg=N|auto '; then
		warmup_args=(--warmup auto --warmup-max "$auto_warmup_max") warmup_text=auto
		if [ -n "$auto_warmup_min" ]; then warmup_args+=(--warmup-min "$auto_warmup_min"); fi
		warmup_max_ms=$auto_warmup_max_ms warmup_min_ms=$auto_warmup_min_ms
	elif [ "$opt_warmup_bounds" = 1 ]; then
		usage_error "--warmup-min and --warmup-max bound the steady-state warmup, which ${t}_$m does not have (give --warmup S)"
	fi
	readonly warmup_args warmup_text warmup_max_ms warmup_min_ms
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
		seed "$opt_seed" max_points "$opt_max_points" warmup_samples "$warmup_samples" samples "$samples" \
		period_ms "$period" warmup_max_ms "$warmup_max_ms" warmup_min_ms "$warmup_min_ms" \
		overhead_ms "$RUN_OVERHEAD_MS" \
		extra "$profile_counts" >"$TMP/plan.conf"	# --profile's task counts: sb-plan measures them too
}

# plan_points: sb-plan's plan (and $TMP/plan.sweep, the sweep's clock and budget
# that sb-plan init and next keep) -> points_list, npoints, largest, points_csv (the
# counts planned so far: auto's seeds, then what it adds), plan_text (--dry-run's words),
# max_points, capacity, cap_unit, plan_runs (runner runs at least), run_ms (one
# run's estimate), plan_text[budget] (the sweep's budget in seconds, meta's; none when not adaptive), plan_timeout
# and plan_round_timeout (a guest's --timeout: the whole sweep, one round),
# plan_perf_guard (the seconds a perf recording of one run may last)
plan_points() {
	local k v out rc=0
	plan_timeout='' plan_round_timeout=''
	plan_conf
	out=$("$tool_plan" plan "$TMP/plan.conf" --sweep "$TMP/plan.sweep" 2>&1) || rc=$?
	if [ "$rc" = 2 ]; then usage_error "${out#sb-plan: }"; elif [ "$rc" != 0 ]; then die 3 "$out"; fi
	declare -gA plan_text=()
	while IFS='=' read -r k v; do
		case $k in
		points) points_csv=$v ;;
		largest) largest=$v ;;
		max_points) max_points=$v ;;
		runs_min) plan_runs=$v ;;
		run_ms) run_ms=$v ;;
		timeout_s) plan_timeout=$v ;;
		round_timeout_s) plan_round_timeout=$v ;;
		perf_guard_s) plan_perf_guard=$v ;;
		text_*) plan_text[${k#text_}]=$v ;;
		esac
	done <<<"$out"
	IFS=, read -ra points_list <<<"$points_csv"
	npoints=${#points_list[@]}
	case $placement in
	pus | none) capacity=${topo[pus]} cap_unit=PUs ;;
	*) capacity=${topo[cores]} cap_unit=cores ;;
	esac
	readonly points_list npoints largest plan_text max_points capacity cap_unit plan_runs run_ms \
		plan_timeout plan_round_timeout plan_perf_guard
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

# drift_advice TESTCASE: --dry-run's advice from the history's drift figure for TESTCASE's params, this
# testbed and this sweep's shape (sb-history drift --advise: the report's figures and arithmetic):
# sweeps a side for a 2% change and runs a sweep, two lines; nothing when the history has no figure
drift_advice() {
	local db=${SB_HISTORY:-$results/history.db} tool=$build_abs/bin/sb-history out rc=0 k v m_host='' m_cpu=''
	local cost=() line pre='  drift:     '
	# (a --kernel sweep's testbed is its guest's, which the dry run does not know)
	if [ ! -f "$db" ] || [ ${#vm_kernels[@]} -gt 0 ]; then return 0; fi
	if [ -n "$SB_INSTALL" ]; then tool=$sb_tools/sb-history; fi
	if [ ! -x "$tool" ]; then return 0; fi	# --no-history: not built
	out=$("$tool_rundir" facts "$$") || return 0
	while IFS='=' read -r k v; do
		case $k in host | cpu) printf -v "m_$k" '%s' "$v" ;; esac
	done <<<"$out"
	meta_lines test "$1" params "${t_params[$1]}" host "$m_host" cpu_model "$m_cpu" \
		topology "${topo[topology]}" hwloc_version "${topo[hwloc_version]}" placement "$placement" \
		duration "$duration_text" warmup "$warmup_text" period_ms "$period" >"$TMP/advise.meta"
	if [ "${run_ms:-0}" -gt 0 ]; then cost=(--run-cost "$((run_ms / 1000)).$(printf '%03d' $((run_ms % 1000)))"); fi
	out=$("$tool" --db "$db" drift --advise "$TMP/advise.meta" "${cost[@]}" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then
		warn "warning: no drift advice for $1 (sb-history exit $rc): ${out#sb-history: }"
		return 0
	fi
	while IFS= read -r line; do
		if [ -n "$line" ]; then printf '%s%s\n' "$pre" "$line"; fi
		pre='             '
	done <<<"$out"
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
			"$(if [ "$warmup_text" = auto ]; then echo "steady-state (${auto_warmup_min:+at least $auto_warmup_min s, }at most $auto_warmup_max s)"; else echo "$warmup_text s"; fi)" \
			"$duration_text" "$period"
		printf '  runs:      %s\n' "${plan_text[runs]}"
		drift_advice "$t"
		printf '  params:    %s\n' "${t_params[$t]:-none}"
		printf '  placement: %s, at %d tasks:\n' "$placement" "$largest"
		placement_rows "$t" "${modes[0]}"
	done
	printf 'topology:  %s\n' "${topo[topology]}"
	printf 'order:     %s\n' "${plan_text[order]}"
	printf 'estimated: %s\n' "${plan_text[estimated]}"
}
