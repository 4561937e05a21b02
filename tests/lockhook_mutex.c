/* lockhook_mutex: every iteration enters a shared hook under one pthread mutex, spins delay_ns.
 * Stresses: futex wait/wake on one contended lock word (futex hash bucket, wakeups). */
#include <errno.h>
#include <pthread.h>

#include "testcase.h"

char *testcase_description = "Same hook with one mutex, lock, spin delay_ns, unlock";

SB_PARAM_INT(delay_ns, 1000, 0, 1000000000, "time inside the hook, spinning on the clock (ns)");
SB_PARAM_INT(write_every, 0, 0, 1000000000, "every Nth entry takes the write side (0 = never)");

static struct { pthread_mutex_t lock; unsigned long version; } *sh;

static void ok(int err, const char *what)
{
	if (err) {
		errno = err;
		sb_fatal("%s", what);
	}
}

void testcase_prepare(unsigned long nr_tasks)
{
	pthread_mutexattr_t a;

	(void)nr_tasks;
	sh = sb_shared_alloc(sizeof(*sh));
	/* Private (the faster futexes) where the tasks are threads of one process. */
	ok(pthread_mutexattr_init(&a), "pthread_mutexattr_init");
	ok(pthread_mutexattr_setpshared(&a, sb_threads_mode() ? PTHREAD_PROCESS_PRIVATE
				       : PTHREAD_PROCESS_SHARED), "pthread_mutexattr_setpshared");
	ok(pthread_mutex_init(&sh->lock, &a), "pthread_mutex_init");
	ok(pthread_mutexattr_destroy(&a), "pthread_mutexattr_destroy");
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long long i = 0;

	(void)nr;
	for (;;) {
		/* A mutex has one side: readers and writers take the same lock. */
		ok(pthread_mutex_lock(&sh->lock), "pthread_mutex_lock");
		if (write_every && ++i % write_every == 0)
			sh->version++;
		sb_spin_ns(delay_ns);
		ok(pthread_mutex_unlock(&sh->lock), "pthread_mutex_unlock");
		sb_count(iterations);
	}
}
