/* page_fault2: each task maps 128 MB of its own file privately, writes to every page, unmaps it.
 * Stresses: private file write faults: page cache lookup, copy-on-write into anonymous pages, rmap; the unmap. */
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testcase.h"

#define MAP_SIZE (128L << 20)

/* Counted as will-it-scale does: one per page touched. */
char *testcase_description = "Separate file private mapping page fault";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	if (page <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (ftruncate(fd, MAP_SIZE) < 0)
		sb_fatal("ftruncate %s to 128 MB", path);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		volatile char *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

		if (c == MAP_FAILED)
			sb_fatal("mmap of 128 MB of %s", path);
		for (long off = 0; off < MAP_SIZE; off += page) {
			c[off] = 0;
			sb_count(iterations);
		}
		if (munmap((void *)c, MAP_SIZE) < 0)
			sb_fatal("munmap");
	}
}
