/* open1: each task opens and closes its own file; all the files are in one directory.
 * Stresses: path lookup (dcache, RCU walk), struct file allocation and release, the fd table. */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file open/close";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
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
