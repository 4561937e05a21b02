/* Running a bisect's build and runtest.sh: signals passed on as SIGTERM, a grace period, then SIGKILL. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bisect/child.h"

static volatile sig_atomic_t got_signal;
static volatile pid_t running;

static void on_signal(int sig)
{
	if (!got_signal)
		got_signal = sig;
	if (running > 0)
		kill(running, SIGTERM);
}

void sb_child_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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

/* Wait for pid, reading fd (or -1) meanwhile; SIGKILL grace_s after a signal. */
static int reap(pid_t pid, int fd, char **out, int grace_s)
{
	size_t len = 0, cap = 0;
	double deadline = 0;
	int status, open_fd = fd >= 0;

	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (got_signal && deadline == 0)
			deadline = now_s() + grace_s;
		if (deadline > 0 && now_s() > deadline) {
			fprintf(stderr, "sb-bisect: child %ld did not end %d s after SIGTERM: SIGKILL\n",
				(long)pid, grace_s);
			kill(pid, SIGKILL);
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
	while (open_fd && drain(fd, out, &len, &cap) > 0)
		;
	running = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int sb_child_run(char *const argv[], char *const env[], char **out, int grace_s)
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
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		if (out && dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "sb-bisect: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	running = pid;
	if (got_signal)
		kill(pid, SIGTERM);
	if (out)
		close(fds[1]);
	rc = reap(pid, out ? fds[0] : -1, out, grace_s);
	if (out)
		close(fds[0]);
	return rc;
}
