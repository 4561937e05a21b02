# vm/kernel.sh: facts about a kernel image: its release, its modules, the shared-filesystem driver it has (sourced).
# shellcheck shell=bash
#
# Functions only; each prints its value on standard output and returns 1 when
# it cannot tell. Used by vm/boot.sh and vm/initramfs.sh.

# sb-vmboot (vm/cmd_vmboot.c) reads the image and the module lists: vm/boot.sh's
# HELPERS (a checkout's build/bin; LIBEXECDIR/scalebench installed), else SB_BUILD's
vmboot() { "${HELPERS:-${SB_BUILD:-build}/bin}/sb-vmboot" "$@"; }

# kernel_release IMAGE: the release string an x86 bzImage carries in its
# setup header, e.g. "6.1.0-57-cloud-amd64"
kernel_release() { vmboot release "$1"; }

# module_name FILE: kernel/fs/9p/9p.ko.xz -> 9p (dashes become underscores)
module_name() {
	local n=${1##*/}
	n=${n%.gz} n=${n%.xz} n=${n%.zst}
	n=${n%.ko}
	printf '%s' "${n//-/_}"
}

# module_state MODDIR NAME: "builtin", "module PATH" (relative to MODDIR) or
# nothing (status 1) when the kernel of MODDIR has no such driver
module_state() { vmboot module "$1" "$2"; }

# module_closure MODDIR NAME...: the module files (relative to MODDIR) that
# loading NAME... needs, each after the ones it depends on, one a line;
# built-in drivers give nothing. Status 1 (naming it on stderr) when a driver
# is neither built in nor a module.
module_closure() { vmboot closure "$@"; }

# fs_drivers FS: the drivers a guest needs to mount its root over FS
fs_drivers() { vmboot drivers "$1"; }

# fs_supported IMAGE RELEASE FS: status 0 when the kernel can mount FS, as far
# as its modules (/lib/modules/RELEASE) or its .config (/boot/config-RELEASE,
# beside the image, or a build tree's) tell; 2 when nothing tells (a bare image)
fs_supported() { vmboot fs "$1" "$2" "$3"; }
