/* alloc_free1: each task allocates a buffer (2 KiB by default), touches it and frees it.
 * Stresses: the C library allocator's local fast path (per-thread caches, arenas); the kernel only when the heap grows. */
#include <stdlib.h>

#include "testcase.h"

char *testcase_description = "Separate buffers malloc, touch and free on the same task";

SB_PARAM_INT(size, 2048, 1, 1 << 30, "buffer size in bytes");

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		char *p = malloc((size_t)size);

		if (!p)
			sb_fatal("malloc(%lld)", size);
		/* The volatile store keeps the compiler from eliding the malloc/free pair. */
		*(volatile char *)p = 1;
		free(p);
		sb_count(iterations);
	}
}
