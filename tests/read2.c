/* read2: sequential 4 KiB reads through one 1 MB file shared by all tasks, each with its own descriptor.
 * Stresses: page cache lookups and page refcounts on the same pages from every CPU. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

char *testcase_description = "Same file read";

static char path[PATH_MAX];

static void check_io(ssize_t r, size_t want, const char *what)
{
	if (r < 0)
		sb_fatal("%s", what);
	if ((size_t)r != want)
		sb_fatalx("%s: short transfer (%zd of %zu bytes)", what, r, want);
}

void testcase_prepare(unsigned long nr_tasks)
{
	char buf[BUFLEN] = { 0 };
	int fd;

	(void)nr_tasks;
	if ((size_t)snprintf(path, sizeof(path), "%s/shared", sb_tmpdir()) >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("open %s", path);
	for (off_t off = 0; off < FILESIZE; off += BUFLEN)
		check_io(write(fd, buf, BUFLEN), BUFLEN, "write");
	if (close(fd) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN];
	ssize_t r;
	int fd;

	(void)nr;
	if ((fd = open(path, O_RDONLY)) < 0)
		sb_fatal("open %s", path);
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, BUFLEN)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0)
			check_io(r, BUFLEN, "read");
		sb_count(iterations);
	}
}
