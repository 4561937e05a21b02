# vm/sweep.sh: runtest.sh --kernel, the sweep inside QEMU guests (sourced by runtest.sh; docs/VM.md).
# shellcheck shell=bash

# ---- --kernel: the sweep inside QEMU guests (vm/boot.sh; docs/VM.md) ------------
#
# The host builds, plans and makes one run directory per kernel and testcase;
# each boot runs this script in the guest (the same arguments less the VM
# ones) into a staging results directory the guest may write, and the host
# moves the guest's rows into its run directory: with one kernel one boot
# runs the whole sweep; with several, round r boots each kernel in turn for
# one run of every point (run number r), so host drift cannot pass for a
# kernel difference. Inside a guest, SB_VM* (set by vm/boot.sh) add meta keys.
# The VM options are rows of runtest.sh's table (sb-sweepargs, read_args):
# vm_kernels, vm_boot_opts (for vm/boot.sh), vm_cpus, vm_rounds (several
# kernels), vm_rest (the arguments less the VM ones, in order, for the guest).

vm_meta_lines() {	# inside a guest: meta lines about the VM and the host; nothing elsewhere
	[ -n "${SB_VM-}" ] || return 0
	meta_lines vm "$SB_VM" vm_accel "${SB_VM_ACCEL-}" vm_cpus "${SB_VM_CPUS-}" vm_mem "${SB_VM_MEM-}" \
		vm_fs "${SB_VM_FS-}" vm_topology "${SB_VM_TOPOLOGY-}" vm_image "${SB_VM_IMAGE-}" \
		guest_kernel_release "$(uname -r)" guest_kernel_version "$(uname -v)" \
		host_kernel "${SB_VM_HOST_KERNEL-}" host_cpu "${SB_VM_HOST_CPU-}"
}

vm_progress_tag() {	# inside a TCG guest: the warning every progress line carries
	if [ "${SB_VM_ACCEL-}" = tcg ]; then printf '  [TCG: emulated, not for comparing kernels]'; fi
}

