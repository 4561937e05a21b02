/* pwrite1: pwrite of 4 KiB at offset 0, each task on its own file.
 * Stresses: the buffered write path (generic_perform_write, i_rwsem, dirtying a page) per inode. */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Separate file pwrite";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN] = { 0 }, path[PATH_MAX];
	ssize_t r;
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		if ((r = pwrite(fd, buf, BUFLEN, 0)) != BUFLEN)
			sb_io(r, BUFLEN, "pwrite");
		sb_count(iterations);
	}
}
