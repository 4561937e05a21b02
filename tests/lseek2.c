/* lseek2: every task seeks to the start of one shared 4 KiB file, through its own open file.
 * Stresses: the lseek syscall path on one inode shared by all tasks (each with its own struct file). */
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define FILE_SIZE 4096

char *testcase_description = "Same file lseek";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sb_path(path, sizeof(path), "lseek2");
	if (close(sb_create(path, 0, FILE_SIZE)) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	int fd = open(path, O_RDWR);

	(void)nr;
	if (fd < 0)
		sb_fatal("open %s", path);
	for (;;) {
		if (lseek(fd, 0, SEEK_SET) != 0)
			sb_fatal("lseek to 0");
		sb_count(iterations);
	}
}
