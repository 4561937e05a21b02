/* pwrite3: pwrite of 4 KiB to one shared file, each task at its own page-aligned offset.
 * Stresses: the one inode's i_rwsem (writers serialise) without sharing a page between tasks. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Same file pwrite to different offsets";

static char path[PATH_MAX];
static long pagesize;

void testcase_prepare(unsigned long nr_tasks)
{
	if ((pagesize = sysconf(_SC_PAGESIZE)) <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	sb_path(path, sizeof(path), "shared");
	/* One page per task, written (not a hole) so no write extends the file. */
	if (close(sb_create(path, 0, (off_t)pagesize * nr_tasks)) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN] = { 0 };
	off_t offset = (off_t)pagesize * nr;
	ssize_t r;
	int fd;

	if ((fd = open(path, O_WRONLY)) < 0)
		sb_fatal("open %s", path);
	for (;;) {
		if ((r = pwrite(fd, buf, BUFLEN, offset)) != BUFLEN)
			sb_io(r, BUFLEN, "pwrite");
		sb_count(iterations);
	}
}
