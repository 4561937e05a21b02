#!/usr/bin/env bash
# vm/test-kernel.sh: the kernel image the VM selftests boot: SB_TEST_KERNEL, else the newest Debian cloud kernel in /boot, else any other not running.
set -eu

main() {
	local k host
	if [ -n "${SB_TEST_KERNEL-}" ]; then
		[ -r "$SB_TEST_KERNEL" ] || { echo "SB_TEST_KERNEL=$SB_TEST_KERNEL is not readable" >&2; exit 3; }
		printf '%s\n' "$SB_TEST_KERNEL"
		return 0
	fi
	host=$(uname -r)
	for k in $(ls -1v /boot/vmlinuz-*-cloud-* 2>/dev/null | tac) $(ls -1v /boot/vmlinuz-* 2>/dev/null | tac); do
		if [ -r "$k" ] && [ "$k" != "/boot/vmlinuz-$host" ]; then
			printf '%s\n' "$k"
			return 0
		fi
	done
	echo "no kernel image in /boot other than the running one's: try 'make test-kernel'" >&2
	exit 3
}

main "$@"
