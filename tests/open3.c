/* open3: every task opens and closes one shared file.
 * Stresses: path lookup and open/close on one dentry and inode shared by all tasks (refcounts, lockref). */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Same file open/close";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sb_path(path, sizeof(path), "open3");
	if (close(sb_create(path, 0, 0)) < 0)
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
