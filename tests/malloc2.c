/* malloc2: each task mallocs and frees 1 kB.
 * Stresses: glibc's small-block path (the per-thread tcache); normally no system call at all. */
#include <stdlib.h>

#include "testcase.h"

#define SIZE (1024)

char *testcase_description = "malloc/free of 1kB";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		void *p = malloc(SIZE);

		if (!p)
			sb_fatal("malloc(%lu)", (unsigned long)SIZE);
		/* The compiler may drop a malloc/free pair it can see through; this use stops it. */
		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
		sb_count(iterations);
	}
}
