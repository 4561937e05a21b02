/* futex4: FUTEX_WAIT_PRIVATE on the task's own futex word whose value has changed: returns at once.
 * Stresses: the futex syscall with a private key (no page lookup), the hash bucket lock, the value read. */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "futex(FUTEX_WAIT_PRIVATE)";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned int word = 0;

	(void)nr;
	for (;;) {
		/* Expect 1 while the word holds 0: the kernel must refuse to sleep (EAGAIN). */
		long r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);

		if (r == 0)
			sb_fatalx("futex(FUTEX_WAIT_PRIVATE) returned 0, but the value differs");
		if (errno != EAGAIN)
			sb_fatal("futex(FUTEX_WAIT_PRIVATE)");
		sb_count(iterations);
	}
}
