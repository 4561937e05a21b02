/* POSIX-only OS layer (make OS=generic): no CPU times, parent death by polling, no subreaper, no priority, a polled start gate, no filesystem names. */
#define _POSIX_C_SOURCE 200809L	/* nothing beyond POSIX.1-2008 may be used here */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os.h"

/* How often a task looks whether its parent is still there (docs/PORTING.md). */
#define SB_PARENT_POLL_NS 50000000L

/* POSIX has no per-CPU times: the idle columns stay empty. */
int sb_os_cpu_times(struct sb_cpu_times *t)
{
	(void)t;
	return -1;
}

static pid_t watched_parent;
static int direct_child;	/* the parent is our parent (a partner is adopted by the runner's) */

/* The parent is gone: it no longer exists, or (a direct child) we were orphaned. */
static int parent_gone(void)
{
	if (direct_child && getppid() != watched_parent)
		return 1;
	return kill(watched_parent, 0) < 0 && errno == ESRCH;
}

/* Polls parent_gone(); a parent that dies unreaped is caught by getppid (direct children). */
static void *parent_watch(void *arg)
{
	const struct timespec period = { 0, SB_PARENT_POLL_NS };

	(void)arg;
	for (;;) {
		if (parent_gone())
			_exit(1);
		(void)nanosleep(&period, NULL);
	}
	return NULL;
}

void sb_os_die_with_parent(pid_t parent)
{
	pthread_attr_t attr;
	pthread_t tid;
	sigset_t all, old;
	int ok;

	watched_parent = parent;
	direct_child = getppid() == parent;
	/* The parent may already be gone. */
	if (parent_gone())
		_exit(1);
	/* The watcher takes no signal meant for the task; it starts with them all blocked. */
	if (sigfillset(&all) != 0 || pthread_sigmask(SIG_SETMASK, &all, &old) != 0)
		_exit(1);
	ok = pthread_attr_init(&attr) == 0 &&
	     pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
	     pthread_create(&tid, &attr, parent_watch, NULL) == 0;
	(void)pthread_attr_destroy(&attr);
	if (pthread_sigmask(SIG_SETMASK, &old, NULL) != 0 || !ok)
		_exit(1);
}

/*
 * No subreaper in POSIX: an orphaned partner is adopted by init and ends by
 * its own watcher; the runner notices its death by polling its pid.
 */
int sb_os_become_subreaper(void)
{
	return 0;
}

/* POSIX's statvfs names no filesystem type. */
const char *sb_os_fs_name(const char *path)
{
	(void)path;
	return "an unknown filesystem";
}

/*
 * POSIX has no per-thread nice value, and a real-time class set here could
 * pass to the tasks forked later: the sampler keeps its priority (os.h).
 */
int sb_os_raise_priority(char *what, size_t size)
{
	snprintf(what, size, "unchanged");
	return -1;
}

void sb_os_restore_priority(void)
{
}

/*
 * No futex in POSIX: the gate is polled, every 50 us at first and then less
 * and less often, up to every SB_GATE_POLL_MAX_NS: a task that waited long
 * starts up to that late, and hundreds of waiting tasks do not keep the CPUs
 * busy with their wake-ups.
 */
#define SB_GATE_POLL_MAX_NS 5000000L

int sb_os_gate_wait(int *gate)
{
	struct timespec period = { 0, 50000L };

	while (!__atomic_load_n(gate, __ATOMIC_ACQUIRE)) {
		(void)nanosleep(&period, NULL);
		if (period.tv_nsec < SB_GATE_POLL_MAX_NS)
			period.tv_nsec = period.tv_nsec * 2 > SB_GATE_POLL_MAX_NS ?
					 SB_GATE_POLL_MAX_NS : period.tv_nsec * 2;
	}
	return 0;
}

int sb_os_gate_wake(int *gate, int n)
{
	(void)gate;
	(void)n;
	return 0;
}
