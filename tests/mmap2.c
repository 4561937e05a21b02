/* mmap2: each task maps 128 MB of its own file (private mapping) and unmaps it, touching nothing.
 * Stresses: mmap/munmap of a file: VMA setup, the file's i_mmap tree and lock, mmap_lock. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testcase.h"

#define MAP_SIZE (128L << 20)

char *testcase_description = "Separate file mmap/munmap of 128 MB";

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr);
	int fd;

	if (n < 0 || (size_t)n >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("create %s", path);
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
