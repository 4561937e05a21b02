/* Tasks: spawn (processes, or threads in one task process), start gate, failure detection, kill and reap. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "counters.h"
#include "os.h"
#include "tasks.h"
#include "util.h"

volatile int sb_interrupted;

static struct {
	unsigned long n;
	const struct sb_placement *pl;
	pid_t *pids;		/* processes: one per task; threads: [0] is the task process */
	unsigned long npids;
	pid_t pgid;		/* every task and partner lives in this group */
	int reaper;		/* partners are our children (a subreaper): waitpid sees them die */
	int ready[2];		/* each task writes one byte once pinned */
	struct sb_task_times times;
} T = { .ready = { -1, -1 } };

static void partner_locks_open(void);

/* ---- the runner's signals ---- */

/*
 * The testcase's own code in the runner (testcase_prepare, testcase_cleanup)
 * may wait for anything (a server, a file) and never look at our flag: while
 * it runs, the first SIGINT/SIGTERM/SIGHUP sets the flag and starts a grace
 * timer; a second signal, or the timer, ends the runner from the handler
 * (exit 130, one line). Nothing else is safe there: the private directory is
 * left to the janitor, testcase_cleanup does not run.
 */
static volatile sig_atomic_t in_testcase_code;
static char gave_up_timer[256], gave_up_again[256];

static void give_up(const char *msg)
{
	ssize_t r = write(STDERR_FILENO, msg, strlen(msg));

	(void)r;
	_exit(SB_EXIT_INTR);
}

static void on_interrupt(int sig)
{
	if (in_testcase_code) {
		if (sb_interrupted)
			give_up(gave_up_again);
		alarm(SB_TESTCASE_GRACE_S);
	}
	sb_interrupted = sig;
}

static void on_grace(int sig)
{
	(void)sig;
	/* (a SIGALRM from outside, with no interruption pending, is not the grace's end) */
	if (in_testcase_code && sb_interrupted)
		give_up(gave_up_timer);
}

void sb_testcase_code_begin(const char *name)
{
	snprintf(gave_up_timer, sizeof(gave_up_timer),
		 "%s: interrupted: %s had not returned %d s after the signal\n", sb_prog, name,
		 SB_TESTCASE_GRACE_S);
	snprintf(gave_up_again, sizeof(gave_up_again),
		 "%s: interrupted: %s had not returned at the second signal\n", sb_prog, name);
	in_testcase_code = 1;
	/* Already interrupted (the way out runs testcase_cleanup): the grace starts now. */
	if (sb_interrupted)
		alarm(SB_TESTCASE_GRACE_S);
}

void sb_testcase_code_end(void)
{
	in_testcase_code = 0;
	alarm(0);
}

static void on_wake(int sig)
{
	(void)sig;
}

void sb_signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the sampler's sleep must return early. */
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_wake;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_grace;
	sigaction(SIGALRM, &sa, NULL);
	/* A closed stdout must not kill us before the tasks are reaped. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Tasks get the dispositions a testcase expects: the defaults. */
static void signals_default(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGUSR1, SIGALRM, SIGPIPE };
	sigset_t none;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the start gate: a word in shared memory (os.h: a futex on Linux), opened as a tree ---- */

/* Each task woken at the gate wakes this many more before it starts. */
#define GATE_FANOUT 2

/*
 * Wait for the gate, then pass it on. A runner in an ordinary class that
 * wakes every task at once is preempted by the tasks it wakes, again and
 * again, and waits its turn among N tasks each time; instead it wakes
 * GATE_FANOUT tasks and each woken task wakes GATE_FANOUT more, so the
 * wake-ups spread as a tree over the tasks themselves (a real-time runner
 * wakes them all: sb_tasks_release). A task that finds the gate open never sleeps, and a wake-up
 * that finds no sleeper ends its branch: once the gate is open no task can
 * start sleeping, so none is left behind.
 */
