/* brk1: brk increase/decrease of one page; as threads all tasks move the process's one break.
 * Stresses: the brk system call: growing and trimming the heap VMA under mmap_lock. */
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "brk increase/decrease of one page";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long page = sysconf(_SC_PAGESIZE);
	char *base = sbrk(0);

	(void)nr;
	if (page <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	if (base == (void *)-1)
		sb_fatal("sbrk(0)");
	/*
	 * The break never goes below where this task found it, so the malloc
	 * heap under it stays mapped; nothing in a task process grows that heap
	 * while the tasks run (thread arenas come from mmap).
	 */
	for (;;) {
		if (brk(base + page) < 0)
			sb_fatal("brk up one page");
		if (brk(base) < 0)
			sb_fatal("brk down one page");
		/* will-it-scale counts the increase and the decrease: 2 per pair. */
		sb_count_n(iterations, 2);
	}
}
