/* context_switch1: a task and its partner pass one byte back and forth over two pipes.
 * Stresses: scheduler wakeup and context switch (pipe wait queues), per pair. */
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Context switch via pipes";

struct pipes {
	int there[2];	/* task -> partner */
	int back[2];	/* partner -> task */
};

static void *partner(void *arg)
{
	struct pipes *p = arg;
	char c;

	for (;;) {
		if (read(p->there[0], &c, 1) != 1)
			sb_fatal("partner: read from the pipe");
		if (write(p->back[1], &c, 1) != 1)
			sb_fatal("partner: write to the pipe");
	}
	return NULL;
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct pipes p;	/* testcase() never returns, so the partner may keep a pointer */
	char c = 0;

	(void)nr;
	if (pipe(p.there) < 0 || pipe(p.back) < 0)
		sb_fatal("pipe");
	new_task(partner, &p);
	for (;;) {
		if (write(p.there[1], &c, 1) != 1)
			sb_fatal("write to the pipe");
		if (read(p.back[0], &c, 1) != 1)
			sb_fatal("read from the pipe");
		/* Two switches per round trip, as will-it-scale counts. */
		sb_count_n(iterations, 2);
	}
}
