/* getppid1: the cheapest system call, per task: syscall entry/exit cost. */
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
