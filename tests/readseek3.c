/* readseek3: lseek and read 4 KiB of one shared file, each task at its own page-aligned offset.
 * Stresses: per-file structures (mapping, i_pages) without sharing a page between tasks. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Same file seek+read to different offsets";

static char path[PATH_MAX];
static long pagesize;

void testcase_prepare(unsigned long nr_tasks)
{
	if ((pagesize = sysconf(_SC_PAGESIZE)) <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	sb_path(path, sizeof(path), "shared");
	/* One page per task, written (not a hole) so every read finds real data. */
	if (close(sb_create(path, 0, (off_t)pagesize * nr_tasks)) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN];
	off_t offset = (off_t)pagesize * nr;
	ssize_t r;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		sb_fatal("open %s", path);
	for (;;) {
		if (lseek(fd, offset, SEEK_SET) < 0)
			sb_fatal("lseek");
		if ((r = read(fd, buf, BUFLEN)) != BUFLEN)
			sb_io(r, BUFLEN, "read");
		sb_count(iterations);
	}
}
