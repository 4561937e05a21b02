/* read2: sequential 4 KiB reads through one 1 MB file shared by all tasks, each with its own descriptor.
 * Stresses: page cache lookups and page refcounts on the same pages from every CPU. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

char *testcase_description = "Same file read";

static char path[PATH_MAX];

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sb_path(path, sizeof(path), "shared");
	if (close(sb_create(path, 0, FILESIZE)) < 0)
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
		if (r != 0 && r != BUFLEN)
			sb_io(r, BUFLEN, "read");
		sb_count(iterations);
	}
}