static void gate_pass(void)
{
	int *gate = &sb_ctr.hdr->gate;

	if (sb_os_gate_wait(gate) < 0)
		sb_fatal("start gate: wait");
	(void)sb_os_gate_wake(gate, GATE_FANOUT);
	if (__atomic_add_fetch(&sb_ctr.hdr->passed, 1, __ATOMIC_ACQ_REL) == sb_ctr.n)
		sb_ctr.hdr->all_passed = now_s();
}

/* ---- the task itself ---- */

static void task_main(unsigned long i) __attribute__((noreturn));
static void task_main(unsigned long i)
{
	char c = 0;

	sb_api_set_task((long)i);
	if (T.pl->nplaces) {
		const struct sb_place *p = &T.pl->place[i % T.pl->nplaces];

		if (sb_bind_self(p) < 0) {
			char set[64];

			hwloc_bitmap_list_snprintf(set, sizeof(set), p->set);
			sb_fatal("binding to cpuset %s (PU %d, core %d) failed", set, p->pu, p->core);
		}
	}
	if (write(T.ready[1], &c, 1) != 1)
		sb_fatal("start gate: write");
	if (!sb_threads_mode())
		close(T.ready[1]);
	gate_pass();
	testcase(sb_counter(i), i);
	/* Never fall back into the runner's code: report and leave. */
	__atomic_store_n(&sb_ctr.ctl[i].state, SB_T_RETURNED, __ATOMIC_RELEASE);
	kill(sb_runner_pid, SIGUSR1);
	_exit(SB_EXIT_FAIL);
}

/* In every new task process: die with the runner, default signals, our own group. */
static void child_init(void)
{
	sb_os_restore_priority();
	sb_os_die_with_parent(sb_runner_pid);
	signals_default();
	setpgid(0, T.pgid);
	close(T.ready[0]);
}

static void *thread_main(void *arg)
{
	task_main((unsigned long)arg);
}

/* Threads mode: a fatal signal kills the task process; say which thread took it. */
static void on_crash(int sig)
{
	sb_ctr.hdr->crashed_task = sb_task();
	sb_ctr.hdr->crashed_partner = sb_api_in_partner();
	sb_ctr.hdr->crashed_sig = sig;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Threads mode: exit() in any thread ends the task process; say which thread called it. */
static void on_exit_call(void)
{
	if (sb_task() >= 0 && sb_ctr.hdr->exited_task < 0) {
		sb_ctr.hdr->exited_partner = sb_api_in_partner();
		sb_ctr.hdr->exited_task = sb_task();
	}
}

static void thread_host(void) __attribute__((noreturn));
static void thread_host(void)
{
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
	struct sigaction sa;

	if (atexit(on_exit_call) != 0)
		_exit(SB_EXIT_ENV);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &sa, NULL);
	for (unsigned long i = 0; i < T.n; i++) {
		pthread_t tid;
		int err = pthread_create(&tid, NULL, thread_main, (void *)i);

		if (err) {
			sb_ctr.ctl[i].err = err;
			__atomic_store_n(&sb_ctr.ctl[i].state, SB_T_SPAWN_FAILED, __ATOMIC_RELEASE);
			_exit(SB_EXIT_ENV);
		}
	}
	for (;;)
		pause();
}

static void nproc_limit(char *buf, size_t size)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(buf, size, "RLIMIT_NPROC soft limit %llu", (unsigned long long)rl.rlim_cur);
	else
		snprintf(buf, size, "RLIMIT_NPROC unlimited; see kernel.pid_max and kernel.threads-max");
}

static pid_t spawn(void (*body)(unsigned long), unsigned long arg, const char *what)
{
	pid_t pid = fork();
	char lim[128];

	if (pid < 0) {
		int e = errno;

		nproc_limit(lim, sizeof(lim));
		sb_die(SB_EXIT_ENV, "could not start %s %lu: fork: %s (%s)", what, arg,
		       strerror(e), lim);
	}
	if (pid == 0) {
		child_init();
		body(arg);
	}
	/* Both sides set the group, whichever runs first. */
	setpgid(pid, T.pgid ? T.pgid : pid);
	if (!T.pgid)
		T.pgid = pid;
	T.pids[T.npids++] = pid;
	return pid;
}

