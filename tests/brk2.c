/* brk2: brk increase/decrease of one page above a page each task keeps for itself (meant as processes).
 * Stresses: the brk system call on a break no other task moves: heap VMA grow and trim under mmap_lock. */
#include <unistd.h>

#include "testcase.h"

/*
 * "Not shared" needs a break of the task's own, and a process has exactly one
 * break: as threads every task moves the same one and can keep nothing of its
 * own, which makes this brk1 with an offset. will-it-scale runs it both ways,
 * so it does here, and the threads binary says what it measures.
 * Each task first takes one page with sbrk and keeps it, then moves the break
 * one page up and down above it, so the break never returns to the heap end
 * inherited from the runner (brk1 does).
 */
SB_MEANT(SB_PROCESSES, "all threads move the process's one break, as brk1 does");

char *testcase_description = "brk unshared increase/decrease of one page";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long page = sysconf(_SC_PAGESIZE);
	char *own, *base;

	(void)nr;
	if (page <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	if ((own = sbrk(page)) == (void *)-1)
		sb_fatal("sbrk(%ld)", page);
	base = own + page;
	for (;;) {
		if (brk(base + page) < 0)
			sb_fatal("brk up one page");
		if (brk(base) < 0)
			sb_fatal("brk down one page");
		/* Counted as will-it-scale does: 2 per increase/decrease pair. */
		sb_count_n(iterations, 2);
	}
}
