/* The testcase API (testcase.h): task identity, fatal errors, partners, shared memory, parameters, spinning. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- fatal errors ---- */

static void vfail(int with_errno, const char *fmt, va_list ap) __attribute__((noreturn));
static void vfail(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;
	char buf[sizeof(((struct sb_task_ctl *)0)->msg)];
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (with_errno && len >= 0 && (size_t)len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, ": %s", strerror(saved));
	if (current_task < 0 || getpid() == sb_runner_pid || !sb_ctr.ctl) {
		/* In the runner (testcase_prepare or _cleanup): say so; the run's end cleans up. */
		sb_die(SB_EXIT_FAIL, "%s: %s", current_task < 0 ? "testcase" : "task", buf);
	}
	/* In a task: leave the message where the runner looks, wake it, go. */
	struct sb_task_ctl *c = &sb_ctr.ctl[current_task];
	memcpy(c->msg, buf, sizeof(c->msg));
	__atomic_store_n(&c->state, SB_T_FAILED, __ATOMIC_RELEASE);
	kill(sb_runner_pid, SIGUSR1);
	/* In threads mode this ends every task thread; the runner reports. */
	_exit(SB_EXIT_FAIL);
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

struct partner {
	void *(*func)(void *);
	void *arg;
	long task;
};

static void *partner_thread(void *p)
{
	struct partner pt = *(struct partner *)p;

	free(p);
	current_task = pt.task;
	return pt.func(pt.arg);
}

void new_task(void *(*func)(void *), void *arg)
{
	if (current_task < 0)
		sb_fatalx("new_task() must be called from testcase(), not from testcase_prepare()");
	if (sb_threads_mode()) {
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
		return;
	}
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		sb_fatal("new_task: fork");
	if (pid == 0) {
		/* The partner dies with its task; it inherits the task's binding. */
		sb_os_die_with_parent(parent);
		func(arg);
		_exit(0);
	}
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
