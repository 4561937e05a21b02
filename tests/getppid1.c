/* getppid1: getppid() in a loop, the cheapest system call.
 * Stresses: system call entry and exit, nothing shared between tasks. */
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "getppid";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		/* getppid cannot fail; calling it is the measurement. */
		(void)getppid();
		sb_count(iterations);
	}
}
