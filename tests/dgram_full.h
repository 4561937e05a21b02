/* The datagram testcases' full receivers: which send errors mean "queue full", and a note when they are common.
 * Include it after testcase.h. */
#ifndef TESTS_DGRAM_FULL_H
#define TESTS_DGRAM_FULL_H

#include <errno.h>
#include <stdio.h>

#include "testcase.h"

/*
 * A non-blocking send to a receiver whose queue is full fails with EAGAIN on
 * Linux (net.unix.max_dgram_qlen datagrams queued, or the sender's SO_SNDBUF
 * spent) and with ENOBUFS on FreeBSD (net.local.dgram.recvspace). That is the
 * receiver falling behind, not a kernel error.
 */
static int dgram_full(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == ENOBUFS;
}

/* How often a task looks at its own share of refused sends. */
#define DGRAM_FULL_EVERY 4096

static int *dgram_full_level;	/* shared: the highest level any task has noted */

/* From testcase_prepare, so that process tasks inherit the shared word. */
static void dgram_full_prepare(void)
{
	dgram_full_level = sb_shared_alloc(sizeof(*dgram_full_level));
}

/*
 * A task's totals since it started, every DGRAM_FULL_EVERY sends. The first
 * task whose refused share passes 1%, 10% or 50% prints one line for that
 * level, while the run goes on: the text never varies, so runtest.sh notes it
 * once per sweep, and a failing run's last line stays the runner's reason
 * (testcase_cleanup prints after it). `then` says what became of the datagram.
 */
static void dgram_full_note(const char *test, unsigned long long tried,
			    unsigned long long refused, const char *then)
{
	static const int pct[] = { 1, 10, 50 };
	int level = 0, seen = __atomic_load_n(dgram_full_level, __ATOMIC_RELAXED);

	while (level < 3 && refused * 100 > tried * (unsigned long long)pct[level])
		level++;
	while (seen < level)
		if (__atomic_compare_exchange_n(dgram_full_level, &seen, level, 0,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			/* A note, not a result: a failed write to stderr does not end the run. */
			fprintf(stderr, "%s: over %d%% of a task's sends found the receiver's queue full; %s\n",
				test, pct[level - 1], then);
			break;
		}
}

#endif
