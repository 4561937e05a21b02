/* writeseek1: lseek to 0 and write 4 KiB, each task on its own file; one count per seek+write.
 * Stresses: lseek and the buffered write path (i_rwsem, dirtying a page) per inode. */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Separate file seek+write";

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
		if (lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if ((r = write(fd, buf, BUFLEN)) != BUFLEN)
			sb_io(r, BUFLEN, "write");
		sb_count(iterations);
	}
}