# vm_main ARG...: the sweep of every --kernel (ARG: the command line, for
# meta); exits with the sweep's status
vm_main() {
	local k r rounds per rc=0 plan
	export SB_TOOLS_DIR=${SB_TOOLS_DIR:-${tool_rundir%/*}}	# vm/boot.sh's sb-rundir
	vm_boot=${SB_VM_BOOT:-$ROOT/vm/boot.sh}
	[ -x "$vm_boot" ] || die 3 "$(shown "$vm_boot") is missing: this checkout has no VM support"
	if [ -z "$vm_cpus" ]; then	# as many as the sweep needs, at most the host's cores
		vm_cpus=$largest
		if [ "$vm_cpus" -gt "${topo[cores]}" ]; then vm_cpus=${topo[cores]}; fi
	fi
	declare -gA vm_release=() vm_label=() vm_accel=()
	for k in "${!vm_kernels[@]}"; do	# everything checked before any boot: exit 2 or 3 here
		rc=0
		plan=$("$vm_boot" --check --kernel "${vm_kernels[k]}" --cpus "$vm_cpus" "${vm_boot_opts[@]}" 2>"$TMP/vm.err") || rc=$?
		if [ "$rc" != 0 ]; then
			cat "$TMP/vm.err" >&2
			exit "$rc"
		fi
		if [ "$opt_dry_run" = 1 ]; then printf 'kernel %d:\n%s\n' $((k + 1)) "$(printf '%s\n' "$plan" | sed 's/^/  /')"; fi
		vm_release[$k]=$(printf '%s\n' "$plan" | sed -n 's/^release=//p')
		vm_accel[$k]=$(printf '%s\n' "$plan" | sed -n 's/^accel=//p')
		vm_label[$k]=$opt_label
		if [ -z "$opt_label" ]; then
			vm_label[$k]=$(printf '%s' "${vm_release[$k]}" | tr -c 'A-Za-z0-9._-' '_')
			vm_label[$k]=${vm_label[$k]#[.-]}
		fi
	done
	if [ "$opt_dry_run" = 1 ]; then
		print_plan
		exit 0
	fi
	check_results
	machine_facts "$@"
	vm_results=$(CDPATH='' cd -- "$results" && pwd)
	# one kernel: one boot, the sweep's own runs; several: one run a point a round
	rounds=1 per=''
	if [ ${#vm_kernels[@]} -gt 1 ]; then
		rounds=$vm_rounds per=1	# sb-sweepargs: --repeat, else the least runs; no stopping rule
	fi
	phase=sweep		# a signal from here on stops the sweep; vm_finish marks the runs
	vm_make_runs
	for ((r = 1; r <= rounds; r++)); do
		for k in "${!vm_kernels[@]}"; do
			if [ "$interrupted" = 1 ]; then break 2; fi
			if [ "$rounds" -gt 1 ]; then note "round $r/$rounds: kernel ${vm_release[$k]} (${vm_kernels[k]})"; fi
			vm_round "$k" $(((r - 1) * ${per:-0})) "$per"
			if [ "$vm_rc" != 0 ]; then break 2; fi
		done
	done
	vm_finish
}

# vm_make_runs: a run directory per kernel and testcase, its meta "running"
# (sb-rundir create) -> vm_dir[K,TEST], vm_active (the run directories not final yet)
vm_make_runs() {
	local k t id
	declare -gA vm_dir=()
	vm_active=()
	for k in "${!vm_kernels[@]}"; do
		for t in "${runnable[@]}"; do
			id=$(meta_lines test "$t" description "${t_desc[$t]}" label "${vm_label[$k]}" \
				vm qemu vm_accel "${vm_accel[$k]}" vm_cpus "$vm_cpus" vm_image "${vm_kernels[k]}" \
				guest_kernel_release "${vm_release[$k]}" host_name "$m_host" host_kernel "$m_kernel" \
				host_cpu "$m_cpu" host_topology "${topo[topology]}" host_command "$m_command" \
				host_system "$m_system" host_lock "$m_lock" git_revision "$m_git" \
				sweep_host "$m_host" sweep_pid "$$" sweep_start "$m_start" |
				rundir create "$(shown "$vm_results/$t")" "${vm_label[$k]}" --stdin)
			vm_dir[$k,$t]=$vm_results/$t/$id
			vm_active+=("$vm_results/$t/$id")
			rundir latest "$(shown "$vm_results/$t")" "$id"
		done
	done
}

# vm_round K BASE [PER]: one boot of kernel K whose sweep runs PER runs of every
# point (the sweep's own number when empty), numbered from BASE + 1, into
# kernel K's run directories -> vm_rc
vm_round() {
	local k=$1 stage=$TMP/vm-stage-$1-$2 rc=0 t runs=() env=(env "SB_BUILD=$build_abs") err bopts=()
	mkdir -p -- "$stage"
	stopped_note=''
	# --timeout: sb-plan's three times the plan and 5 minutes, for the whole sweep or one round
	bopts=(--timeout "${plan_timeout-}")
	if [ -n "${3-}" ]; then bopts=(--timeout "${plan_round_timeout-}"); fi
	if [ -z "${bopts[1]}" ]; then bopts=(); fi
	if [ "$opt_quiet" = 1 ]; then bopts+=(--quiet); fi
	for t in "${runnable[@]}"; do runs+=(--run-dir "${vm_dir[$k,$t]}"); done
	if [ "$own_tests" = 0 ]; then env+=("SB_TESTS_DIR=$tests_dir"); fi
	env+=(MAKE=true)	# built on the host just now; make's checks are slow in an emulated guest
	if [ -n "${CC-}" ]; then env+=("CC=$CC"); fi
	if [ -n "${CFLAGS-}" ]; then env+=("CFLAGS=$CFLAGS"); fi
	# vm/boot.sh gets SIGTERM if this script dies, even by SIGKILL, and takes QEMU with it
	{
		TMPDIR=$TMP setpriv --pdeathsig TERM -- "$vm_boot" --kernel "${vm_kernels[k]}" --cpus "$vm_cpus" \
			"${vm_boot_opts[@]}" --share "$stage" --keep "$ROOT" --keep "$build_abs" --keep "$tests_dir" --console "$TMP/console.$k" "${runs[@]}" \
			"${bopts[@]}" -- \
			"${env[@]}" "$ROOT/runtest.sh" "${vm_rest[@]}" ${3:+--repeat "$3"} --label "${vm_label[$k]}" \
			--results "$stage" --no-history >"$TMP/vm.out" 2>&3 &
		child=$!
		if [ "$interrupted" = 0 ]; then wait "$child" || rc=$?; fi
		# after a signal (the trap sent SIGTERM): boot.sh quits QEMU within
		# the grace period, or gets SIGKILL (QEMU and virtiofsd die with it)
		if [ "$interrupted" = 1 ]; then
			if [ "$termed" != "$child" ]; then kill -TERM "$child" 2>/dev/null || true; fi
			stop_child "$child" "$VM_GRACE_MS" "vm/boot.sh" rc
		fi
		child=''
	} 3>&2 2>/dev/null
	if [ -n "$stopped_note" ]; then warn "$stopped_note"; fi
	if [ "$interrupted" = 1 ]; then rc=130; fi
	for t in "${runnable[@]}"; do
		err=''
		vm_merge "${vm_dir[$k,$t]}" "$stage/$t" "$2" || err=$?
		if [ -s "$TMP/console.$k" ]; then cp -- "$TMP/console.$k" "${vm_dir[$k,$t]}/console.log"; fi
		if [ -n "$err" ] && [ "$rc" = 0 ]; then rc=$err; fi
	done
	rm -rf -- "$stage"
	vm_rc=$rc
}

# vm_merge DIR STAGE BASE: the guest's run in STAGE (one run directory) into
# DIR: its samples.csv rows appended with run numbers + BASE, summary.csv
# made anew, points.csv as the guest wrote it, meta from the guest's with DIR's name. Status 3 when a write fails.
vm_merge() {
	local dir=$1 src g rows err
	for src in "$2"/*/; do
		[ -f "$src/meta" ] || continue
		src=${src%/}
		g=$src
	done
	[ -n "${g-}" ] || return 0	# the guest made no run: vm/boot.sh said why in DIR's meta
	if [ -f "$g/samples.csv" ]; then
		if [ ! -f "$dir/samples.csv" ]; then head -n 1 -- "$g/samples.csv" >"$dir/.samples.new" || return 3
		else cp -- "$dir/samples.csv" "$dir/.samples.new" || return 3; fi
		awk -F, -v OFS=, -v base="$3" 'NR > 1 { $3 += base; print }' "$g/samples.csv" >>"$dir/.samples.new" || return 3
		mv -f -- "$dir/.samples.new" "$dir/samples.csv" || return 3
		rows=$(($(wc -l <"$dir/samples.csv") - 1))
		if [ "$rows" -gt 0 ] && ! err=$("$tool_summary" -o "$dir/summary.csv" "$dir/samples.csv" 2>&1); then
			warn "cannot summarise $(shown "$dir"): $(reason "$err")"
			return 3
		fi
	fi
	if [ -f "$g/points.csv" ]; then	# why each count was measured (the guest's planner)
		cp -- "$g/points.csv" "$dir/.points.new" && mv -f -- "$dir/.points.new" "$dir/points.csv" || return 3
	fi
	vm_meta_keep "$dir" "$g/meta"
}

# vm_meta_keep DIR META: DIR's meta = the guest's last META under DIR's own
# name, with the runs counted over all rounds and the host's machine (host_*:
# every guest is host=scalebench-guest; compare's machine check reads these)
vm_meta_keep() {
	local dir=$1 id date runs more=()
	id=$("$tool_rundir" get "$dir" run_id) date=$("$tool_rundir" get "$dir" date) || return 3
	if [ ${#vm_kernels[@]} -gt 1 ]; then	# rounds: exactly one run a point each
		runs=$(awk -F, 'NR > 1 && $4 == "measure" { r[$3] = 1 } END { print length(r) }' "$dir/samples.csv" 2>/dev/null || echo 0)
		more=("repeat=$runs" "vm_rounds=$runs")
	fi
	# (the sweep that keeps it up to date is this host's, not the guest's: machine/machine.sh's facts)
	"$tool_rundir" adopt "$dir" "$2" "${more[@]}" "run_id=$id" "date=$date" "host_command=$m_command" \
		"host_name=$m_host" "host_kernel=$m_kernel" "host_cpu=$m_cpu" "host_topology=${topo[topology]}" \
		"host_system=$m_system" "host_lock=$m_lock" "sweep_host=$m_host" "sweep_pid=$$" "sweep_start=$m_start" || return 3
	# complete only when every round is: vm_finish says so
	"$tool_rundir" status "$dir" running --if complete || return 3
}

# vm_finish: each run's final status; the run directories on stdout; exit
vm_finish() {
	local k t dir st
	phase=report
	for k in "${!vm_kernels[@]}"; do
		for t in "${runnable[@]}"; do
			dir=${vm_dir[$k,$t]}
			if [ "$interrupted" = 1 ] || [ "$vm_rc" = 130 ]; then
				"$tool_rundir" status "$dir" interrupted --if running,complete,interrupted || true
			elif [ "$vm_rc" != 0 ]; then
				"$tool_rundir" status "$dir" failed --error "the sweep in the guest ended with status $vm_rc" \
					--if running,complete,interrupted || true
			else
				"$tool_rundir" status "$dir" complete --if running || true
			fi
			printf '%s\n' "$(shown "$dir")"
			if [ "$opt_quiet" = 0 ]; then
				printf '%s on %s: %s, %s\n' "$t" "${vm_release[$k]}" "$("$tool_rundir" get "$dir" status || true)" \
					"$(shown "$dir")" >&2
				if [ -f "$dir/summary.csv" ]; then table "$dir" >&2; fi
			fi
		done
	done
	vm_active=()
	machine_release || true	# the machine free before the history, which may wait for another writer
	if [ "$vm_rc" = 0 ] && [ "$interrupted" = 0 ]; then	# sweep/history.sh: the runs into the history
		local done_dirs=()
		for k in "${!vm_kernels[@]}"; do for t in "${runnable[@]}"; do done_dirs+=("${vm_dir[$k,$t]}"); done; done
		history_add "${done_dirs[@]}"
	fi
	if [ "$interrupted" = 1 ] || [ "$vm_rc" = 130 ]; then
		warn "interrupted"
		exit 130
	fi
	exit "$vm_rc"
}

vm_abandon() {	# on_exit: run directories a failed vm_main leaves running say why
	local dir
	for dir in "${vm_active[@]}"; do
		if [ "$interrupted" = 1 ]; then "$tool_rundir" status "$dir" interrupted --if running || true
		else "$tool_rundir" status "$dir" failed --error "runtest.sh stopped with exit status $1" --if running || true; fi
	done
}
