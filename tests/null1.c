/* null1: only counts, so it measures the harness itself (counter stores, sampling). */
#include "testcase.h"

char *testcase_description = "Empty loop: counting only (harness overhead)";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;)
		sb_count(iterations);
}
