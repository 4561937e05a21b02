/* pthread_mutex2: lock and unlock a pthread mutex private to each task, never contended.
 * Stresses: nothing in the kernel: the user-space atomic fast path, the baseline for pthread_mutex1. */
#include <errno.h>
#include <pthread.h>

#include "testcase.h"

char *testcase_description = "Uncontended pthread mutex";

static void check(int err, const char *what)
{
	if (err) {
		errno = err;
		sb_fatal("%s", what);
	}
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	/* On this task's own stack: no other task ever touches its cache line. */
	pthread_mutex_t mutex;

	(void)nr;
	check(pthread_mutex_init(&mutex, NULL), "pthread_mutex_init");
	for (;;) {
		check(pthread_mutex_lock(&mutex), "pthread_mutex_lock");
		check(pthread_mutex_unlock(&mutex), "pthread_mutex_unlock");
		sb_count(iterations);
	}
}
