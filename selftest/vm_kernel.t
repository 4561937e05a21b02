#!/usr/bin/env bash
# vm/: a bzImage's release, module dependencies in load order, the driver check, the initramfs, exit 3/2 before any boot.
# sb-san: skip: vm/ scripts: shell, no boot
. "$(dirname "$0")/runtest_lib.sh"
. vm/kernel.sh
. vm/initramfs.sh
echo "1..21"

# fake_image FILE RELEASE: the setup header fields vm/kernel.sh reads (HdrS
# at 0x202, the version string's offset - 0x200 at 0x20e), nothing else
fake_image() {
	head -c 4096 /dev/zero >"$1"
	printf 'HdrS' | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null	# 0x0100
	printf '%s (someone@somewhere) #1 SMP\000' "$2" | dd of="$1" bs=1 seek=768 conv=notrunc 2>/dev/null
}
fake_image "$T/bzImage" 6.9.0-test+
is "$(kernel_release "$T/bzImage")" 6.9.0-test+ "kernel_release reads the setup header's version string"
head -c 4096 /dev/zero >"$T/zero"
rc=0; kernel_release "$T/zero" >/dev/null || rc=$?
is "$rc" 1 "a file without the HdrS magic has no release"

# a module tree: 9p needs 9pnet, 9pnet_virtio needs 9pnet and virtio_ring (listed in any order)
m=$T/lib/modules/6.9.0-test+
mkdir -p "$m/kernel/fs/9p" "$m/kernel/net/9p" "$m/kernel/drivers/virtio"
cat >"$m/modules.dep" <<'DEP'
kernel/fs/9p/9p.ko.xz: kernel/net/9p/9pnet.ko.xz kernel/fs/netfs/netfs.ko.xz
kernel/net/9p/9pnet_virtio.ko.xz: kernel/drivers/virtio/virtio_ring.ko.xz kernel/net/9p/9pnet.ko.xz
kernel/net/9p/9pnet.ko.xz:
kernel/fs/netfs/netfs.ko.xz:
kernel/drivers/virtio/virtio_ring.ko.xz:
DEP
printf 'kernel/drivers/virtio/virtio_pci.ko\nkernel/drivers/virtio/virtio.ko\n' >"$m/modules.builtin"
order=$(module_closure "$m" virtio_pci 9pnet_virtio 9p | tr '\n' ' ')
is "$order" "kernel/drivers/virtio/virtio_ring.ko.xz kernel/net/9p/9pnet.ko.xz kernel/net/9p/9pnet_virtio.ko.xz kernel/fs/netfs/netfs.ko.xz kernel/fs/9p/9p.ko.xz " \
	"module_closure: each module after its dependencies, each once, built-in ones left out"
rc=0; module_closure "$m" virtiofs >/dev/null 2>"$T/e" || rc=$?
is "$rc:$(cat "$T/e")" "1:virtiofs" "module_closure names a driver that is neither a module nor built in"
is "$(module_state "$m" virtio_pci)" builtin "module_state: built in"
is "$(module_state "$m" 9pnet_virtio)" "module kernel/net/9p/9pnet_virtio.ko.xz" "module_state: a module (dashes and suffixes aside)"

# the driver check, from the modules or (a bare image) from a .config beside it
mkdir -p "$T/tree"
fake_image "$T/tree/bzImage" 6.9.0-none
printf 'CONFIG_VIRTIO_PCI=y\nCONFIG_NET_9P=y\nCONFIG_NET_9P_VIRTIO=y\nCONFIG_9P_FS=y\n# CONFIG_VIRTIO_FS is not set\n' >"$T/tree/.config"
rc=0; fs_supported "$T/tree/bzImage" 6.9.0-none 9p || rc=$?
is "$rc" 0 "fs_supported: 9p from the .config beside a bare image"
rc=0; fs_supported "$T/tree/bzImage" 6.9.0-none virtiofs || rc=$?
is "$rc" 1 "fs_supported: no virtiofs in that .config"
rm "$T/tree/.config"
rc=0; fs_supported "$T/tree/bzImage" 6.9.0-none 9p || rc=$?
is "$rc" 2 "fs_supported: a bare image with no .config cannot tell (2)"

