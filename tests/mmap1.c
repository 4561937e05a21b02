/* mmap1: each task maps 128 MB of anonymous memory and unmaps it, touching nothing.
 * Stresses: mmap/munmap: VMA allocation, the VMA tree and mmap_lock (one per process, shared by threads). */
#include <sys/mman.h>

#include "testcase.h"

#define MAP_SIZE (128UL << 20)

char *testcase_description = "Anonymous memory mmap/munmap of 128MB";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		void *p = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			sb_fatal("mmap of 128 MB anonymous memory");
		if (munmap(p, MAP_SIZE) < 0)
			sb_fatal("munmap");
		sb_count(iterations);
	}
}
