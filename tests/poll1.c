/* poll1: each task polls one descriptor (its own file) for writing, without waiting.
 * Stresses: the poll syscall path: copying the pollfd array, fdget and the file's poll mask, per fd. */
#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "poll of 1 fd";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	struct pollfd pfd = { .events = POLLOUT };
	int ready;

	sb_path(path, sizeof(path), "task%lu", nr);
	pfd.fd = sb_create(path, 0, 0);
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
