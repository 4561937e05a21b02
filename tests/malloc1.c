/* malloc1: each task mallocs and frees 128 MB.
 * Stresses: glibc's large-block path: mmap/munmap of 128 MB (mmap_lock, VMA tree), one fault for the header. */
#include <stdlib.h>

#include "testcase.h"

#define SIZE (128UL << 20)

char *testcase_description = "malloc/free of 128MB";

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
