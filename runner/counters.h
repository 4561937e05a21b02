/* Shared memory: one padded counter slot and one control record per task; anonymous shared maps. */
#ifndef SCALEBENCH_COUNTERS_H
#define SCALEBENCH_COUNTERS_H

#include <sys/types.h>

/* Two 64-byte lines: adjacent-line prefetchers fetch pairs. */
#define SB_SLOT_BYTES 128

enum sb_task_state {
	SB_T_STARTING,
	SB_T_FAILED,		/* sb_fatal: msg says why */
	SB_T_RETURNED,		/* testcase() returned */
	SB_T_SPAWN_FAILED,	/* pthread_create failed: err */
	SB_T_PARTNER_RETURNED,	/* a partner's function (new_task) returned */
};

/* A task's partners (new_task) are tasks too: the runner watches at most this many each. */
#define SB_MAX_PARTNERS 8

struct sb_task_ctl {
	int state;
	int err;
	int by_partner;		/* SB_T_FAILED: sb_fatal was called in a partner */
	int npartners;		/* processes mode: partner[] slots in use */
	pid_t partner[SB_MAX_PARTNERS];
	int partner_locked[SB_MAX_PARTNERS];	/* no subreaper: holds its byte of lock_fd */
	char msg[240];
};

struct sb_shared_hdr {
	long crashed_task;	/* threads mode: task whose thread took a fatal signal */
	int crashed_sig;
	int crashed_partner;	/* ... and that thread was one of its partners */
	long exited_task;	/* threads mode: task whose thread called exit() */
	int exited_partner;	/* ... and that thread was one of its partners */
	int gate;		/* the start gate, a futex: 0 closed, 1 open */
	unsigned long passed;	/* tasks past the gate */
	double all_passed;	/* CLOCK_MONOTONIC seconds when the last task passed */
};

struct sb_counters {
	unsigned long n;
	struct sb_shared_hdr *hdr;
	struct sb_task_ctl *ctl;
	char *slots;
	int lock_fd;		/* no subreaper, processes: the partners' lock file, else -1 */
};

/* The byte of lock_fd that partner j of task i holds locked while it lives. */
static inline long sb_partner_lock_byte(unsigned long i, int j)
{
	return (long)(i * SB_MAX_PARTNERS + (unsigned long)j);
}

extern struct sb_counters sb_ctr;

/* Map the counters and control records of ntasks tasks; exits 3 when refused. */
void sb_counters_init(unsigned long ntasks);
/* size bytes of zeroed MAP_SHARED|MAP_ANONYMOUS memory, or NULL. */
void *sb_map_shared(size_t size);

static inline unsigned long long *sb_counter(unsigned long i)
{
	return (unsigned long long *)(sb_ctr.slots + i * SB_SLOT_BYTES);
}

static inline unsigned long long sb_counter_read(unsigned long i)
{
	return __atomic_load_n(sb_counter(i), __ATOMIC_RELAXED);
}

#endif
