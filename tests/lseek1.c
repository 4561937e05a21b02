/* lseek1: each task seeks to the start of its own 4 KiB file.
 * Stresses: the lseek syscall path: fdget_pos, generic_file_llseek and the file's f_pos. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "testcase.h"

#define FILE_SIZE 4096

char *testcase_description = "Separate file lseek";

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX], buf[FILE_SIZE];
	int n = snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr);
	int fd;

	if (n < 0 || (size_t)n >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	memset(buf, 0, sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		sb_fatal("write %d bytes to %s", FILE_SIZE, path);
	for (;;) {
		if (lseek(fd, 0, SEEK_SET) != 0)
			sb_fatal("lseek to 0");
		sb_count(iterations);
	}
}
