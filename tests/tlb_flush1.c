/* tlb_flush1: write, then MADV_DONTNEED, each page of a 128 MB private file mapping (threads only).
 * Stresses: TLB shootdown IPIs (flush_tlb_mm_range) to the partner's CPU; one count per page. */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testcase.h"

#define FILESIZE (128UL * 1024 * 1024)

char *testcase_description = "TLB flush of separated file private mapping";
SB_MODES(SB_THREADS);	/* a shootdown needs a second CPU in this mm; a partner process has its own */

struct partner {
	char *map;		/* the task's current mapping; NULL while it goes away */
	unsigned long passes;	/* the partner's loop count, for the handshake before munmap */
} __attribute__((aligned(128)));	/* off the task's stack lines: passes changes nonstop */

/* Reads the mapping's first page nonstop, on any of the process's CPUs but the task's if it can. */
static void *partner(void *arg)
{
	struct partner *p = arg;
	cpu_set_t cpus;
	char *map;

	if (sched_getaffinity(getpid(), sizeof(cpus), &cpus) < 0)
		sb_fatal("sched_getaffinity");
	if (CPU_COUNT(&cpus) > 1)
		CPU_CLR(sched_getcpu(), &cpus);	/* it still runs where the task is pinned */
	if (sched_setaffinity(0, sizeof(cpus), &cpus) < 0)
		sb_fatal("sched_setaffinity");
	for (;;) {
		if ((map = __atomic_load_n(&p->map, __ATOMIC_SEQ_CST)))
			(void)*(volatile char *)map;
		__atomic_add_fetch(&p->passes, 1, __ATOMIC_SEQ_CST);
	}
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct partner p = { NULL, 0 };
	unsigned long pg = getpagesize(), seen;
	char path[PATH_MAX], *map;
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (ftruncate(fd, FILESIZE) < 0)
		sb_fatal("ftruncate %s to 128 MB", path);
	new_task(partner, &p);
	for (;;) {
		if ((map = mmap(NULL, FILESIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
			sb_fatal("mmap");
		__atomic_store_n(&p.map, map, __ATOMIC_SEQ_CST);
		for (unsigned long off = 0; off < FILESIZE; off += pg) {
			map[off] = 1;
			if (madvise(map + off, pg, MADV_DONTNEED) < 0)
				sb_fatal("madvise(MADV_DONTNEED)");
			if (((volatile char *)map)[off] != 0)
				sb_fatalx("MADV_DONTNEED did not drop the private copy of a page");
			sb_count(iterations);
		}
		/* Unmap only once the partner's pass in flight, which may hold an old pointer, is over. */
		__atomic_store_n(&p.map, NULL, __ATOMIC_SEQ_CST);
		for (seen = __atomic_load_n(&p.passes, __ATOMIC_SEQ_CST);
		     __atomic_load_n(&p.passes, __ATOMIC_SEQ_CST) == seen;)
			sched_yield();
		if (munmap(map, FILESIZE) < 0)
			sb_fatal("munmap");
	}
}
