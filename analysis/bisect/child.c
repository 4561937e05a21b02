/* Running a bisect's build and runtest.sh: signals passed on as SIGTERM, a grace period, then SIGKILL (the build: its whole process group). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bisect/child.h"

/* The signals that interrupt a bisect: runtest.sh's list (its SIGNALS), a terminal's and any a CI
 * job or timeout(1) may send. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
				    SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t got_signal;
static volatile pid_t running;			/* the child at work, 0: none */
static volatile sig_atomic_t running_group;	/* it leads its own process group: signal the group */
static volatile sig_atomic_t termed;		/* it had its SIGTERM (once: a second would cut its cleanup short) */

static void on_signal(int sig)
{
	if (!got_signal)
		got_signal = sig;
	if (running > 0 && !termed) {
		termed = 1;
		kill(running_group ? -running : running, SIGTERM);
	}
}

void sb_child_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, NULL);
#ifdef PR_SET_CHILD_SUBREAPER
	/* a build's orphans are ours to reap (reap_group), not an init that may never reap them */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
}

int sb_child_interrupted(void)
{
	return got_signal;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Append what fd holds now to *buf; 0 at its end, 1 more to come, -1 on error. */
static int drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char tmp[4096];
	ssize_t got = read(fd, tmp, sizeof(tmp));

	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	if (got == 0)
		return 0;
	if (*len + (size_t)got + 1 > *cap) {
		char *nb = realloc(*buf, *cap = (*len + (size_t)got + 1) * 2);

		if (!nb)
			return -1;
		*buf = nb;
	}
	memcpy(*buf + *len, tmp, (size_t)got);
	*len += (size_t)got;
	(*buf)[*len] = '\0';
	return 1;
}

/* After the leader of an interrupted group has ended: the rest of its group until the deadline, then SIGKILL. */
static void reap_group(pid_t pgid, double deadline, int grace_s)
{
	for (;;) {
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			;	/* its orphans, reparented to us */
		if (kill(-pgid, 0) != 0)
			break;
		if (now_s() > deadline) {
			fprintf(stderr, "sb-bisect: the build's processes did not end %d s after SIGTERM: SIGKILL\n",
				grace_s);
			kill(-pgid, SIGKILL);
			for (int i = 0; i < 100 && kill(-pgid, 0) == 0; i++) {
				while (waitpid(-pgid, NULL, WNOHANG) > 0)
					;
				usleep(10000);
			}
			return;
		}
		usleep(20000);
	}
}

/* Wait for pid, reading fd (or -1) meanwhile; SIGKILL grace_s after a signal (group: pid's process group). */
static int reap(pid_t pid, int group, int fd, char **out, int grace_s)
{
	size_t len = 0, cap = 0;
	double deadline = 0;
	int status, open_fd = fd >= 0;

	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG | (group ? WUNTRACED : 0));

		if (w == pid && WIFSTOPPED(status)) {
			/* a group that touched the terminal (SIGTTIN/SIGTTOU go to the whole group) would
			 * wait for a fg that never comes */
			fprintf(stderr, "sb-bisect: the build stopped (SIG%s: it used the terminal, which a build "
				"run by sb-bisect cannot): SIGKILL to its process group\n",
				WSTOPSIG(status) == SIGTTIN ? "TTIN" : WSTOPSIG(status) == SIGTTOU ? "TTOU" : "STOP");
			kill(-pid, SIGKILL);
			kill(-pid, SIGCONT);
			continue;
		}
		if (w == pid)
			break;
		if (got_signal && deadline == 0)
			deadline = now_s() + grace_s;
		if (deadline > 0 && now_s() > deadline) {
			fprintf(stderr, "sb-bisect: child %ld did not end %d s after SIGTERM: SIGKILL%s\n",
				(long)pid, grace_s, group ? " to its process group" : "");
			kill(group ? -pid : pid, SIGKILL);
			deadline = now_s() + 3600;
		}
		if (open_fd) {
			struct pollfd pf = { fd, POLLIN, 0 };

			if (poll(&pf, 1, 100) > 0 && drain(fd, out, &len, &cap) <= 0)
				open_fd = 0;
		} else {
			usleep(20000);
		}
	}
	running = 0;
	while (open_fd && drain(fd, out, &len, &cap) > 0)
		;
	if (group && got_signal)
		reap_group(pid, deadline > 0 ? deadline : now_s() + grace_s, grace_s);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int run(char *const argv[], char *const env[], char **out, int grace_s, int group)
{
	int fds[2] = { -1, -1 }, rc;
	pid_t pid;

	if (out) {
		*out = calloc(1, 1);
		if (!*out || pipe2(fds, O_CLOEXEC) < 0)
			return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		for (size_t i = 0; i < NSTOP; i++)
			signal(stop_signals[i], SIG_DFL);
		if (group) {
			int null = open("/dev/null", O_RDONLY);

			/* its own group, not the terminal's: no terminal read may stop it for good; its
			 * output on our stderr (our stdout is for what we print: measure's run directory) */
			if (setpgid(0, 0) < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 ||
			    (!out && dup2(STDERR_FILENO, STDOUT_FILENO) < 0))
				_exit(127);
			close(null);
		}
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		if (out && dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "sb-bisect: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (group)
		setpgid(pid, pid);	/* (the child does it too: whichever comes first) */
	termed = 0;
	running_group = group;
	running = pid;
	if (got_signal && !termed) {
		termed = 1;
		kill(group ? -pid : pid, SIGTERM);
	}
	if (out)
		close(fds[1]);
	rc = reap(pid, group, out ? fds[0] : -1, out, grace_s);
	if (out)
		close(fds[0]);
	return rc;
}

int sb_child_run(char *const argv[], char *const env[], char **out, int grace_s)
{
	return run(argv, env, out, grace_s, 0);
}

int sb_child_run_group(char *const argv[], char *const env[], char **out, int grace_s)
{
	return run(argv, env, out, grace_s, 1);
}
