/* unlink1: create, close and unlink a file, each task its own name in one shared directory.
 * Stresses: dentry/inode allocation and teardown and the directory's i_rwsem, shared by all tasks. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file open/close/unlink";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	for (;;) {
		if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
			sb_fatal("open %s", path);
		if (close(fd) < 0)
			sb_fatal("close %s", path);
		if (unlink(path) < 0)
			sb_fatal("unlink %s", path);
		sb_count(iterations);
	}
}
