/* read1: sequential 4 KiB reads through a 1 MB file, each task on its own file, rewinding at the end.
 * Stresses: the page cache read path and the file position, per file (nothing shared). */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

char *testcase_description = "Separate file read";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN], path[PATH_MAX];
	ssize_t r;
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, FILESIZE);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	if (lseek(fd, 0, SEEK_SET) < 0)
		sb_fatal("lseek");
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, BUFLEN)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0 && r != BUFLEN)
			sb_io(r, BUFLEN, "read");
		sb_count(iterations);
	}
}
