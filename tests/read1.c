/* read1: sequential 4 KiB reads through a 1 MB file, each task on its own file, rewinding at the end.
 * Stresses: the page cache read path and the file position, per file (nothing shared). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

char *testcase_description = "Separate file read";

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
	ssize_t r;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr) >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("open %s", path);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (off_t off = 0; off < FILESIZE; off += BUFLEN)
		check_io(write(fd, buf, BUFLEN), BUFLEN, "write");
	if (lseek(fd, 0, SEEK_SET) < 0)
		sb_fatal("lseek");
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, BUFLEN)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0)
			check_io(r, BUFLEN, "read");
		sb_count(iterations);
	}
}
