#!/usr/bin/env bash
# vm/boot.sh: boots a kernel image in QEMU on the host's own files and runs one command inside it (docs/VM.md).
#
# The guest's root is the host's root, read-only over virtio-9p or virtiofs,
# with tmpfs for /tmp, /run, /var/tmp and /root; every --share DIR is mounted
# read-write at the same path. The command runs in the same working directory;
# its stdout and stderr come back on serial ports, its exit status on a
# control port. vCPU threads are pinned one-to-one to host cores.
set -eu
trap 'exit 130' INT TERM HUP

PROG=vm/boot.sh
QEMU=${SB_QEMU:-qemu-system-x86_64}	# (testing: SB_QEMU, SB_BUSYBOX, SB_VIRTIOFSD name other binaries)
VM_DIR=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# the sb-* tools (sb-rundir marks --run-dir's meta, sb-topology gives the host's cores): an
# installed copy's (SB_TOOLS_DIR), else this checkout's build
TOOLS=${SB_TOOLS_DIR:-$VM_DIR/../${SB_BUILD:-build}/bin}
case $TOOLS in /*) ;; *) TOOLS=$VM_DIR/../$TOOLS ;; esac
HELPERS=${SB_HELPERS_DIR:-$TOOLS}	# sb-vmboot (its options, the guest's shape): LIBEXECDIR/scalebench installed
# shellcheck source=vm/kernel.sh
. "$VM_DIR/kernel.sh"
# shellcheck source=vm/initramfs.sh
. "$VM_DIR/initramfs.sh"

TMP=''			# the working directory, removed at exit
qemu_pid='' fsd_pids=()	# what cleanup stops
outcome=''		# what cleanup marks the runs with: '', interrupted, failed

note() { if [ "${opt_quiet:-0}" = 0 ]; then printf '%s: %s\n' "$PROG" "$*" >&2; fi; }
warn() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { warn "${*:2}"; exit "$1"; }

# args ARG...: sb-vmboot's table judges the arguments (one line, exit 2) and hands
# them back as NUL-terminated NAME VALUE pairs -> opt_*, cmd (the command)
args() {
	local pairs=() i n
	opt_kernel='' opt_modules='' opt_cpus='' opt_mem='' opt_fs=auto opt_accel=auto opt_append=''
	opt_shares=() opt_keep=() opt_boot_timeout='' opt_timeout='' opt_console='' opt_runs=() opt_check=0 opt_quiet=0
	cmd=()
	[ -x "$HELPERS/sb-vmboot" ] || die 3 "$HELPERS/sb-vmboot is missing: run make"
	# (its status as the last pair: a process substitution's is lost)
	mapfile -d '' -t pairs < <(rc=0; "$HELPERS/sb-vmboot" args -- "$@" || rc=$?; printf 'status\0%s\0' "$rc")
	n=${#pairs[@]}
	if [ "$n" -lt 2 ] || [ "${pairs[n - 2]}" != status ]; then die 3 "sb-vmboot gave no answer"; fi
	if [ "${pairs[n - 1]}" != 0 ]; then exit "${pairs[n - 1]}"; fi	# it said why, in one line
	for ((i = 0; i < n - 2; i += 2)); do
		case ${pairs[i]} in
		help) "$HELPERS/sb-vmboot" usage; exit 0 ;;
		opt_shares) opt_shares+=("${pairs[i + 1]}") ;;
		opt_keep) opt_keep+=("${pairs[i + 1]}") ;;
		opt_runs) opt_runs+=("${pairs[i + 1]}") ;;
		cmd) cmd+=("${pairs[i + 1]}") ;;
		opt_[a-z_]*) printf -v "${pairs[i]}" '%s' "${pairs[i + 1]}" ;;
		esac
	done
	if [ ${#opt_runs[@]} -gt 0 ] && [ ! -x "$TOOLS/sb-rundir" ]; then
		die 3 "$TOOLS/sb-rundir is missing (--run-dir needs it): run make"
	fi
}

# ---- the host: what the boot needs ----------------------------------------------

need() {	# need PROGRAM PACKAGE: PROGRAM on PATH, else exit 3 naming the Debian package
	command -v "$1" >/dev/null 2>&1 || die 3 "$1 not found: install $2 (Debian: apt-get install $2, or 'make deps')"
}

kvm_usable() {	# /dev/kvm read-write and a CPU with hardware virtualisation
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	grep -Eqw 'vmx|svm' /proc/cpuinfo 2>/dev/null
}

# host_cores N: N host CPUs, one per core, by package then core, among those
# this process may run on -> "CPU PACKAGE" lines (sb-topology's, from hwloc)
host_cores() {
	[ -x "$TOOLS/sb-topology" ] || die 3 "$TOOLS/sb-topology is missing: run make"
	"$TOOLS/sb-topology" --cores "$1" || die 3 "sb-topology --cores failed"
}

# plan: -> image, release, moddir, fs, accel, cpus, mem, pin (host CPUs),
# smp (QEMU's -smp), topology (a line for meta)
plan() {
	local n lines p k fsd all
	image=$opt_kernel
	[ -e "$image" ] || die 2 "--kernel $image: no such file"
	[ -f "$image" ] || die 2 "--kernel $image: not a file (a kernel image, bzImage)"
	[ -r "$image" ] || die 3 "cannot read the kernel image $image"
	case $image in /*) ;; *) image=$PWD/$image ;; esac
	release=$(kernel_release "$image") || die 2 "$image is not an x86 bzImage (no setup header)"
	moddir=$opt_modules
	if [ -z "$moddir" ] && [ -d "/lib/modules/$release" ]; then moddir=/lib/modules/$release; fi
	if [ -n "$moddir" ] && [ ! -r "$moddir/modules.dep" ]; then
		die 3 "$moddir has no modules.dep (run depmod $release, or install the kernel's modules)"
	fi
	need "$QEMU" qemu-system-x86
	need setpriv util-linux
	need taskset util-linux
	static_busybox >/dev/null || die 3 "no static busybox found: install busybox-static (Debian: apt-get install busybox-static, or 'make deps')"
	fs=$opt_fs
	if [ "$fs" = auto ]; then
		fs=''
		for n in 9p virtiofs; do
			k=0
			fs_supported "$image" "$release" "$n" || k=$?
			if [ "$k" = 0 ]; then fs=$n; break; fi
			if [ "$k" = 2 ]; then fs=9p; break; fi	# a bare image: built with 9p, as docs/VM.md asks
		done
		[ -n "$fs" ] || die 3 "the kernel $release has neither 9p nor virtiofs (as modules in $moddir or built in): see docs/VM.md"
	elif [ -n "$moddir" ] && ! fs_supported "$image" "$release" "$fs"; then
		die 3 "the kernel $release has no $fs driver in $moddir"
	fi
	if [ "$fs" = virtiofs ]; then
		fsd=$(virtiofsd_path) || die 3 "virtiofsd not found: install qemu-system-common (Debian 12) or virtiofsd"
		virtiofsd=$fsd
	fi
	accel=$opt_accel
	if [ "$accel" = auto ]; then
		if kvm_usable; then accel=kvm; else accel=tcg; fi
	elif [ "$accel" = kvm ] && ! kvm_usable; then
		die 3 "--accel kvm: /dev/kvm is not usable here (missing, no access, or no vmx/svm in the CPU)"
	fi
	# the vCPUs pinned to host cores, sockets, memory, the boot timeout: sb-vmboot's rules
	all=$(host_cores 1000000) || exit 3
	pin=()
	mapfile -d '' -t lines < <(rc=0; "$HELPERS/sb-vmboot" shape "$opt_cpus" "$opt_mem" "$opt_boot_timeout" "$accel" \
		<<<"$all" || rc=$?; printf 'status\0%s\0' "$rc")
	n=${#lines[@]}
	if [ "$n" -lt 2 ] || [ "${lines[n - 2]}" != status ]; then die 3 "sb-vmboot gave no answer"; fi
	if [ "${lines[n - 1]}" != 0 ]; then exit "${lines[n - 1]}"; fi
	for ((k = 0; k < n - 2; k += 2)); do
		case ${lines[k]} in
		pin) pin+=("${lines[k + 1]}") ;;
		cpus | smp | topology | mem | boot_timeout) printf -v "${lines[k]}" '%s' "${lines[k + 1]}" ;;
		esac
	done
	for p in "${opt_keep[@]}"; do
		[ -d "$p" ] || die 3 "--keep $p: no such directory"
		case $p in *[[:space:]]*) die 2 "--keep $p: a kept path cannot contain spaces" ;; esac
	done
	for p in "${opt_shares[@]}"; do
		[ -d "$p" ] || die 3 "--share $p: no such directory"
		case $p in *[[:space:]]* | *:*) die 2 "--share $p: a shared path cannot contain spaces or ':'" ;; esac
	done
	case $PWD in *[[:space:]]*) die 2 "the working directory $PWD contains spaces: the guest cannot cd there" ;; esac
}

virtiofsd_path() {
	local p
	if [ -n "${SB_VIRTIOFSD-}" ]; then
		[ -x "$SB_VIRTIOFSD" ] || return 1
		printf '%s' "$SB_VIRTIOFSD"
		return 0
	fi
	for p in /usr/libexec/virtiofsd /usr/lib/qemu/virtiofsd "$(command -v virtiofsd 2>/dev/null || true)"; do
		if [ -n "$p" ] && [ -x "$p" ]; then printf '%s' "$p"; return 0; fi
	done
	return 1
}

print_plan() {	# --check
	printf 'kernel=%s\nrelease=%s\nmodules=%s\nfs=%s\naccel=%s\ncpus=%s\nmem_mib=%s\nsmp=%s\ntopology=%s\n' \
		"$image" "$release" "${moddir:-none (built in)}" "$fs" "$accel" "$cpus" "$mem" "$smp" "$topology"
}

# ---- the guest's files ----------------------------------------------------------

q() {	# a word quoted for sh: 'it'\''s'
	local s=${1//\'/\'\\\'\'}
	printf "'%s'" "$s"
}

# guest_files: -> $TMP/initramfs.gz, with the command and the facts the
# guest's environment gets (SB_VM_*: what runtest.sh writes into meta)
guest_files() {
	local a shares='' i=0 s conf keep
	{
		printf '# the command vm/boot.sh runs in the guest\n'
		printf 'export SB_VM=qemu SB_VM_ACCEL=%s SB_VM_CPUS=%s SB_VM_MEM=%s SB_VM_FS=%s\n' \
			"$accel" "$cpus" "$mem" "$fs"
		printf 'export SB_VM_TOPOLOGY=%s SB_VM_IMAGE=%s\n' "$(q "$topology")" "$(q "$image")"
		printf 'export SB_VM_HOST_KERNEL=%s SB_VM_HOST_CPU=%s\n' "$(q "$(uname -srvm)")" "$(q "$(host_cpu)")"
		printf 'exec'
		for a in "${cmd[@]}"; do printf ' %s' "$(q "$a")"; done
		printf '\n'
	} >"$TMP/cmd"
	for s in "${opt_shares[@]}"; do
		shares="$shares${shares:+ }share$i:$(CDPATH='' cd -- "$s" && pwd)"
		i=$((i + 1))
	done
	keep=$PWD
	for s in "${opt_keep[@]}"; do keep="$keep $(CDPATH='' cd -- "$s" && pwd)"; done
	conf="FS=$fs
SHARES=$(q "$shares")
KEEP=$(q "$keep")
WORKDIR=$(q "$PWD")"
	mkdir -- "$TMP/stage"
	make_initramfs "$TMP/initramfs.gz" "$TMP/stage" "$moddir" "$fs" "$conf" "$TMP/cmd" || exit 3
	rm -rf -- "$TMP/stage"
	guest_shares=$shares
}

host_cpu() {
	awk -F': *' '/^model name[ \t]*:/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || uname -m
}

# ---- QEMU -----------------------------------------------------------------------

# fs_args ARRAY: QEMU's arguments for the root and the shares (virtiofs: starts the daemons)
fs_args() {
	local -n _a=$1
	local s tag dir
	_a=()
	if [ "$fs" = 9p ]; then
		_a+=(-fsdev "local,id=fsroot,path=/,security_model=none,readonly=on,multidevs=remap"
			-device "virtio-9p-pci,fsdev=fsroot,mount_tag=root")
		for s in $guest_shares; do
			tag=${s%%:*} dir=${s#*:}
			_a+=(-fsdev "local,id=fs$tag,path=$dir,security_model=none,multidevs=remap"
				-device "virtio-9p-pci,fsdev=fs$tag,mount_tag=$tag")
		done
		return
	fi
	_a+=(-object "memory-backend-memfd,id=mem,size=${mem}M,share=on" -numa "node,memdev=mem")
	start_virtiofsd root /
	_a+=(-chardev "socket,id=vfsroot,path=$TMP/vfs-root.sock" -device "vhost-user-fs-pci,chardev=vfsroot,tag=root")
	for s in $guest_shares; do
		tag=${s%%:*} dir=${s#*:}
		start_virtiofsd "$tag" "$dir"
		_a+=(-chardev "socket,id=vfs$tag,path=$TMP/vfs-$tag.sock" -device "vhost-user-fs-pci,chardev=vfs$tag,tag=$tag")
	done
}

start_virtiofsd() {	# start_virtiofsd TAG DIR: a daemon that dies with this script
	local sock=$TMP/vfs-$1.sock i
	setpriv --pdeathsig KILL -- "$virtiofsd" --socket-path="$sock" -o source="$2" -o cache=auto \
		-o sandbox=chroot -o log_level=err </dev/null >>"$TMP/virtiofsd.log" 2>&1 &
	fsd_pids+=($!)
	for ((i = 0; i < 100; i++)); do
		[ ! -S "$sock" ] || return 0
		kill -0 "$!" 2>/dev/null || break
		sleep 0.1
	done
	die 3 "virtiofsd for $2 did not start: $(tail -n 1 "$TMP/virtiofsd.log" 2>/dev/null)"
}

qmp() {	# qmp JSON: one command; its answer (the line with "return" or "error") on stdout
	local line
	printf '%s\n' "$1" >&"$qmp_in"
	while IFS= read -r -t 30 -u "$qmp_out" line; do
		case $line in *'"return"'* | *'"error"'*) printf '%s\n' "$line"; return 0 ;; esac
	done
	return 1
}

# pin_vcpus: each vCPU thread (QMP query-cpus-fast) onto its host CPU, then run
pin_vcpus() {
	local ans tids=() i line
	qmp '{"execute":"qmp_capabilities"}' >/dev/null || die 3 "QEMU does not answer on QMP"
	ans=$(qmp '{"execute":"query-cpus-fast"}') || die 3 "QEMU did not answer query-cpus-fast"
	printf '%s\n' "$ans" >"$TMP/qmp-cpus"
	mapfile -t tids < <(printf '%s\n' "$ans" | grep -o '"thread-id": *[0-9]*, *"props"' | grep -o '[0-9][0-9]*')
	[ ${#tids[@]} = "$cpus" ] || warn "warning: QEMU reports ${#tids[@]} vCPU threads for $cpus vCPUs"
	if [ ${#tids[@]} -gt 1 ] && [ "$(printf '%s\n' "${tids[@]}" | sort -u | wc -l)" = 1 ]; then
		warn "warning: all vCPUs share one QEMU thread (single-threaded TCG): not pinned one-to-one"
		taskset -p -c "$(IFS=,; printf '%s' "${pin[*]}")" "${tids[0]}" >/dev/null || true
	else
		for ((i = 0; i < ${#tids[@]} && i < ${#pin[@]}; i++)); do
			taskset -p -c "${pin[i]}" "${tids[i]}" >/dev/null || die 3 "cannot pin vCPU $i (thread ${tids[i]}) to CPU ${pin[i]}"
		done
	fi
	qmp '{"execute":"cont"}' >/dev/null || die 3 "QEMU did not start the guest (QMP cont)"
}

start_qemu() {	# -> qemu_pid, QEMU stopped before its first instruction, then pinned and running
	local fsa=() accel_args=() cmdline
	fs_args fsa
	if [ "$accel" = kvm ]; then
		accel_args=(-accel kvm -cpu host)
	else
		accel_args=(-accel "tcg,thread=multi" -cpu max)
	fi
	cmdline="console=ttyS0 8250.nr_uarts=4 panic=-1 rdinit=/init ${opt_append}"
	mkfifo -- "$TMP/qmp.in" "$TMP/qmp.out"
	# read-write opens of a FIFO do not wait for the other side
	exec {qmp_in}<>"$TMP/qmp.in" {qmp_out}<>"$TMP/qmp.out"
	: >"$TMP/console" && : >"$TMP/ctl" && : >"$TMP/out"
	# QEMU dies with this script, even on SIGKILL (parent-death signal)
	setpriv --pdeathsig KILL -- "$QEMU" -name scalebench-vm,debug-threads=on -machine pc \
		"${accel_args[@]}" -smp "$smp" -m "$mem" -nodefaults -no-user-config -display none -no-reboot -S \
		-kernel "$image" -initrd "$TMP/initramfs.gz" -append "$cmdline" \
		-serial "file:$TMP/console" -serial "file:$TMP/ctl" -serial "file:$TMP/out" \
		-chardev stdio,id=gerr,signal=off -serial chardev:gerr \
		-chardev "pipe,id=qmp,path=$TMP/qmp" -mon chardev=qmp,mode=control \
		"${fsa[@]}" </dev/null >&2 2>"$TMP/qemu.err" &
	qemu_pid=$!
	pin_vcpus
}

# watch: until the command's status comes or the guest fails -> guest_rc, or die 1
# (sb-vmboot watch reads the control port, the clock and QEMU; in the background,
# so that a signal is handled at once)
watch() {
	local out='' rc=0
	"$HELPERS/sb-vmboot" watch "$TMP" "$qemu_pid" "$boot_timeout" "$opt_timeout" \
		"$(if [ "${opt_quiet:-0}" = 0 ]; then printf '(%s, %s vCPUs, %s MiB, root over %s)' "$accel" "$cpus" "$mem" "$fs"; fi)" \
		>"$TMP/watch" &
	wait "$!" || die 3 "sb-vmboot watch failed"
	read -r out <"$TMP/watch" || true
	case $out in
	'exit '*) guest_rc=${out#exit }; stop_qemu; return 0 ;;
	'failed '*) guest_failed "${out#failed }" ;;
	esac
	wait "$qemu_pid" 2>/dev/null || rc=$?
	qemu_pid=''
	out=${out#gone} out=${out# }
	if [ -z "$out" ]; then out="the guest stopped without reporting the command's status (QEMU exit status $rc)"; fi
	guest_failed "$out"
}

guest_failed() {	# guest_failed MESSAGE: exit 1, the console kept
	outcome=failed
	fail_message=$1
	die 1 "$1"
}

stop_qemu() {	# ask QEMU to quit, then kill it after 2 s
	[ -n "$qemu_pid" ] || return 0
	if kill -0 "$qemu_pid" 2>/dev/null; then
		{ printf '%s\n' '{"execute":"quit"}' >&"$qmp_in"; } 2>/dev/null || true
		"$HELPERS/sb-workdir" --stop "$qemu_pid" 2000 QEMU >/dev/null || true
	fi
	wait "$qemu_pid" 2>/dev/null || true
	qemu_pid=''
}

# ---- the end --------------------------------------------------------------------

# finish_runs: each --run-dir whose meta still says running: interrupted, or
# failed with the error; the console's last lines as console.log
finish_runs() {
	local dir
	for dir in "${opt_runs[@]}"; do
		[ "$("$TOOLS/sb-rundir" get "$dir" status 2>/dev/null || true)" = running ] || continue
		if [ "$outcome" = interrupted ]; then
			"$TOOLS/sb-rundir" status "$dir" interrupted --if running || true
		else
			"$TOOLS/sb-rundir" status "$dir" failed --error "$(printf '%s' "${fail_message:-the guest failed}" | tr '\n\r' '  ')" --if running || true
		fi
		if [ -n "$TMP" ] && [ -s "$TMP/console" ]; then tail -n 200 -- "$TMP/console" >"$dir/console.log" || true; fi
	done
}

cleanup() {
	local rc=$? p
	trap - EXIT INT TERM HUP
	stop_qemu
	for p in "${fsd_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	# no wait without a limit: 5 s for each virtiofsd, then SIGKILL
	for p in "${fsd_pids[@]}"; do
		"$HELPERS/sb-workdir" --stop "$p" 5000 virtiofsd >/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ "$rc" = 130 ]; then outcome=interrupted; fi
	if [ -n "$outcome" ]; then finish_runs || true; fi
	if [ -n "$TMP" ] && [ -s "$TMP/console" ]; then
		if [ -n "$opt_console" ]; then
			tail -n 500 "$TMP/console" >"$opt_console" 2>/dev/null || warn "cannot write $opt_console"
		elif [ "$rc" = 1 ]; then
			warn "the guest console's last lines:"
			tail -n 15 "$TMP/console" >&2
		fi
	fi
	if [ -n "$TMP" ] && [ -z "${SB_VM_KEEP-}" ]; then rm -rf -- "$TMP"; fi
	exit "$rc"
}

main() {
	args "$@"
	plan
	if [ "$opt_check" = 1 ]; then
		print_plan
		exit 0
	fi
	if [ "$accel" = tcg ]; then
		warn "warning: no usable KVM: the guest runs under TCG (emulation): its numbers do not compare kernels"
	fi
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/sb-vm.XXXXXX") || die 3 "cannot make a working directory in ${TMPDIR:-/tmp}"
	guest_files
	start_qemu
	watch
	cat -- "$TMP/out"
	exit "$guest_rc"
}

main "$@"
