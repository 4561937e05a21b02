/* The janitor: a small process that removes the runner's private directory once the runner and its tasks are gone, even after SIGKILL. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "janitor.h"

/*
 * The runner holds one end of a socket pair, the janitor the other. Tasks
 * and partners inherit the runner's end, so the janitor reads end-of-file
 * only when the runner and all of them are gone (killed or not): only then
 * is nothing left that could still be writing into the directory. A byte
 * instead means the runner removed the directory itself.
 */
static int runner_end = -1;

struct answer {
	int err;
	char path[PATH_MAX];
};

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	(void)remove(p);
	return 0;
}

void sb_remove_tree(const char *dir)
{
	(void)nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Keep only fd: the runner's output must not stay open (a reader would wait for us). */
static void close_others(int fd)
{
	int null = open("/dev/null", O_RDWR);
	DIR *d;

	if (null >= 0) {
		for (int i = 0; i < 3; i++)
			if (i != fd)
				(void)dup2(null, i);
		if (null > 2 && null != fd)
			close(null);
	}
	if ((d = opendir("/dev/fd")) != NULL) {
		int skip = dirfd(d);
		struct dirent *e;
		int n = 0, fds[4096];

		/* Collect first: closing while reading would disturb the listing. */
		while ((e = readdir(d)) != NULL && n < (int)(sizeof(fds) / sizeof(fds[0]))) {
			int i = atoi(e->d_name);

			if (e->d_name[0] != '.' && i > 2 && i != fd && i != skip)
				fds[n++] = i;
		}
		closedir(d);
		for (int i = 0; i < n; i++)
			close(fds[i]);
	} else {
		for (int i = 3; i < 65536; i++)
			if (i != fd)
				close(i);
	}
}

static void janitor(int fd, char *tmpl) __attribute__((noreturn));
static void janitor(int fd, char *tmpl)
{
	struct answer a = { 0, "" };
	ssize_t r;
	char c;

	/* Out of the runner's session: a ^C at the terminal is the runner's business. */
	(void)setsid();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	close_others(fd);
	if (!mkdtemp(tmpl))
		a.err = errno;
	else
		strncpy(a.path, tmpl, sizeof(a.path) - 1);
	if (write(fd, &a, sizeof(a)) != (ssize_t)sizeof(a) || a.err) {
		if (!a.err)
			sb_remove_tree(tmpl);
		_exit(0);
	}
	while ((r = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)	/* end of file (or a broken socket): nobody will remove it but us */
		sb_remove_tree(tmpl);
	_exit(0);
}

int sb_janitor_mkdtemp(char *tmpl)
{
	struct answer a;
	int sv[2], status, e;
	size_t got = 0;
	pid_t mid;

	if (strlen(tmpl) >= sizeof(a.path))
		return ENAMETOOLONG;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return errno;
	/* Two forks: the janitor is nobody's child here, never reaped with the tasks. */
	if ((mid = fork()) < 0) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		return e;
	}
	if (mid == 0) {
		pid_t j = fork();

		if (j == 0) {
			close(sv[0]);
			janitor(sv[1], tmpl);
		}
		_exit(j < 0);
	}
	close(sv[1]);
	while (waitpid(mid, &status, 0) < 0 && errno == EINTR)
		;
	while (got < sizeof(a)) {
		ssize_t r = read(sv[0], (char *)&a + got, sizeof(a) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got < sizeof(a) || a.err) {
		close(sv[0]);
		return got < sizeof(a) ? EAGAIN : a.err;
	}
	memcpy(tmpl, a.path, strlen(a.path) + 1);
	runner_end = sv[0];
	return 0;
}

void sb_janitor_release(void)
{
	char c = 1;

	if (runner_end < 0)
		return;
	if (write(runner_end, &c, 1) != 1) {
		/* It is gone already, or will remove an already removed directory. */
	}
	close(runner_end);
	runner_end = -1;
}
