/* null1: an empty loop that only counts: the ceiling the harness itself allows.
 * Stresses: nothing in the kernel; the counter store and the cache line it lives on. */
#include "testcase.h"

char *testcase_description = "Empty loop counting only (harness overhead)";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;)
		sb_count(iterations);
}
