/* unlink2: create, close and unlink a file, each task in its own directory.
 * Stresses: dentry/inode allocation and teardown without a shared parent directory lock. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file open/close/unlink in different directories";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int fd;

	sb_path(dir, sizeof(dir), "dir%lu", nr);
	sb_path(path, sizeof(path), "dir%lu/file", nr);
	if (mkdir(dir, 0700) < 0)
		sb_fatal("mkdir %s", dir);
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
