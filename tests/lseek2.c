/* lseek2: every task seeks to the start of one shared 4 KiB file, through its own open file.
 * Stresses: the lseek syscall path on one inode shared by all tasks (each with its own struct file). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "testcase.h"

#define FILE_SIZE 4096

char *testcase_description = "Same file lseek";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	char buf[FILE_SIZE];
	int fd, n = snprintf(path, sizeof(path), "%s/lseek2", sb_tmpdir());

	(void)nr_tasks;
	if (n < 0 || (size_t)n >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
	memset(buf, 0, sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		sb_fatal("write %d bytes to %s", FILE_SIZE, path);
	if (close(fd) < 0)
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
