/* The testcase API (testcase.h): task identity, fatal errors, partners, shared memory, parameters, spinning. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "counters.h"
#include "os.h"
#include "util.h"

extern const unsigned int testcase_modes __attribute__((weak));
extern const unsigned int testcase_meant __attribute__((weak));
extern const char testcase_meant_else[] __attribute__((weak));

static __thread long current_task = -1;
static __thread int in_partner;
static struct sb_param *params;

/* ---- what the testcase declared ---- */

unsigned int sb_api_modes(void)
{
	unsigned int m = &testcase_modes ? testcase_modes : 0;

	return m & (SB_PROCESSES | SB_THREADS) ? m : SB_PROCESSES | SB_THREADS;
}

unsigned int sb_api_meant(void)
{
	unsigned int m = &testcase_meant ? testcase_meant : 0;

	return m & (SB_PROCESSES | SB_THREADS) ? m & sb_api_modes() : 0;
}

const char *sb_api_meant_else(void)
{
	return sb_api_meant() && testcase_meant_else ? testcase_meant_else : NULL;
}

/* Called from constructors, before main: keep declaration order. */
void sb_param_register(struct sb_param *p)
{
	struct sb_param **pp = &params;

	while (*pp)
		pp = &(*pp)->next;
	p->next = NULL;
	*pp = p;
}

struct sb_param *sb_api_params(void)
{
	return params;
}

/* ---- which task is this ---- */

long sb_task(void)
{
	return current_task;
}

void sb_api_set_task(long nr)
{
	current_task = nr;
}

int sb_api_in_partner(void)
{
	return in_partner;
}

/* ---- fatal errors ---- */

static const char *(*fail_dir)(void);	/* api_tmpdir.c's, when linked */

void sb_api_set_fail_dir(const char *(*made)(void))
{
	fail_dir = made;
}

static void vfail(int with_errno, const char *fmt, va_list ap) __attribute__((noreturn));
static void vfail(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;
	char buf[sizeof(((struct sb_task_ctl *)0)->msg)];
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);

	/* A full disk or quota is the environment's fault, not the measurement's. */
	int code = with_errno && sb_errno_is_env(saved) ? SB_EXIT_ENV : SB_EXIT_FAIL;

	if (with_errno && len >= 0 && (size_t)len < sizeof(buf))
		len += snprintf(buf + len, sizeof(buf) - len, ": %s", strerror(saved));
	/* "write: No space left on device" alone does not say which disk is full. */
	const char *dir = fail_dir ? fail_dir() : NULL;

	if ((saved == ENOSPC || saved == EDQUOT) && with_errno && dir && !strstr(buf, dir) &&
	    len >= 0 && (size_t)len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, " (in %s, on %s)", dir, sb_os_fs_name(dir));
	if (current_task < 0 || getpid() == sb_runner_pid || !sb_ctr.ctl) {
		/* In the runner (testcase_prepare or _cleanup): say so; the run's end cleans up. */
		sb_die(code, "%s: %s", current_task < 0 ? "testcase" : "task", buf);
	}
	/* In a task: leave the message where the runner looks, wake it, go. */
	struct sb_task_ctl *c = &sb_ctr.ctl[current_task];
	memcpy(c->msg, buf, sizeof(c->msg));
	c->err = with_errno ? saved : 0;
	c->by_partner = in_partner;
	__atomic_store_n(&c->state, SB_T_FAILED, __ATOMIC_RELEASE);
	kill(sb_runner_pid, SIGUSR1);
	/* In threads mode this ends every task thread; the runner reports. */
	_exit(code);
}

void sb_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(1, fmt, ap);
}

void sb_fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(0, fmt, ap);
}

/* ---- partners ---- */

/*
 * A partner is a task: its death, exit or return ends the run like a
 * task's. Threads mode: a thread of the task process; its crash or exit()
 * is the task process's, and tasks.c names the partner from in_partner.
 * Processes mode: a child of the runner, not of its task, so that the
 * runner's wait sees it die (double fork; the runner is the subreaper),
 * listed in its task's control record so that the runner knows whose it is.
 */
struct partner {
	void *(*func)(void *);
	void *arg;
	long task;
};

