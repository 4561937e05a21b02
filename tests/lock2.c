/* lock2: every task write-locks and unlocks byte 0 of one shared file with fcntl.
 * Stresses: POSIX record locks on one inode (flc_lock, the file's lock list). */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

/* As in will-it-scale, threads share one lock owner (the process), so in
 * threads mode the locks never block; only the kernel's lock list is shared. */
char *testcase_description = "Same file write lock/unlock";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sb_path(path, sizeof(path), "lock2");
	if (close(sb_create(path, 0, 0)) < 0)
		sb_fatal("close %s", path);
}

static void set_lock(int fd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	if (fcntl(fd, F_SETLKW, &fl) < 0)
		sb_fatal("fcntl(F_SETLKW, %s)", type == F_UNLCK ? "F_UNLCK" : "F_WRLCK");
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	int fd = open(path, O_RDWR);

	(void)nr;
	if (fd < 0)
		sb_fatal("open %s", path);
	for (;;) {
		set_lock(fd, F_WRLCK);
		set_lock(fd, F_UNLCK);
		/* will-it-scale counts the lock and the unlock: 2 per pair. */
		sb_count_n(iterations, 2);
	}
}