static void host_body(unsigned long unused)
{
	(void)unused;
	thread_host();
}

void sb_tasks_start(unsigned long n, const struct sb_placement *pl, double stall_timeout)
{
	unsigned long ready = 0;
	double deadline;
	char prio[64];
	char msg[512];
	int code;

	T.n = n;
	T.pl = pl;
	T.pids = calloc(sb_threads_mode() ? 1 : n, sizeof(*T.pids));
	if (!T.pids)
		sb_die(SB_EXIT_ENV, "out of memory for %lu tasks", n);
	if (pipe(T.ready) < 0)
		sb_die(SB_EXIT_ENV, "start gate: pipe: %s", strerror(errno));
	T.reaper = sb_os_become_subreaper();
	if (!T.reaper && !sb_threads_mode())
		partner_locks_open();
	/* Not outrun by the tasks we create (they start at the default: child_init). */
	sb_os_raise_priority(prio, sizeof(prio));
	T.times.start = now_s();
	deadline = T.times.start + stall_timeout;

	if (sb_threads_mode())
		spawn(host_body, 0, "the task process for");
	else
		for (unsigned long i = 0; i < n; i++) {
			spawn(task_main, i, "task");
			if (sb_interrupted)
				sb_exit(SB_EXIT_INTR);
		}
	close(T.ready[1]);
	T.ready[1] = -1;
	T.times.spawned = now_s();

	while (ready < n) {
		struct pollfd pfd = { T.ready[0], POLLIN, 0 };
		char buf[4096];

		if (sb_interrupted)
			sb_exit(SB_EXIT_INTR);
		if (poll(&pfd, 1, 100) > 0) {
			ssize_t r = read(T.ready[0], buf, sizeof(buf));

			if (r > 0)
				ready += (unsigned long)r;
		}
		if ((code = sb_tasks_check(msg, sizeof(msg))) != 0)
			sb_die(code, "%s", msg);
		if (ready < n && now_s() > deadline)
			sb_die(SB_EXIT_FAIL, "no progress: only %lu of %lu tasks reached the start gate within %g s",
			       ready, n, stall_timeout);
	}
	close(T.ready[0]);
	T.times.ready = now_s();
}

void sb_tasks_release(int all)
{
	__atomic_store_n(&sb_ctr.hdr->gate, 1, __ATOMIC_RELEASE);
	if (sb_os_gate_wake(&sb_ctr.hdr->gate, all ? INT_MAX : GATE_FANOUT) < 0)
		sb_die(SB_EXIT_ENV, "start gate: wake: %s", strerror(errno));
	T.times.released = now_s();
}

const struct sb_task_times *sb_tasks_times(void)
{
	return &T.times;
}

/*
 * Without a subreaper a dead partner is init's zombie until init reaps it,
 * which some inits (a container's, a VM agent's) do late or never, and
 * kill(pid, 0) finds a zombie. So each partner holds a record lock on a byte
 * of an unlinked file: the system drops it when the process ends, zombie or
 * not, and F_GETLK sees that (POSIX, no /proc).
 */
static void partner_locks_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	/* Without one, partners are watched by pid alone: said, not fatal (most testcases have none). */
	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, sizeof(path), "%s/scalebench-partners.XXXXXX", dir) >= (int)sizeof(path)) {
		sb_warn("warning: no partner lock file (TMPDIR is too long): a partner's death is seen by its pid only; "
			"set TMPDIR to a short writable directory");
		return;
	}
	if ((fd = mkstemp(path)) < 0) {
		sb_warn("warning: no partner lock file in %s (%s): a partner's death is seen by its pid only; "
			"set TMPDIR to a writable directory", dir, strerror(errno));
		return;
	}
	if (unlink(path) < 0)	/* the lock works on the open file: a name left behind is only litter */
		sb_warn("warning: partner lock file %s: unlink: %s", path, strerror(errno));
	sb_ctr.lock_fd = fd;
}

