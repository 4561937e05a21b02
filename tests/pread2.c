/* pread2: pread of 4 KiB at offset 0 of one file shared by all tasks, each with its own descriptor.
 * Stresses: page cache lookup and page refcounting on the same page from every CPU. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Same file pread";

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
	char buf[BUFLEN];
	int fd;

	(void)nr;
	if ((fd = open(path, O_RDONLY)) < 0)
		sb_fatal("open %s", path);
	for (;;) {
		check_io(pread(fd, buf, BUFLEN, 0), BUFLEN, "pread");
		sb_count(iterations);
	}
}
