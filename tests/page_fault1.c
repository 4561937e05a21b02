/* page_fault1: each task maps 128 MB of anonymous memory, writes to every page, unmaps it.
 * Stresses: anonymous page faults: page allocation and zeroing, page tables, memcg charge; the unmap. */
#include <sys/mman.h>
#include <unistd.h>

#include "testcase.h"

#define MAP_SIZE (128UL << 20)

/* Counted as will-it-scale does: one per page touched. With transparent huge
 * pages on for this mapping, most touches do not fault. */
char *testcase_description = "Anonymous memory page fault";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long page = sysconf(_SC_PAGESIZE);

	(void)nr;
	if (page <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	for (;;) {
		volatile char *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED)
			sb_fatal("mmap of 128 MB anonymous memory");
		for (unsigned long off = 0; off < MAP_SIZE; off += (unsigned long)page) {
			c[off] = 0;
			sb_count(iterations);
		}
		if (munmap((void *)c, MAP_SIZE) < 0)
			sb_fatal("munmap");
	}
}
