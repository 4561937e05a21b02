/* alloc_free2: each task allocates a buffer, queues it to a random other task, and frees what it was sent.
 * Stresses: the C library allocator's remote free (arena locks, cache-line transfers); the kernel only when arenas grow. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "testcase.h"

char *testcase_description = "Cross-task free, malloc then queue to a random other task, free own queue";

SB_MODES(SB_THREADS);
SB_PARAM_INT(size, 2048, 16, 1 << 30, "buffer size in bytes");
SB_PARAM_INT(check, 0, 0, 2, "1: stop all tasks now and then and verify allocated - freed == queued; "
	     "2: the same, with one buffer leaked on purpose (the check must fail)");

/*
 * The accounting check. Tasks are SIGKILLed at the end, so counts read then
 * would be off by whatever was in flight. Instead each task calls a stop every
 * 2^10 of its iterations (2^14 left a short run under a sanitizer on a loaded
 * machine without one): all tasks park on a barrier between iterations,
 * where none holds a buffer, so every buffer ever allocated is either freed
 * or linked in a queue, and one task can require sum(allocated - freed) ==
 * sum(queue lengths) exactly. (Double frees are ASan's to find.)
 */
struct node { struct node *next; };
struct slot {		/* one task's queue and counts, alone on its lines */
	struct node *head;
	unsigned long long allocated, freed;
} __attribute__((aligned(128)));
static struct { pthread_barrier_t barrier; int stop, checks; struct slot q[]; } *sh;
static unsigned long ntasks;

void testcase_prepare(unsigned long nr_tasks)
{
	ntasks = nr_tasks;
	sh = sb_shared_alloc(sizeof(*sh) + nr_tasks * sizeof(struct slot));
	if (pthread_barrier_init(&sh->barrier, NULL, (unsigned)nr_tasks) != 0)
		sb_fatalx("pthread_barrier_init failed");
}

/* 1 in the one task that pthread_barrier_wait picks, 0 in the others. */
static int barrier(void)
{
	int err = pthread_barrier_wait(&sh->barrier);

	if (err != 0 && err != PTHREAD_BARRIER_SERIAL_THREAD)
		sb_fatalx("pthread_barrier_wait: error %d", err);
	return err != 0;
}

static void checkpoint(void)
{
	unsigned long long balance = 0, queued = 0;

	if (barrier()) {
		for (unsigned long i = 0; i < ntasks; i++) {
			balance += sh->q[i].allocated - sh->q[i].freed;
			for (struct node *n = sh->q[i].head; n; n = n->next)
				queued++;
		}
		if (balance != queued)
			sb_fatalx("leak: %llu buffers allocated and not freed, only %llu in the queues",
				  balance, queued);
		sh->checks++;
		sh->stop = 0;
	}
	barrier();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct slot *me = &sh->q[nr];
	unsigned long long rnd = nr * 0x9e3779b97f4a7c15ull + 1, since = 0, drained = 0;

	for (;;) {
		struct node *n, *list;
		unsigned long to = nr;

		if (check && __atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE))
			checkpoint();
		if (!(n = malloc((size_t)size)))
			sb_fatal("malloc(%lld)", size);
		me->allocated++;
		rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;	/* xorshift64 */
		if (ntasks > 1)
			to = (nr + 1 + rnd % (ntasks - 1)) % ntasks;	/* any task but me */
		/* Lock-free push; ABA is harmless since only the head's value matters. Every
		 * head update is a read-modify-write, so the owner's acquire exchange below
		 * synchronises with every release push before it. */
		n->next = __atomic_load_n(&sh->q[to].head, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&sh->q[to].head, &n->next, n, 1,
						    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			;
		list = __atomic_exchange_n(&me->head, NULL, __ATOMIC_ACQUIRE);
		for (struct node *next; list; list = next) {
			next = list->next;
			if (check == 2 && ++drained == 1000)
				continue;	/* the deliberate leak */
			free(list);
			me->freed++;
		}
		sb_count(iterations);
		if (check && ++since == 1 << 10) {
			since = 0;
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
		}
	}
}

void testcase_cleanup(void)
{
	if (check && sh)
		fprintf(stderr, "alloc_free2: accounting check passed %d times\n", sh->checks);
}
