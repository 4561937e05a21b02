/* readseek1: lseek to 0 and read 4 KiB, each task on its own file; one count per seek+read.
 * Stresses: lseek and the page cache read path with nothing shared between tasks. */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Separate file seek+read";

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
		if (lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if ((r = read(fd, buf, BUFLEN)) != BUFLEN)
			sb_io(r, BUFLEN, "read");
		sb_count(iterations);
	}
}
