# vm/kernel.sh: facts about a kernel image: its release, its modules, the shared-filesystem driver it has (sourced).
# shellcheck shell=bash
#
# Functions only; each prints its value on standard output and returns 1 when
# it cannot tell. Used by vm/boot.sh and vm/initramfs.sh.

# kernel_release IMAGE: the release string an x86 bzImage carries in its
# setup header (the kernel_version field at 0x20e points to it, relative to
# 0x200), e.g. "6.1.0-57-cloud-amd64"
kernel_release() {
	local img=$1 magic off ver
	magic=$(dd if="$img" bs=1 skip=514 count=4 2>/dev/null | tr -d '\000') || return 1
	[ "$magic" = HdrS ] || return 1
	off=$(od -An -tu2 -j 526 -N 2 -- "$img" 2>/dev/null) || return 1
	off=${off//[!0-9]/}
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 1
	ver=$(dd if="$img" bs=1 skip=$((off + 512)) count=256 2>/dev/null | tr '\0' '\n' | head -n 1) || return 1
	ver=${ver%% *}
	[ -n "$ver" ] || return 1
	printf '%s' "$ver"
}

# kernel_config IMAGE RELEASE: the path of the kernel's .config, when one is
# found: /boot/config-RELEASE, beside the image, or the build tree of an
# arch/x86/boot/bzImage
kernel_config() {
	local img=$1 rel=$2 dir c
	dir=$(dirname -- "$img")
	for c in "/boot/config-$rel" "$dir/config-$rel" "$dir/.config" "$dir/../../../.config" "/lib/modules/$rel/build/.config"; do
		if [ -n "$rel" ] && [ -r "$c" ]; then
			printf '%s' "$c"
			return 0
		fi
	done
	return 1
}

# module_name FILE: kernel/fs/9p/9p.ko.xz -> 9p (dashes become underscores)
module_name() {
	local n=${1##*/}
	n=${n%.gz} n=${n%.xz} n=${n%.zst}
	n=${n%.ko}
	printf '%s' "${n//-/_}"
}

# module_state MODDIR NAME: "builtin", "module PATH" (relative to MODDIR) or
# nothing (status 1) when the kernel of MODDIR has no such driver
module_state() {
	local dir=$1 files=()
	[ ! -r "$dir/modules.builtin" ] || files+=("$dir/modules.builtin")
	[ ! -r "$dir/modules.dep" ] || files+=("$dir/modules.dep")
	[ ${#files[@]} -gt 0 ] || return 1
	awk -v want="$2" '
		{ p = $0; sub(/:.*/, "", p); n = p; sub(/.*\//, "", n); sub(/\.(gz|xz|zst)$/, "", n)
		  sub(/\.ko$/, "", n); gsub(/-/, "_", n) }
		n == want { if (FILENAME ~ /modules\.builtin$/) print "builtin"; else print "module " p; found = 1; exit }
		END { exit !found }' "${files[@]}"
}

# module_closure MODDIR NAME...: the module files (relative to MODDIR) that
# loading NAME... needs, each after the ones it depends on, one a line;
# built-in drivers give nothing. Status 1 (naming it on stderr) when a driver
# is neither built in nor a module.
module_closure() {
	local dir=$1 line path deps n
	shift
	local -A dep=() visited=() byname=()
	[ -r "$dir/modules.dep" ] || { printf 'no %s\n' "$dir/modules.dep" >&2; return 1; }
	while read -r n path deps; do
		dep[$path]=$deps
		byname[$n]=$path
	done < <(awk '{ p = $1; sub(/:$/, "", p); n = p; sub(/.*\//, "", n); sub(/\.(gz|xz|zst)$/, "", n)
		sub(/\.ko$/, "", n); gsub(/-/, "_", n); $1 = ""; print n, p $0 }' "$dir/modules.dep")
	_closure_visit() {	# depth first: dependencies first, each once
		local p=$1 d
		[ -z "${visited[$p]+x}" ] || return 0
		visited[$p]=1
		for d in ${dep[$p]-}; do _closure_visit "$d"; done
		printf '%s\n' "$p"
	}
	for n in "$@"; do
		if [ -n "${byname[$n]+x}" ]; then
			_closure_visit "${byname[$n]}"
		elif [ "$(module_state "$dir" "$n" || true)" != builtin ]; then
			printf '%s\n' "$n" >&2
			return 1
		fi
	done
}

# config_has CONFIG SYMBOL...: status 0 when every CONFIG_SYMBOL is y or m
config_has() {
	local cfg=$1 s
	shift
	for s in "$@"; do
		grep -Eq "^CONFIG_${s}=(y|m)$" "$cfg" || return 1
	done
}

# fs_drivers FS: the drivers a guest needs to mount its root over FS
fs_drivers() {
	case $1 in
	9p) printf '%s\n' virtio_pci 9pnet_virtio 9p ;;
	virtiofs) printf '%s\n' virtio_pci virtiofs ;;
	esac
}

# fs_supported IMAGE RELEASE FS: status 0 when the kernel can mount FS, as far
# as its modules or its .config tell; 2 when nothing tells (a bare image)
fs_supported() {
	local img=$1 rel=$2 fs=$3 dir=/lib/modules/$2 cfg d
	if [ -n "$rel" ] && [ -r "$dir/modules.dep" ]; then
		for d in $(fs_drivers "$fs"); do
			module_state "$dir" "$d" >/dev/null || return 1
		done
		return 0
	fi
	if cfg=$(kernel_config "$img" "$rel"); then
		case $fs in
		9p) config_has "$cfg" VIRTIO_PCI NET_9P NET_9P_VIRTIO 9P_FS ;;
		virtiofs) config_has "$cfg" VIRTIO_PCI FUSE_FS VIRTIO_FS ;;
		esac
		return
	fi
	return 2
}
