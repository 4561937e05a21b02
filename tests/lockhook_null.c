/* lockhook_null: every iteration enters a shared hook with no lock and spins delay_ns inside.
 * Stresses: nothing but the clock (vDSO clock_gettime): the baseline of the lockhook tests. */
#include "testcase.h"

char *testcase_description = "Same hook with no lock, enter, spin delay_ns, leave";

SB_PARAM_INT(delay_ns, 1000, 0, 1000000000, "time inside the hook, spinning on the clock (ns)");
SB_PARAM_INT(write_every, 0, 0, 1000000000, "every Nth entry takes the write side (0 = never)");

static unsigned long *version;	/* what a writer changes; here nothing guards it */

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	version = sb_shared_alloc(sizeof(*version));
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long long i = 0;

	(void)nr;
	for (;;) {
		if (write_every && ++i % write_every == 0)
			__atomic_fetch_add(version, 1, __ATOMIC_RELAXED);
		sb_spin_ns(delay_ns);
		sb_count(iterations);
	}
}
