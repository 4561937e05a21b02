/* The tlb_flush testcases' shared loop: a partner thread keeps the mapping in its TLB on another CPU.
 * Include it first, after #define _GNU_SOURCE (sched_getcpu, CPU_CLR). */
#ifndef TESTS_TLB_FLUSH_H
#define TESTS_TLB_FLUSH_H

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testcase.h"

/*
 * A shootdown needs a second CPU in this mm, and a partner process would have
 * its own mm: as processes (will-it-scale runs these both ways) the loop runs
 * without a partner and measures the write fault and MADV_DONTNEED alone.
 */
SB_MEANT(SB_THREADS, "each process has its own mm, so no TLB shootdown IPI is sent; "
	 "it measures the page fault and MADV_DONTNEED alone");

struct tlb_partner {
	char *map;		/* the task's current mapping; NULL while it goes away */
	unsigned long passes;	/* the partner's loop count, for the handshake before munmap */
} __attribute__((aligned(128)));	/* off the task's stack lines: passes changes nonstop */

/* Reads the mapping's first page nonstop, on any of the process's CPUs but the task's if it can. */
static void *tlb_partner(void *arg)
{
	struct tlb_partner *p = arg;
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

/*
 * Forever: map `size` bytes (fd -1: anonymous), write each page, drop it with
 * MADV_DONTNEED (the shootdown) and check it reads back as `after`, counting
 * one per page as will-it-scale does; then unmap.
 */
static void tlb_flush_loop(unsigned long long *iterations, int fd, size_t size, int flags,
			   char after, const char *lost)
{
	struct tlb_partner p = { NULL, 0 };
	unsigned long pg = getpagesize(), seen;
	int partner = sb_threads_mode();
	char *map;

	if (partner)
		new_task(tlb_partner, &p);
	for (;;) {
		if ((map = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0)) == MAP_FAILED)
			sb_fatal("mmap");
		__atomic_store_n(&p.map, map, __ATOMIC_SEQ_CST);
		for (unsigned long off = 0; off < size; off += pg) {
			map[off] = 1;
			if (madvise(map + off, pg, MADV_DONTNEED) < 0)
				sb_fatal("madvise(MADV_DONTNEED)");
			if (((volatile char *)map)[off] != after)
				sb_fatalx("%s", lost);
			sb_count(iterations);
		}
		/* Unmap only once the partner's pass in flight, which may hold an old pointer, is over. */
		__atomic_store_n(&p.map, NULL, __ATOMIC_SEQ_CST);
		for (seen = __atomic_load_n(&p.passes, __ATOMIC_SEQ_CST);
		     partner && __atomic_load_n(&p.passes, __ATOMIC_SEQ_CST) == seen;)
			sched_yield();
		if (munmap(map, size) < 0)
			sb_fatal("munmap");
	}
}

#endif