/* Is partner j of task i (pid) gone? A zombie counts as gone once it held its lock. */
static int partner_dead(unsigned long i, int j, pid_t pid)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1,
			   .l_start = sb_partner_lock_byte(i, j) };

	if (sb_ctr.lock_fd >= 0 && __atomic_load_n(&sb_ctr.ctl[i].partner_locked[j], __ATOMIC_ACQUIRE))
		return fcntl(sb_ctr.lock_fd, F_GETLK, &l) == 0 && l.l_type == F_UNLCK;
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/* Processes mode: the task whose partner this is, or -1. */
static long partner_of_pid(pid_t pid)
{
	for (unsigned long i = 0; i < T.n && !sb_threads_mode(); i++) {
		struct sb_task_ctl *c = &sb_ctr.ctl[i];
		int np = __atomic_load_n(&c->npartners, __ATOMIC_ACQUIRE);

		for (int j = 0; j < np && j < SB_MAX_PARTNERS; j++)
			if (__atomic_load_n(&c->partner[j], __ATOMIC_ACQUIRE) == pid)
				return (long)i;
	}
	return -1;
}

static long task_of_pid(pid_t pid)
{
	if (sb_threads_mode())
		return -1;
	for (unsigned long i = 0; i < T.npids; i++)
		if (T.pids[i] == pid)
			return (long)i;
	return -1;
}

/*
 * Without a subreaper a partner process is init's child, so its death never
 * reaches our waitpid: look at its lock (partner_dead) instead. Its exit
 * status is init's to read, so the message can only say that it is gone.
 */
static int partner_gone(char *msg, size_t size)
{
	if (T.reaper || sb_threads_mode())
		return 0;
	for (unsigned long i = 0; i < T.n; i++) {
		struct sb_task_ctl *c = &sb_ctr.ctl[i];
		int np = __atomic_load_n(&c->npartners, __ATOMIC_ACQUIRE);

		for (int j = 0; j < np && j < SB_MAX_PARTNERS; j++) {
			pid_t pid = __atomic_load_n(&c->partner[j], __ATOMIC_ACQUIRE);

			if (pid > 0 && partner_dead(i, j, pid)) {
				snprintf(msg, size, "task %lu's partner (pid %d) is gone (died or exited; "
					 "without a subreaper its exit status is not the runner's to read)",
					 i, (int)pid);
				return SB_EXIT_FAIL;
			}
		}
	}
	return 0;
}

/* A task's own account of its failure, if it left one. */
static int reported(char *msg, size_t size)
{
	for (unsigned long i = 0; i < T.n; i++) {
		struct sb_task_ctl *c = &sb_ctr.ctl[i];
		int state = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);

		if (state == SB_T_FAILED) {
			snprintf(msg, size, "task %lu%s: %s", i, c->by_partner ? "'s partner" : "", c->msg);
			return sb_errno_is_env(c->err) ? SB_EXIT_ENV : SB_EXIT_FAIL;
		}
		if (state == SB_T_PARTNER_RETURNED) {
			snprintf(msg, size, "task %lu's partner returned from its function (new_task); "
				 "a partner must loop forever", i);
			return SB_EXIT_FAIL;
		}
		if (state == SB_T_RETURNED) {
			snprintf(msg, size, "task %lu returned from testcase(); a testcase must loop forever", i);
			return SB_EXIT_FAIL;
		}
		if (state == SB_T_SPAWN_FAILED) {
			char lim[128];

			nproc_limit(lim, sizeof(lim));
			snprintf(msg, size, "could not start task %lu: pthread_create: %s (%s)",
				 i, strerror(c->err), lim);
			return SB_EXIT_ENV;
		}
	}
	return 0;
}

