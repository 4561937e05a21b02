/* write1: sequential 4 KiB writes into each task's own file, rewinding after 1 MB.
 * Stresses: the buffered write path (i_rwsem, page cache, dirty accounting) per inode. */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

char *testcase_description = "Separate file write";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN] = { 0 }, path[PATH_MAX];
	ssize_t r;
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (off_t off = 0;; off += BUFLEN) {
		/* The file stays 1 MB: rewrite it from the start rather than grow it. */
		if (off == FILESIZE) {
			if (lseek(fd, 0, SEEK_SET) < 0)
				sb_fatal("lseek");
			off = 0;
		}
		if ((r = write(fd, buf, BUFLEN)) != BUFLEN)
			sb_io(r, BUFLEN, "write");
		sb_count(iterations);
	}
}
