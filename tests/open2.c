/* open2: each task opens and closes its own file, in a directory of its own.
 * Stresses: path lookup and struct file allocation without a shared parent directory dentry. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file open/close in different directories";

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	int n = snprintf(dir, sizeof(dir), "%s/task%lu", sb_tmpdir(), nr);
	int fd;

	if (n < 0 || (size_t)n >= sizeof(dir))
		sb_fatalx("directory name too long under %s", sb_tmpdir());
	if (mkdir(dir, 0700) < 0)
		sb_fatal("mkdir %s", dir);
	snprintf(path, sizeof(path), "%s/file", dir);
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
	if (close(fd) < 0)
		sb_fatal("close %s", path);
	for (;;) {
		if ((fd = open(path, O_RDWR)) < 0)
			sb_fatal("open %s", path);
		if (close(fd) < 0)
			sb_fatal("close %s", path);
		sb_count(iterations);
	}
}
