/* poll1: each task polls one descriptor (its own file) for writing, without waiting.
 * Stresses: the poll syscall path: copying the pollfd array, fdget and the file's poll mask, per fd. */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "poll of 1 fd";

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr);
	struct pollfd pfd = { .events = POLLOUT };
	int ready;

	if (n < 0 || (size_t)n >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((pfd.fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		/* A regular file is always writable, so exactly one fd is ready. */
		if ((ready = poll(&pfd, 1, 0)) < 0)
			sb_fatal("poll");
		if (ready != 1)
			sb_fatalx("poll reported %d ready fds, expected 1", ready);
		sb_count(iterations);
	}
}
