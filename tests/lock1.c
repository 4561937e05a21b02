/* lock1: each task write-locks and unlocks byte 0 of its own file with fcntl.
 * Stresses: POSIX record locks (F_SETLKW) on separate inodes: lock allocation, the per-inode lock list. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file write lock/unlock";

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

static void set_lock(int fd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	if (fcntl(fd, F_SETLKW, &fl) < 0)
		sb_fatal("fcntl(F_SETLKW, %s)", type == F_UNLCK ? "F_UNLCK" : "F_WRLCK");
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
		set_lock(fd, F_WRLCK);
		set_lock(fd, F_UNLCK);
		/* will-it-scale counts the lock and the unlock: 2 per pair. */
		sb_count_n(iterations, 2);
	}
}
