/* futex2: FUTEX_WAIT on the task's own futex word whose value has changed: returns at once.
 * Stresses: get_futex_key for a shared futex (fast GUP of the page), the hash bucket lock, the value read. */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "futex(FUTEX_WAIT)";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned int word = 0;

	(void)nr;
	for (;;) {
		/* Expect 1 while the word holds 0: the kernel must refuse to sleep (EAGAIN). */
		long r = syscall(SYS_futex, &word, FUTEX_WAIT, 1, NULL, NULL, 0);

		if (r == 0)
			sb_fatalx("futex(FUTEX_WAIT) returned 0, but the value differs");
		if (errno != EAGAIN)
			sb_fatal("futex(FUTEX_WAIT)");
		sb_count(iterations);
	}
}