int sb_tasks_check(char *msg, size_t size)
{
	int status, code;
	pid_t pid;

	if ((code = reported(msg, size)) != 0)
		return code;
	if (!T.pgid)
		return 0;
	/* Only our task group: a testcase's own children are its business. */
	while ((pid = waitpid(-T.pgid, &status, WNOHANG)) > 0) {
		long i = task_of_pid(pid), p = -1;
		char who[96];

		if ((code = reported(msg, size)) != 0)
			return code;
		if (sb_threads_mode() && WIFSIGNALED(status) && sb_ctr.hdr->crashed_task >= 0)
			snprintf(who, sizeof(who), "task %ld%s (a thread of pid %d)",
				 sb_ctr.hdr->crashed_task,
				 sb_ctr.hdr->crashed_partner ? "'s partner" : "", (int)pid);
		else if (sb_threads_mode() && WIFEXITED(status) && sb_ctr.hdr->exited_task >= 0)
			snprintf(who, sizeof(who), "task %ld%s (a thread of pid %d)",
				 sb_ctr.hdr->exited_task,
				 sb_ctr.hdr->exited_partner ? "'s partner" : "", (int)pid);
		else if (sb_threads_mode())
			snprintf(who, sizeof(who), "the task process (pid %d)", (int)pid);
		else if (i >= 0)
			snprintf(who, sizeof(who), "task %ld (pid %d)", i, (int)pid);
		else if ((p = partner_of_pid(pid)) >= 0)
			snprintf(who, sizeof(who), "task %ld's partner (pid %d)", p, (int)pid);
		else
			continue;	/* not ours: a testcase's orphan we adopted */
		if (WIFSIGNALED(status))
			snprintf(msg, size, "%s killed by signal %d (%s)", who,
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		else if (WIFEXITED(status))
			snprintf(msg, size, "%s exited with status %d", who, WEXITSTATUS(status));
		else
			continue;
		return SB_EXIT_FAIL;
	}
	return partner_gone(msg, size);
}

void sb_tasks_check_or_exit(void)
{
	char msg[512];
	int code;

	if (sb_interrupted)
		sb_exit(SB_EXIT_INTR);
	if ((code = sb_tasks_check(msg, sizeof(msg))) != 0)
		sb_die(code, "%s", msg);
}

/* Teardown gives up (with a warning) when tasks outlive SIGKILL this long, plus a little per task. */
#define REAP_LIMIT_S 2.0
#define REAP_LIMIT_PER_TASK_S 0.0005

void sb_tasks_kill_all(void)
{
	struct timespec tick = { 0, 1000 * 1000 };
	double limit;

	T.times.killed = now_s();
	if (sb_ctr.hdr) {
		T.times.npassed = __atomic_load_n(&sb_ctr.hdr->passed, __ATOMIC_ACQUIRE);
		T.times.passed = T.times.npassed == T.n ? sb_ctr.hdr->all_passed : 0;
	}
	limit = T.times.killed + REAP_LIMIT_S + REAP_LIMIT_PER_TASK_S * (double)T.n;
	if (T.pgid)
		kill(-T.pgid, SIGKILL);
	for (unsigned long i = 0; i < T.npids; i++)
		kill(T.pids[i], SIGKILL);
	/*
	 * We are the subreaper: tasks and orphaned partners alike are our
	 * children; waitpid collects any zombie from before the signal and says
	 * ECHILD once none is left. The limit is on the clock, not a count of
	 * rounds: a round that meets thousands of processes takes time of its own.
	 */
	for (;;) {
		pid_t pid;

		while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (pid < 0 && errno == ECHILD) {
			T.times.reaped = now_s();
			return;
		}
		if (now_s() > limit)
			break;
		/* A partner forked after the first kill is in the group too. */
		if (T.pgid)
			kill(-T.pgid, SIGKILL);
		nanosleep(&tick, NULL);
	}
	sb_warn("warning: some task processes did not exit within %.1f s of SIGKILL",
		limit - T.times.killed);
}
