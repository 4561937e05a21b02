/* fallocate2: each task fallocates its own file in 8 KiB steps up to 1 MiB, then truncates it.
 * Stresses: the filesystem's fallocate (block allocation, extent tree, journal) and truncate. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define FILE_SIZE (1L << 20)
#define STEP (FILE_SIZE / 128)

/* The filesystem under test is the one holding --param dir ($TMPDIR or /tmp by default). */
char *testcase_description = "Separate file fallocate";

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
		/* Some filesystems give up with EINTR when a signal is pending: retry the step. */
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
