/* writeseek1: lseek to 0 and write 4 KiB, each task on its own file; one count per seek+write.
 * Stresses: lseek and the buffered write path (i_rwsem, dirtying a page) per inode. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Separate file seek+write";

static void check_io(ssize_t r, size_t want, const char *what)
{
	if (r < 0)
		sb_fatal("%s", what);
	if ((size_t)r != want)
		sb_fatalx("%s: short transfer (%zd of %zu bytes)", what, r, want);
}

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN] = { 0 };
	char path[PATH_MAX];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr) >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("open %s", path);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		check_io(write(fd, buf, BUFLEN), BUFLEN, "write");
		sb_count(iterations);
	}
}
