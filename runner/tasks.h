/* Tasks: spawn (processes, or threads in one task process), start gate, failure detection, kill and reap. */
#ifndef SCALEBENCH_TASKS_H
#define SCALEBENCH_TASKS_H

#include <stddef.h>

#include "topology.h"

/* Signals seen by the runner (set by its handlers). */
extern volatile int sb_interrupted;	/* SIGINT/SIGTERM/SIGHUP number, or 0 */

/* Install the runner's handlers: interruption sets the flag, SIGCHLD/SIGUSR1 wake the sampler. */
void sb_signals_init(void);

/*
 * Seconds the testcase's own code in the runner (testcase_prepare,
 * testcase_cleanup) has to return after SIGINT/SIGTERM/SIGHUP; then, or at a
 * second signal, the runner exits 130 from the signal handler. It uses SIGALRM.
 */
#define SB_TESTCASE_GRACE_S 2
/* name (testcase_prepare ...) starts running in the runner; ..._end: it returned. */
void sb_testcase_code_begin(const char *name);
void sb_testcase_code_end(void);

/*
 * Create every task, bind it, and wait (up to stall_timeout seconds) until
 * all are pinned and waiting at the start gate. Exits on any failure.
 */
void sb_tasks_start(unsigned long ntasks, const struct sb_placement *pl,
		    double stall_timeout);
/*
 * Open the gate: every task enters testcase(). With all set the caller
 * wakes every task itself (it runs in a real-time class, so the tasks it
 * wakes cannot preempt it); otherwise it wakes a few and the tasks wake
 * each other, as a tree.
 */
void sb_tasks_release(int all);

/* CLOCK_MONOTONIC seconds of the start and the end, 0 where not reached (for --timing). */
struct sb_task_times {
	double start;		/* before the first task was created */
	double spawned;		/* every task created (threads: the task process) */
	double ready;		/* every task pinned and waiting at the gate */
	double released;	/* the gate opened */
	double passed;		/* the last task passed the gate (before teardown) */
	double killed;		/* teardown began: SIGKILL sent */
	double reaped;		/* every task and partner reaped */
	unsigned long npassed;	/* tasks that passed the gate (when teardown began) */
};
const struct sb_task_times *sb_tasks_times(void);
/*
 * Has a task failed? Returns 0, or an exit code (1, or 3 for a spawn
 * failure) with one line saying which task and why in msg.
 */
int sb_tasks_check(char *msg, size_t size);
/* Exit if interrupted or a task failed. */
void sb_tasks_check_or_exit(void);
/* SIGKILL every task and partner, reap them. */
void sb_tasks_kill_all(void);

#endif
