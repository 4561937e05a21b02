/* read4: sequential page-sized O_DIRECT reads through one 1 MB file shared by all tasks.
 * Stresses: the direct I/O read path on one inode (i_rwsem shared, inode dio count, block layer). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testcase.h"

#define FILESIZE (1024 * 1024)

static char path[PATH_MAX];
static long pg;		/* read size and buffer alignment: a page suits any block size */

char *testcase_description = "Same file O_DIRECT read";
/* A directory whose filesystem refuses O_DIRECT is refused before anything runs. */
SB_TMPDIR_O_DIRECT;

void testcase_prepare(unsigned long nr_tasks)
{
	int fd;

	(void)nr_tasks;
	if ((pg = sysconf(_SC_PAGESIZE)) <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	sb_path(path, sizeof(path), "shared");
	fd = sb_create(path, 0, FILESIZE);
	if (fsync(fd) < 0 || close(fd) < 0)
		sb_fatal("writing %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	void *buf;
	ssize_t r;
	int fd;

	(void)nr;
	if ((errno = posix_memalign(&buf, pg, pg)) != 0)
		sb_fatal("posix_memalign");
	if ((fd = open(path, O_RDONLY | O_DIRECT)) < 0) {
		if (errno == EINVAL)
			sb_fatalx("O_DIRECT not supported on %s at %s", sb_fs_name(path), sb_tmpdir());
		sb_fatal("open %s with O_DIRECT", path);
	}
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, pg)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0 && r != pg)
			sb_io(r, pg, "O_DIRECT read");
		sb_count(iterations);
	}
}
