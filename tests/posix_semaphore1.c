/* posix_semaphore1: every task waits on and posts one POSIX semaphore shared by all tasks.
 * Stresses: contended semaphore handoff: atomics on one shared cache line, then futex wait/wake. */
#include <semaphore.h>

#include "testcase.h"

/*
 * will-it-scale's posix_semaphore1 gives each task a semaphore of its own, so
 * it never contends; ours is one shared semaphore (pshared, in shared memory,
 * so processes contend too). --param shared=0 gives will-it-scale's variant.
 */
SB_PARAM_INT(shared, 1, 0, 1, "1: one semaphore shared by all tasks; 0: one per task (will-it-scale's, uncontended)");

char *testcase_description = "POSIX semaphores";

static sem_t *common;

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	if (!shared)
		testcase_description = "POSIX semaphore wait/post, one semaphore per task";
	common = sb_shared_alloc(sizeof(*common));
	if (sem_init(common, 1, 1) < 0)
		sb_fatal("sem_init (process-shared)");
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	sem_t own, *sem = common;

	(void)nr;
	if (!shared) {
		if (sem_init(&own, 0, 1) < 0)
			sb_fatal("sem_init");
		sem = &own;
	}
	for (;;) {
		if (sem_wait(sem) < 0)
			sb_fatal("sem_wait");
		if (sem_post(sem) < 0)
			sb_fatal("sem_post");
		sb_count(iterations);
	}
}