# the initramfs: busybox, init, the modules decompressed in load order
if bb=$(static_busybox) && command -v cpio >/dev/null && command -v xz >/dev/null; then
	for f in kernel/fs/9p/9p kernel/net/9p/9pnet kernel/net/9p/9pnet_virtio kernel/drivers/virtio/virtio_ring; do
		printf 'module %s\n' "$f" >"$m/$f.ko"
		xz -f "$m/$f.ko"
	done
	mkdir -p "$m/kernel/fs/netfs" && printf 'module netfs\n' | xz >"$m/kernel/fs/netfs/netfs.ko.xz"
	printf 'exec true\n' >"$T/cmd"
	mkdir "$T/stage"
	rc=0; make_initramfs "$T/initrd.gz" "$T/stage" "$m" 9p "FS=9p" "$T/cmd" 2>"$T/e" || rc=$?
	is "$rc" 0 "make_initramfs succeeds"
	list=$(gzip -dc "$T/initrd.gz" | cpio -t --quiet 2>/dev/null | sort | tr '\n' ' ')
	like "$list" "bin/busybox .*etc/sb-vm/cmd etc/sb-vm/conf etc/sb-vm/modules init .*lib/modules/9p.ko" \
		"it holds busybox, init, the command, the configuration and the modules"
	mkdir "$T/x" && (cd "$T/x" && gzip -dc "$T/initrd.gz" | cpio -id --quiet 2>/dev/null)
	is "$(tr '\n' ' ' <"$T/x/etc/sb-vm/modules")" "virtio_ring.ko 9pnet.ko 9pnet_virtio.ko netfs.ko 9p.ko " "the load order"
	is "$(cat "$T/x/lib/modules/9pnet.ko")" "module kernel/net/9p/9pnet" "modules are decompressed"
else
	for i in 1 2 3 4; do echo "ok # skip no static busybox, cpio or xz (make deps installs busybox-static)"; tap_n=$((tap_n + 1)); done
fi

# exit 3 before any boot, naming the package; exit 2 for usage
rc=0; SB_QEMU=/nonexistent/qemu vm/boot.sh --kernel "$T/bzImage" --modules "$m" --check >/dev/null 2>"$T/e" || rc=$?
is "$rc" 3 "no qemu: exit 3"
like "$(cat "$T/e")" "install qemu-system-x86" "the message names the Debian package"
rc=0; SB_BUSYBOX=/nonexistent/busybox vm/boot.sh --kernel "$T/bzImage" --modules "$m" --check >/dev/null 2>"$T/e" || rc=$?
if command -v qemu-system-x86_64 >/dev/null; then
	is "$rc:$(grep -c busybox-static "$T/e")" "3:1" "no static busybox: exit 3 naming busybox-static"
else
	echo "ok # skip qemu-system-x86 is not installed"; tap_n=$((tap_n + 1))
fi
rc=0; vm/boot.sh --kernel "$T/zero" --check >/dev/null 2>"$T/e" || rc=$?
is "$rc" 2 "not a bzImage: exit 2"
# --check: the plan of a boot (vCPUs as host cores, -smp to match, at most the host's cores)
if command -v qemu-system-x86_64 >/dev/null && static_busybox >/dev/null; then
	cores=$(awk -F= '$1 == "cores" { print $2 }' <("$SB_BUILD/bin/sb-topology"))
	plan=$(vm/boot.sh --kernel "$T/tree/bzImage" --cpus 1 --mem 512 --accel tcg --check 2>&1)
	like "$plan" $'accel=tcg\ncpus=1\nmem_mib=512\nsmp=1,sockets=1,cores=1,threads=1' "--check: accel, vCPUs, memory, -smp"
	plan=$(vm/boot.sh --kernel "$T/tree/bzImage" --check 2>&1)
	like "$plan" "cpus=$cores"$'\n' "--check: as many vCPUs as host cores by default ($cores)"
	rc=0; vm/boot.sh --kernel "$T/tree/bzImage" --cpus $((cores + 1)) --check >/dev/null 2>&1 || rc=$?
	is "$rc" 2 "--cpus above the host's cores: exit 2"
else
	for i in 1 2 3; do echo "ok # skip qemu-system-x86 or busybox-static is not installed"; tap_n=$((tap_n + 1)); done
fi
rc=0; ./runtest.sh getppid1 --kernel "$T/nonexistent" --results "$T/r" >/dev/null 2>"$T/e" || rc=$?
is "$rc" 2 "runtest.sh --kernel with a missing image: exit 2 (bad input, as elsewhere)"
exit $((tap_failed > 0))
