/* lock1: each task write-locks and unlocks byte 0 of its own file with fcntl.
 * Stresses: POSIX record locks (F_SETLKW) on separate inodes: lock allocation, the per-inode lock list. */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate file write lock/unlock";

static void set_lock(int fd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	if (fcntl(fd, F_SETLKW, &fl) < 0)
		sb_fatal("fcntl(F_SETLKW, %s)", type == F_UNLCK ? "F_UNLCK" : "F_WRLCK");
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		set_lock(fd, F_WRLCK);
		set_lock(fd, F_UNLCK);
		/* will-it-scale counts the lock and the unlock: 2 per pair. */
		sb_count_n(iterations, 2);
	}
}
