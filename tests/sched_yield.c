/* sched_yield: sched_yield() in a loop; with one task per CPU there is normally nobody to yield to.
 * Stresses: scheduler entry/exit and the runqueue lock of the task's own CPU. */
#include <sched.h>

#include "testcase.h"

char *testcase_description = "sched_yield";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		if (sched_yield() < 0)
			sb_fatal("sched_yield");
		sb_count(iterations);
	}
}
