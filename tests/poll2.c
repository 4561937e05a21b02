/* poll2: each task polls 128 descriptors (128 opens of its own file) for writing, without waiting.
 * Stresses: the poll syscall with 128 entries: copying the array in and out, fdget and the poll mask per fd. */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/resource.h>
#include <unistd.h>

#include "testcase.h"

#define NR_FDS 128

char *testcase_description = "poll of 128 fds";

void testcase_prepare(unsigned long nr_tasks)
{
	/* Threads share one fd table; leave room for the runner's own descriptors. */
	rlim_t need = (rlim_t)NR_FDS * (sb_threads_mode() ? nr_tasks : 1) + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		sb_fatal("getrlimit(RLIMIT_NOFILE)");
	if (rl.rlim_cur < need) {
		rl.rlim_cur = need;
		if (rl.rlim_max < need)
			rl.rlim_max = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			sb_fatal("raising RLIMIT_NOFILE to %llu for %d fds per task",
				 (unsigned long long)need, NR_FDS);
	}
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	struct pollfd pfd[NR_FDS];
	int ready;

	sb_path(path, sizeof(path), "task%lu", nr);
	/* 128 opens of one file: 128 struct files as with 128 files (what poll
	 * sees), without 128 inode creations, which take 1 ms each on some disks. */
	for (int i = 0; i < NR_FDS; i++) {
		if ((pfd[i].fd = i ? open(path, O_RDWR) : sb_create(path, 0, 0)) < 0)
			sb_fatal("open %s (fd %d of %d)", path, i + 1, NR_FDS);
		pfd[i].events = POLLOUT;
	}
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		/* Regular files are always writable, so every fd is ready. */
		if ((ready = poll(pfd, NR_FDS, 0)) < 0)
			sb_fatal("poll");
		if (ready != NR_FDS)
			sb_fatalx("poll reported %d ready fds, expected %d", ready, NR_FDS);
		sb_count(iterations);
	}
}