/* The partner's function returned: say so, wake the runner (which ends the run). */
static void partner_returned(long task)
{
	__atomic_store_n(&sb_ctr.ctl[task].state, SB_T_PARTNER_RETURNED, __ATOMIC_RELEASE);
	kill(sb_runner_pid, SIGUSR1);
}

static void *partner_thread(void *p)
{
	struct partner pt = *(struct partner *)p;

	free(p);
	current_task = pt.task;
	in_partner = 1;
	pt.func(pt.arg);
	partner_returned(pt.task);
	return NULL;
}

static void new_thread_partner(void *(*func)(void *), void *arg)
{
	struct partner *p = malloc(sizeof(*p));
	pthread_t tid;
	int err;

	if (!p)
		sb_fatal("new_task: malloc");
	*p = (struct partner){ func, arg, current_task };
	if ((err = pthread_create(&tid, NULL, partner_thread, p)) != 0) {
		errno = err;
		sb_fatal("new_task: pthread_create");
	}
}

static void partner_process(void *(*func)(void *), void *arg, pid_t middle, int slot)
{
	struct timespec tick = { 0, 100 * 1000 };

	in_partner = 1;
	/* Wait until the runner has adopted us, then die with it. */
	while (getppid() == middle)
		nanosleep(&tick, NULL);
	sb_os_die_with_parent(sb_runner_pid);
	if (sb_ctr.lock_fd >= 0) {
		/* Held until this process ends, however it ends (tasks.c partner_gone). */
		struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1,
				   .l_start = sb_partner_lock_byte((unsigned long)current_task, slot) };

		if (fcntl(sb_ctr.lock_fd, F_SETLK, &l) < 0)
			sb_fatal("new_task: partner lock");
		__atomic_store_n(&sb_ctr.ctl[current_task].partner_locked[slot], 1, __ATOMIC_RELEASE);
	}
	func(arg);
	partner_returned(current_task);
	_exit(SB_EXIT_FAIL);
}

static void new_process_partner(void *(*func)(void *), void *arg)
{
	struct sb_task_ctl *c = &sb_ctr.ctl[current_task];
	int slot = c->npartners, status;
	pid_t middle, pid;

	if (slot >= SB_MAX_PARTNERS)
		sb_fatalx("new_task: a task may have at most %d partners", SB_MAX_PARTNERS);
	middle = fork();
	if (middle < 0)
		sb_fatal("new_task: fork");
	if (middle == 0) {
		middle = getpid();
		if ((pid = fork()) < 0)
			sb_fatal("new_task: fork");
		if (pid == 0)
			partner_process(func, arg, middle, slot);
		/* Listed before the runner can see it: before this process exits. */
		__atomic_store_n(&c->partner[slot], pid, __ATOMIC_RELEASE);
		__atomic_store_n(&c->npartners, slot + 1, __ATOMIC_RELEASE);
		_exit(0);
	}
	/* The testcase may reap children itself (or ignore SIGCHLD): ECHILD is fine. */
	while (waitpid(middle, &status, 0) < 0 && errno == EINTR)
		;
	if (__atomic_load_n(&c->npartners, __ATOMIC_ACQUIRE) != slot + 1) {
		if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) == SB_T_FAILED)
			_exit(SB_EXIT_FAIL);	/* the middle process said why */
		sb_fatalx("new_task: the partner process could not be started");
	}
}

void new_task(void *(*func)(void *), void *arg)
{
	if (current_task < 0)
		sb_fatalx("new_task() must be called from testcase(), not from testcase_prepare()");
	if (sb_threads_mode())
		new_thread_partner(func, arg);
	else
		new_process_partner(func, arg);
}

/* ---- memory, time ---- */

void *sb_shared_alloc(size_t size)
{
	void *p = sb_map_shared(size ? size : 1);

	if (!p)
		sb_fatal("sb_shared_alloc(%zu)", size);
	return p;
}

void sb_spin_ns(long long ns)
{
	struct timespec t0, t;

	if (ns <= 0)
		return;
	if (clock_gettime(CLOCK_MONOTONIC, &t0) < 0)
		sb_fatal("clock_gettime");
	/* Spin, not sleep: the point is work done on the CPU while holding something. */
	do {
		if (clock_gettime(CLOCK_MONOTONIC, &t) < 0)
			sb_fatal("clock_gettime");
	} while ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) < ns);
}
