/* spinlock1: all tasks take one test-and-set spinlock with bounded exponential backoff.
 * Stresses: cache-line transfer of one lock word (atomic exchange under contention). */

#include "testcase.h"

char *testcase_description = "Same spinlock test-and-set with bounded exponential backoff";

SB_PARAM_INT(backoff_min, 1, 1, 1 << 30, "first backoff after a failed attempt (spin iterations)");
SB_PARAM_INT(backoff_max, 1600, 1, 1 << 30, "backoff limit; doubling stops here (spin iterations)");
SB_PARAM_INT(hold_ns, 0, 0, 1000000000, "time the lock is held, spinning on the clock (ns)");

/* The lock word and the data it guards share a line, as in most real locks. */
static struct { int locked; unsigned long guarded; } __attribute__((aligned(128))) *sh;

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sh = sb_shared_alloc(sizeof(*sh));
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		/* A limit below backoff_min wins: the backoff never exceeds backoff_max. */
		long long backoff = backoff_min < backoff_max ? backoff_min : backoff_max;

		while (__atomic_exchange_n(&sh->locked, 1, __ATOMIC_ACQUIRE)) {
			for (long long i = 0; i < backoff; i++)
				cpu_relax();
			backoff = backoff * 2 < backoff_max ? backoff * 2 : backoff_max;
		}
		sh->guarded++;
		sb_spin_ns(hold_ns);
		__atomic_store_n(&sh->locked, 0, __ATOMIC_RELEASE);
		sb_count(iterations);
	}
}
