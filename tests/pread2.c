/* pread2: pread of 4 KiB at offset 0 of one file shared by all tasks, each with its own descriptor.
 * Stresses: page cache lookup and page refcounting on the same page from every CPU. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Same file pread to same offset";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sb_path(path, sizeof(path), "shared");
	if (close(sb_create(path, 0, BUFLEN)) < 0)
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
		if ((r = pread(fd, buf, BUFLEN, 0)) != BUFLEN)
			sb_io(r, BUFLEN, "pread");
		sb_count(iterations);
	}
}
