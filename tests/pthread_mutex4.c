/* pthread_mutex4: pthread_mutex1 plus a counter private to each task, incremented inside the lock.
 * Stresses: futex wait/wake on one lock word; the update itself never moves a cache line. */
#include <errno.h>
#include <pthread.h>

#include "testcase.h"

char *testcase_description = "Contended pthread mutex with local update";

/* Shared memory, so the processes mode means the same; each slot on its own cache lines, as the
 * will-it-scale variable on each task's stack is. */
struct slot {
	volatile unsigned long val;
} __attribute__((aligned(128)));

static pthread_mutex_t *mutex;
static struct slot *slots;

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

	/* In shared memory so that process tasks contend too (will-it-scale's are per process). */
	mutex = sb_shared_alloc(sizeof(*mutex));
	slots = sb_shared_alloc(nr_tasks * sizeof(*slots));
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
	for (;;) {
		check(pthread_mutex_lock(mutex), "pthread_mutex_lock");
		slots[nr].val++;
		check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock");
		sb_count(iterations);
	}
}
