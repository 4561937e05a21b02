/* What differs between operating systems: CPU times, parent death, reaping, filesystem names. */
#ifndef SCALEBENCH_OS_H
#define SCALEBENCH_OS_H

#include <sys/types.h>

/* Cumulative per-CPU times, indexed by the kernel's CPU number. */
struct sb_cpu_times {
	int ncpus;		/* entries in idle/total */
	unsigned long long *idle, *total;
};

/* Read the current times into t (allocated on first use); -1 if unavailable. */
int sb_os_cpu_times(struct sb_cpu_times *t);

/* In a new task: die when `parent` dies, even by SIGKILL. */
void sb_os_die_with_parent(pid_t parent);

/*
 * Make orphaned descendants (partners) our children, so we can reap them.
 * Returns 1 when that took effect, 0 when the OS cannot: the runner then
 * watches each partner process by its pid instead (tasks.c).
 */
int sb_os_become_subreaper(void);

/*
 * Raise the calling thread's scheduling priority as far as it is allowed to:
 * a real-time class at its lowest priority, never passed on to children, or
 * else the lowest nice value it may set. Writes what it got into what
 * ("SCHED_FIFO 1", "nice -5", "unchanged"); returns 1 for the real-time
 * class (no ordinary task can preempt us then), 0 for a nice value, -1 when unchanged.
 * Raising again changes nothing. A new process inherits a nice value: it
 * calls sb_os_restore_priority first.
 */
int sb_os_raise_priority(char *what, size_t size);
/* Back to what the thread had before sb_os_raise_priority. */
void sb_os_restore_priority(void);

/*
 * The start gate, an int in memory shared between processes: sleep until
 * *gate is not 0 (0, or -1 with errno), and wake up to n sleepers on it
 * (-1 with errno). Linux: a futex; generic: polling.
 */
int sb_os_gate_wait(int *gate);
int sb_os_gate_wake(int *gate, int n);

/* "tmpfs", "ext2/3/4", ... for the filesystem under path ("an unknown filesystem" when unknown). */
const char *sb_os_fs_name(const char *path);

#endif
