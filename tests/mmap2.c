/* mmap2: each task maps 128 MB of its own file (private mapping) and unmaps it, touching nothing.
 * Stresses: mmap/munmap of a file: VMA setup, the file's i_mmap tree and lock, mmap_lock. */
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testcase.h"

#define MAP_SIZE (128L << 20)

char *testcase_description = "Separate file mmap/munmap of 128MB";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (ftruncate(fd, MAP_SIZE) < 0)
		sb_fatal("ftruncate %s to 128 MB", path);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		void *p = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED)
			sb_fatal("mmap of 128 MB of %s", path);
		if (munmap(p, MAP_SIZE) < 0)
			sb_fatal("munmap");
		sb_count(iterations);
	}
}
