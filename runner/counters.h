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
};

struct sb_task_ctl {
	int state;
	int err;
	char msg[240];
};

struct sb_shared_hdr {
	long crashed_task;	/* threads mode: task whose thread took a fatal signal */
	int crashed_sig;
	int gate;		/* the start gate, a futex: 0 closed, 1 open */
	unsigned long passed;	/* tasks past the gate */
	double all_passed;	/* CLOCK_MONOTONIC seconds when the last task passed */
};

struct sb_counters {
	unsigned long n;
	struct sb_shared_hdr *hdr;
	struct sb_task_ctl *ctl;
	char *slots;
};

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
