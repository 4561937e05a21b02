/* dup1: each task dups the descriptor of its own file and closes the copy.
 * Stresses: the file descriptor table (files_struct lock, shared by threads) and struct file refcounting. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file dup/close";

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr);
	int fd;

	if (n < 0 || (size_t)n >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
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
