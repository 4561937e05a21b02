# shellcheck shell=bash disable=SC2154  # the variables are runtest.sh's
# sweep/testcases.sh: which testcases a sweep runs: finding them, the build of them and the tools, the topology, their --info, --list.
#
# Sourced by runtest.sh at the top of main (it uses note, warn, die, shown and opt_*); functions only, nothing runs here.

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
	local -A seen=()
	local once=()
	for t in "${selected[@]}"; do
		if [ -n "$t" ] && [ -z "${seen[$t]+x}" ]; then seen[$t]=1 once+=("$t"); fi
	done
	selected=("${once[@]}")
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

build_tools() {	# make what the sweep runs -> tool_summary, tool_topology, tool_plan, tool_rundir, tool_profile
	local t targets=("$build/bin/sb-summary" "$build/bin/sb-topology" "$build/bin/sb-plan" "$build/bin/sb-machine"
		"$build/bin/sb-rundir")
	if [ "$opt_no_history" = 0 ]; then targets+=("$build/bin/sb-history"); fi	# sweep/history.sh
	if [ -n "$opt_profile" ]; then targets+=("$build/bin/sb-profile"); fi	# profile/record.sh
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
		tool_plan=$build_abs/bin/sb-plan tool_rundir=$build_abs/bin/sb-rundir tool_profile=$build_abs/bin/sb-profile
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
