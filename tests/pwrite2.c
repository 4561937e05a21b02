/* pwrite2: pwrite of 4 KiB at offset 0 of one file shared by all tasks, each with its own descriptor.
 * Stresses: the one inode's i_rwsem and the same page cache page, written from every CPU. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Same file pwrite";

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
	check_io(write(fd, buf, BUFLEN), BUFLEN, "write");
	if (close(fd) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN] = { 0 };
	int fd;

	(void)nr;
	if ((fd = open(path, O_WRONLY)) < 0)
		sb_fatal("open %s", path);
	for (;;) {
		check_io(pwrite(fd, buf, BUFLEN, 0), BUFLEN, "pwrite");
		sb_count(iterations);
	}
}
