/* futex3: FUTEX_WAKE_PRIVATE on a futex word of the task's own, with no waiter.
 * Stresses: the futex syscall with a private key (no page lookup); no waiter, so no bucket lock. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "futex(FUTEX_WAKE_PRIVATE)";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned int word = 0;

	(void)nr;
	for (;;) {
		long woken = syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);

		if (woken < 0)
			sb_fatal("futex(FUTEX_WAKE_PRIVATE)");
		if (woken != 0)
			sb_fatalx("futex(FUTEX_WAKE_PRIVATE) woke %ld waiters, but nobody waits", woken);
		sb_count(iterations);
	}
}
