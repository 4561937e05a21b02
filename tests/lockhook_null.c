/* lockhook_null: every iteration enters a shared hook with no lock and spins delay_ns inside.
 * Stresses: nothing but the clock (vDSO clock_gettime): the baseline of the lockhook tests. */
#include <time.h>

#include "testcase.h"

char *testcase_description = "Same hook, no lock: enter, spin delay_ns, leave";

SB_PARAM_INT(delay_ns, 1000, 0, 1000000000, "time inside the hook, spinning on the clock (ns)");
SB_PARAM_INT(write_every, 0, 0, 1000000000, "every Nth entry takes the write side (0 = never)");

static unsigned long *version;	/* what a writer changes; here nothing guards it */

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	version = sb_shared_alloc(sizeof(*version));
}

/* Spin, not sleep: a hook is short work done on the CPU. */
static void spin_ns(long long ns)
{
	struct timespec t0, t;

	if (ns <= 0)
		return;
	if (clock_gettime(CLOCK_MONOTONIC, &t0) < 0)
		sb_fatal("clock_gettime");
	do {
		if (clock_gettime(CLOCK_MONOTONIC, &t) < 0)
			sb_fatal("clock_gettime");
	} while ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) < ns);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long long i = 0;

	(void)nr;
	for (;;) {
		if (write_every && ++i % write_every == 0)
			__atomic_fetch_add(version, 1, __ATOMIC_RELAXED);
		spin_ns(delay_ns);
		sb_count(iterations);
	}
}
