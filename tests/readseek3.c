/* readseek3: lseek and read 4 KiB of one shared file, each task at its own page-aligned offset.
 * Stresses: per-file structures (mapping, i_pages) without sharing a page between tasks. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "testcase.h"

#define BUFLEN 4096

char *testcase_description = "Same file seek+read to different offsets";

static char path[PATH_MAX];
static long pagesize;

static void check_io(ssize_t r, size_t want, const char *what)
{
	if (r < 0)
		sb_fatal("%s", what);
	if ((size_t)r != want)
		sb_fatalx("%s: short transfer (%zd of %zu bytes)", what, r, want);
}

void testcase_prepare(unsigned long nr_tasks)
{
	char buf[BUFLEN] = { 0 };
	int fd;

	if ((pagesize = sysconf(_SC_PAGESIZE)) <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	if ((size_t)snprintf(path, sizeof(path), "%s/shared", sb_tmpdir()) >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("open %s", path);
	/* One page per task, written (not a hole) so every read finds real data. */
	for (off_t off = 0; off < (off_t)(pagesize * nr_tasks); off += BUFLEN)
		check_io(pwrite(fd, buf, BUFLEN, off), BUFLEN, "pwrite");
	if (close(fd) < 0)
		sb_fatal("close %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char buf[BUFLEN];
	off_t offset = (off_t)pagesize * nr;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		sb_fatal("open %s", path);
	for (;;) {
		if (lseek(fd, offset, SEEK_SET) < 0)
			sb_fatal("lseek");
		check_io(read(fd, buf, BUFLEN), BUFLEN, "read");
		sb_count(iterations);
	}
}
