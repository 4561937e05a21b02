# vm/initramfs.sh: builds the guest's initramfs from the host's static busybox, vm/init and the kernel's own modules (sourced).
# shellcheck shell=bash
#
# make_initramfs OUT WORK MODDIR FS CONF CMD: a gzip'd newc cpio at OUT, staged
# in the empty directory WORK. MODDIR is /lib/modules/<release> ("" for a
# kernel with the drivers built in), FS 9p or virtiofs, CONF the text of
# /etc/sb-vm/conf, CMD the file that becomes /etc/sb-vm/cmd. Needs
# vm/kernel.sh. Errors: one line on stderr, status 3.

VM_DIR=${VM_DIR:-$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)}

# static_busybox: the path of a statically linked busybox, or status 1
static_busybox() {
	local b list=(/bin/busybox /usr/bin/busybox)
	if [ -n "${SB_BUSYBOX-}" ]; then list=("$SB_BUSYBOX"); fi
	for b in "${list[@]}"; do
		[ -n "$b" ] && [ -x "$b" ] || continue
		# a dynamic busybox would need the host's libc inside the initramfs
		if ! ldd -- "$b" >/dev/null 2>&1; then
			printf '%s' "$b"
			return 0
		fi
	done
	return 1
}

# copy_module SRC DEST: a module file, decompressed (busybox insmod takes plain .ko)
copy_module() {
	case $1 in
	*.ko) cp -- "$1" "$2" ;;
	*.ko.xz) xz -dc -- "$1" >"$2" ;;
	*.ko.zst) zstd -qdc -- "$1" >"$2" ;;
	*.ko.gz) gzip -dc -- "$1" >"$2" ;;
	*) return 1 ;;
	esac
}

make_initramfs() {
	local out=$1 work=$2 mdir=$3 mfs=$4 conf=$5 cmd=$6 bb m mods=() d err
	bb=$(static_busybox) || { echo "no static busybox found: install busybox-static" >&2; return 3; }
	for d in bin dev proc sys newroot etc/sb-vm lib/modules; do mkdir -p -- "$work/$d"; done
	cp -- "$bb" "$work/bin/busybox"
	cp -- "$VM_DIR/init" "$work/init"
	chmod 755 "$work/init" "$work/bin/busybox"
	# the kernel opens /dev/console for init before anything is mounted (root only)
	mknod -m 600 "$work/dev/console" c 5 1 2>/dev/null || true
	printf '%s\n' "$conf" >"$work/etc/sb-vm/conf"
	cp -- "$cmd" "$work/etc/sb-vm/cmd"
	: >"$work/etc/sb-vm/modules"
	if [ -n "$mdir" ]; then
		# shellcheck disable=SC2046
		if ! err=$(module_closure "$mdir" $(fs_drivers "$mfs") 2>&1 >"$work/mods"); then
			echo "the kernel of $mdir has no driver ${err##*$'\n'} (needed for $mfs)" >&2
			return 3
		fi
		mapfile -t mods <"$work/mods"
		rm -f -- "$work/mods"
		for m in "${mods[@]}"; do
			d=$(module_name "$m").ko
			if ! copy_module "$mdir/$m" "$work/lib/modules/$d"; then
				echo "cannot copy the module $mdir/$m (is xz or zstd installed?)" >&2
				return 3
			fi
			printf '%s\n' "$d" >>"$work/etc/sb-vm/modules"
		done
	fi
	if command -v cpio >/dev/null 2>&1; then
		err=$({ cd -- "$work" && find . -print | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1 >"$out"; } 2>&1) ||
			{ echo "cannot write the initramfs: ${err##*$'\n'}" >&2; return 3; }
	else
		err=$({ cd -- "$work" && find . -print | LC_ALL=C sort | "$bb" cpio -o -H newc | gzip -1 >"$out"; } 2>&1) ||
			{ echo "cannot write the initramfs: ${err##*$'\n'}" >&2; return 3; }
	fi
}
