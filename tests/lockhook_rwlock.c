/* lockhook_rwlock: every iteration enters a shared hook through a pthread rwlock's read side, spins delay_ns.
 * Stresses: one reader-count cache line shared by all readers; futex wait/wake when writers come. */
#include <errno.h>
#include <pthread.h>

#include "testcase.h"

char *testcase_description = "Same hook with one rwlock, read lock (write lock every write_every), spin delay_ns, unlock";

SB_PARAM_INT(delay_ns, 1000, 0, 1000000000, "time inside the hook, spinning on the clock (ns)");
SB_PARAM_INT(write_every, 0, 0, 1000000000, "every Nth entry takes the write side (0 = never)");

static struct { pthread_rwlock_t lock; unsigned long version; } *sh;

static void ok(int err, const char *what)
{
	if (err) {
		errno = err;
		sb_fatal("%s", what);
	}
}

void testcase_prepare(unsigned long nr_tasks)
{
	pthread_rwlockattr_t a;

	(void)nr_tasks;
	sh = sb_shared_alloc(sizeof(*sh));
	/* The C library's default kind (glibc: readers preferred); process-shared only if needed. */
	ok(pthread_rwlockattr_init(&a), "pthread_rwlockattr_init");
	ok(pthread_rwlockattr_setpshared(&a, sb_threads_mode() ? PTHREAD_PROCESS_PRIVATE
					 : PTHREAD_PROCESS_SHARED), "pthread_rwlockattr_setpshared");
	ok(pthread_rwlock_init(&sh->lock, &a), "pthread_rwlock_init");
	ok(pthread_rwlockattr_destroy(&a), "pthread_rwlockattr_destroy");
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long long i = 0;

	(void)nr;
	for (;;) {
		if (write_every && ++i % write_every == 0) {
			ok(pthread_rwlock_wrlock(&sh->lock), "pthread_rwlock_wrlock");
			sh->version++;
		} else {
			ok(pthread_rwlock_rdlock(&sh->lock), "pthread_rwlock_rdlock");
		}
		sb_spin_ns(delay_ns);
		ok(pthread_rwlock_unlock(&sh->lock), "pthread_rwlock_unlock");
		sb_count(iterations);
	}
}
