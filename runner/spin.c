/* sb_spin_ns(): busy work of a given length, for testcases that model time spent inside a lock. */
#include <time.h>

#include "testcase.h"

void sb_spin_ns(long long ns)
{
	struct timespec t0, t;

	if (ns <= 0)
		return;
	if (clock_gettime(CLOCK_MONOTONIC, &t0) < 0)
		sb_fatal("clock_gettime");
	/* Spin, not sleep: the point is work done on the CPU while holding something. */
	do {
		if (clock_gettime(CLOCK_MONOTONIC, &t) < 0)
			sb_fatal("clock_gettime");
	} while ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) < ns);
}
