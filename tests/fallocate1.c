/* fallocate1: each task fallocates its own tmpfs file in 8 KiB steps up to 1 MiB, then truncates it.
 * Stresses: shmem_fallocate: allocating and charging pages into a tmpfs file, and truncating them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "testcase.h"

#define FILE_SIZE (1L << 20)
#define STEP (FILE_SIZE / 128)

/* The name means tmpfs, so results stay comparable: the directory defaults to /dev/shm,
 * --param dir or $SCALEBENCH_TMPDIR may choose another tmpfs, any other filesystem is
 * refused (fallocate2 is this test on whatever filesystem its directory is on). */
char *testcase_description = "Separate file fallocate against tmpfs";
SB_TMPDIR_DEFAULT("/dev/shm");
/* Checked before anything runs (and by --check): any other filesystem is exit 2. */
SB_TMPDIR_FS("tmpfs");

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	off_t at = 0;
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		/* shmem_fallocate gives up with EINTR when a signal is pending: retry the step. */
		if (fallocate(fd, 0, at, STEP) < 0) {
			if (errno == EINTR)
				continue;
			sb_fatal("fallocate %ld bytes at %lld in %s", STEP, (long long)at, sb_tmpdir());
		}
		if ((at += STEP) >= FILE_SIZE) {
			if (ftruncate(fd, 0) < 0)
				sb_fatal("ftruncate %s", path);
			at = 0;
		}
		sb_count(iterations);
	}
}
