/* pread1: pread of 4 KiB at offset 0, each task on its own file.
 * Stresses: the page cache read path (filemap_read) with nothing shared between tasks. */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Separate file pread";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN], path[PATH_MAX];
	ssize_t r;
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, BUFLEN);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		if ((r = pread(fd, buf, BUFLEN, 0)) != BUFLEN)
			sb_io(r, BUFLEN, "pread");
		sb_count(iterations);
	}
}
