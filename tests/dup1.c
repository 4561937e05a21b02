/* dup1: each task dups the descriptor of its own file and closes the copy.
 * Stresses: the file descriptor table (files_struct lock, shared by threads) and struct file refcounting. */
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file dup/close";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		int copy = dup(fd);

		if (copy < 0)
			sb_fatal("dup");
		if (close(copy) < 0)
			sb_fatal("close");
		sb_count(iterations);
	}
}
