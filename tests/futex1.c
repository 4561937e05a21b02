/* futex1: FUTEX_WAKE on a futex word of the task's own, with no waiter.
 * Stresses: get_futex_key for a shared futex (fast GUP of the word's page); no waiter, so no bucket lock. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "futex(FUTEX_WAKE)";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned int word = 0;

	(void)nr;
	for (;;) {
		long woken = syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0);

		if (woken < 0)
			sb_fatal("futex(FUTEX_WAKE)");
		if (woken != 0)
			sb_fatalx("futex(FUTEX_WAKE) woke %ld waiters, but nobody waits", woken);
		sb_count(iterations);
	}
}
