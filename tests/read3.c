/* read3: sequential page-sized O_DIRECT reads through a 1 MB file, each task on its own file.
 * Stresses: the direct I/O read path (iomap/block layer, no page cache), nothing shared. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testcase.h"

#define FILESIZE (1024 * 1024)

char *testcase_description = "Separate file O_DIRECT read";
/* A directory whose filesystem refuses O_DIRECT is refused before anything runs. */
SB_TMPDIR_O_DIRECT;

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long pg = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX];
	void *buf;
	ssize_t r;
	int fd;

	/* O_DIRECT needs aligned buffers; a page suits every logical block size. */
	if (pg <= 0 || (errno = posix_memalign(&buf, pg, pg)) != 0)
		sb_fatal("page-aligned buffer");
	sb_path(path, sizeof(path), "task%lu", nr);
	/* Written with O_DIRECT too: the reads find the data on the device, not in the page cache.
	 * sb_create names the filesystem if it refuses O_DIRECT. */
	fd = sb_create(path, O_DIRECT, FILESIZE);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, pg)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0 && r != pg)
			sb_io(r, pg, "O_DIRECT read");
		sb_count(iterations);
	}
}
