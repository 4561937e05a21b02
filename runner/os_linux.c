/* Linux specifics: /proc/stat CPU times, PR_SET_PDEATHSIG, child subreaper, thread priority, the futex gate, statfs magic numbers. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "os.h"

int sb_os_cpu_times(struct sb_cpu_times *t)
{
	char line[512];
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return -1;
	if (t->ncpus)
		for (int i = 0; i < t->ncpus; i++)
			t->idle[i] = t->total[i] = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		if (strncmp(line, "cpu", 3) != 0)
			break;
		/* "cpu  ..." is the machine total: %d would skip the blanks and take its first field. */
		if (!isdigit((unsigned char)line[3]))
			continue;
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5)
			continue;
		if (cpu < 0 || cpu > 1 << 20)
			continue;
		if (cpu >= t->ncpus) {
			int n = cpu + 64;
			unsigned long long *idle = realloc(t->idle, n * sizeof(*idle));
			unsigned long long *total = idle ? realloc(t->total, n * sizeof(*total)) : NULL;

			if (idle)
				t->idle = idle;
			if (!total) {
				fclose(f);
				return -1;
			}
			t->total = total;
			for (int i = t->ncpus; i < n; i++)
				t->idle[i] = t->total[i] = 0;
			t->ncpus = n;
		}
		/* idle + iowait is time the CPU had nothing to run. */
		t->idle[cpu] = v[3] + v[4];
		t->total[cpu] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	}
	fclose(f);
	return 0;
}

void sb_os_die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(1);
	/* The parent may have died before prctl: then nobody will signal us. */
	if (getppid() != parent)
		_exit(1);
}

int sb_os_become_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
}

static struct {
	int raised;	/* 1: SCHED_FIFO, 2: nice */
	int policy;
	struct sched_param param;
	int nice;
} saved;

int sb_os_raise_priority(char *what, size_t size)
{
	struct sched_param rt = { .sched_priority = 1 };
	struct rlimit rl;
	pid_t tid = gettid();
	int lowest = -20;

	if (saved.raised) {
		snprintf(what, size, saved.raised == 1 ? "SCHED_FIFO 1" : "nice %d",
			 getpriority(PRIO_PROCESS, (id_t)tid));
		return saved.raised == 1;
	}
	saved.policy = sched_getscheduler(0);
	if (saved.policy < 0 || sched_getparam(0, &saved.param) < 0)
		saved.policy = -1;
	errno = 0;
	saved.nice = getpriority(PRIO_PROCESS, (id_t)tid);
	if (saved.nice == -1 && errno)
		saved.nice = 0;
	/* Linux: pid 0 and a tid name this thread alone, not the process. */
	if (saved.policy >= 0 && sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt) == 0) {
		saved.raised = 1;
		snprintf(what, size, "SCHED_FIFO 1");
		return 1;
	}
	/* RLIMIT_NICE allows nice values down to 20 - rlim_cur. */
	if (getrlimit(RLIMIT_NICE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 40)
		lowest = 20 - (int)rl.rlim_cur;
	for (int v = lowest < -20 ? -20 : lowest; v < saved.nice; v++)
		if (setpriority(PRIO_PROCESS, (id_t)tid, v) == 0) {
			saved.raised = 2;
			snprintf(what, size, "nice %d", v);
			return 0;
		}
	snprintf(what, size, "unchanged");
	return -1;
}

void sb_os_restore_priority(void)
{
	if (saved.raised == 1)
		(void)sched_setscheduler(0, saved.policy, &saved.param);
	else if (saved.raised == 2)
		(void)setpriority(PRIO_PROCESS, (id_t)gettid(), saved.nice);
	saved.raised = 0;
}

const char *sb_os_fs_name(const char *path)
{
	static const struct { unsigned long magic; const char *name; } known[] = {
		{ 0xEF53, "ext2/3/4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" },
		{ 0x01021994, "tmpfs" }, { 0x858458F6, "ramfs" }, { 0x794C7630, "overlayfs" },
		{ 0x6969, "nfs" }, { 0x2FC12FC1, "zfs" }, { 0xF2F52010, "f2fs" },
		{ 0x65735546, "fuse" }, { 0x4D44, "vfat" }, { 0x5346544E, "ntfs" },
	};
	static char buf[48];
	struct statfs st;

	if (statfs(path, &st) < 0)
		return "an unknown filesystem";
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if ((unsigned long)st.f_type == known[i].magic)
			return known[i].name;
	snprintf(buf, sizeof(buf), "filesystem type 0x%lx", (unsigned long)st.f_type);
	return buf;
}

/* Not FUTEX_PRIVATE_FLAG: the word is shared between processes. */
static long futex(int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

int sb_os_gate_wait(int *gate)
{
	while (!__atomic_load_n(gate, __ATOMIC_ACQUIRE))
		if (futex(gate, FUTEX_WAIT, 0) < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
	return 0;
}

int sb_os_gate_wake(int *gate, int n)
{
	return futex(gate, FUTEX_WAKE, n) < 0 ? -1 : 0;
}
