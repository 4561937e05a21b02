/* open3: every task opens and closes one shared file.
 * Stresses: path lookup and open/close on one dentry and inode shared by all tasks (refcounts, lockref). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Same file open/close";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	int fd, n = snprintf(path, sizeof(path), "%s/open3", sb_tmpdir());

	(void)nr_tasks;
	if (n < 0 || (size_t)n >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
	if (close(fd) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		int fd = open(path, O_RDWR);

		if (fd < 0)
			sb_fatal("open %s", path);
		if (close(fd) < 0)
			sb_fatal("close %s", path);
		sb_count(iterations);
	}
}
