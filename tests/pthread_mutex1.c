/* pthread_mutex1: lock/unlock of one mutex shared by all tasks, contended as threads and as processes.
 * Stresses: futex wait/wake on one lock word (private futex as threads, shared futex as processes). */
#include <errno.h>
#include <pthread.h>

#include "testcase.h"

char *testcase_description = "Contended pthread mutex";

static pthread_mutex_t *mutex;

static void check(int err, const char *what)
{
	if (err) {
		errno = err;
		sb_fatal("%s", what);
	}
}

void testcase_prepare(unsigned long nr_tasks)
{
	pthread_mutexattr_t attr;

	(void)nr_tasks;
	/* In shared memory so that process tasks contend too (will-it-scale's are per process). */
	mutex = sb_shared_alloc(sizeof(*mutex));
	check(pthread_mutexattr_init(&attr), "pthread_mutexattr_init");
	/* Threads keep the private futex that will-it-scale's threads use. */
	if (!sb_threads_mode())
		check(pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED),
		      "pthread_mutexattr_setpshared");
	check(pthread_mutex_init(mutex, &attr), "pthread_mutex_init");
	check(pthread_mutexattr_destroy(&attr), "pthread_mutexattr_destroy");
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	for (;;) {
		check(pthread_mutex_lock(mutex), "pthread_mutex_lock");
		check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock");
		sb_count(iterations);
	}
}
