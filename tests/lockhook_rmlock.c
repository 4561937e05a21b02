/* lockhook_rmlock: every iteration enters a shared hook through a read-mostly lock's read side, spins delay_ns.
 * Stresses: nothing shared on the read side (per-task cache lines): the scalable reference. */
#include <sched.h>

#include "testcase.h"

char *testcase_description = "Same hook with a read-mostly lock, per-task reader lines, writer waits for readers";

SB_PARAM_INT(delay_ns, 1000, 0, 1000000000, "time inside the hook, spinning on the clock (ns)");
SB_PARAM_INT(write_every, 0, 0, 1000000000, "every Nth entry takes the write side (0 = never)");
SB_PARAM_INT(check, 0, 0, 2, "1: fail on a writer inside together with a reader or writer; "
	     "2: the same with readers that ignore writers (the check must fail)");

/*
 * Memory ordering. Entering is Dekker's handshake: a reader stores its own
 * flag, issues a full (seq_cst) fence, then loads the writer flag; a writer
 * sets the writer flag (an exchange, which also keeps writers apart), full
 * fence, then loads every reader flag. With a seq_cst fence on both sides
 * at least one sees the other's store, so either the reader backs off or
 * the writer waits for it. Entry loads are acquire and exits release
 * stores, so the hook's data is ordered as under any lock. Readers write
 * only their own line; the writer's line they read stays clean in every
 * cache until a writer comes. New readers wait while the flag is up, so
 * readers cannot starve a writer.
 */
struct line { int v; } __attribute__((aligned(128)));
static struct {
	struct line writer, version, in_readers, in_writers;	/* in_*: check only */
	struct line reader[];
} *sh;
static unsigned long ntasks;

void testcase_prepare(unsigned long nr_tasks)
{
	ntasks = nr_tasks;
	sh = sb_shared_alloc(sizeof(*sh) + nr_tasks * sizeof(struct line));
}

/* Waiting: pause the CPU, and now and then yield in case the one we wait for is preempted. */
static void relax(unsigned *n)
{
	if (++*n % 256 == 0) {
		if (sched_yield() < 0)
			sb_fatal("sched_yield");
	}
#if defined(__x86_64__) || defined(__i386__)
	else
		__builtin_ia32_pause();
#endif
}

static void read_lock(unsigned long nr)
{
	unsigned n = 0;

	for (;;) {
		__atomic_store_n(&sh->reader[nr].v, 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (check == 2 || !__atomic_load_n(&sh->writer.v, __ATOMIC_ACQUIRE))
			return;
		__atomic_store_n(&sh->reader[nr].v, 0, __ATOMIC_RELEASE);	/* back off */
		while (__atomic_load_n(&sh->writer.v, __ATOMIC_RELAXED))
			relax(&n);
	}
}

static void write_lock(void)
{
	unsigned n = 0;

	while (__atomic_exchange_n(&sh->writer.v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&sh->writer.v, __ATOMIC_RELAXED))
			relax(&n);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (unsigned long i = 0; i < ntasks; i++)
		while (__atomic_load_n(&sh->reader[i].v, __ATOMIC_ACQUIRE))
			relax(&n);
}

/* The checker: counters changed only inside the hook, so a correct lock never sees both non-zero. */
static void check_inside(int writing, int delta)
{
	int w, r;

	if (delta > 0)
		__atomic_fetch_add(writing ? &sh->in_writers.v : &sh->in_readers.v, 1, __ATOMIC_SEQ_CST);
	w = __atomic_load_n(&sh->in_writers.v, __ATOMIC_SEQ_CST);
	r = __atomic_load_n(&sh->in_readers.v, __ATOMIC_SEQ_CST);
	if (w > 1 || (w && r))
		sb_fatalx("overlap: %d writer(s) and %d reader(s) inside the hook together", w, r);
	if (delta < 0)
		__atomic_fetch_sub(writing ? &sh->in_writers.v : &sh->in_readers.v, 1, __ATOMIC_SEQ_CST);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long long i = 0;

	for (;;) {
		int writing = write_every && ++i % write_every == 0;

		if (writing) {
			write_lock();
			sh->version.v++;
		} else {
			read_lock(nr);
		}
		if (check)
			check_inside(writing, 1);
		sb_spin_ns(delay_ns);
		if (check)
			check_inside(writing, -1);
		if (writing)
			__atomic_store_n(&sh->writer.v, 0, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&sh->reader[nr].v, 0, __ATOMIC_RELEASE);
		sb_count(iterations);
	}
}
