/* open2: each task opens and closes its own file, in a directory of its own.
 * Stresses: path lookup and struct file allocation without a shared parent directory dentry. */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file open/close in different directories";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int fd;

	sb_path(dir, sizeof(dir), "task%lu", nr);
	sb_path(path, sizeof(path), "task%lu/file", nr);
	if (mkdir(dir, 0700) < 0)
		sb_fatal("mkdir %s", dir);
	if (close(sb_create(path, 0, 0)) < 0)
		sb_fatal("close %s", path);
	for (;;) {
		if ((fd = open(path, O_RDWR)) < 0)
			sb_fatal("open %s", path);
		if (close(fd) < 0)
			sb_fatal("close %s", path);
		sb_count(iterations);
	}
}
