/* unix4: all tasks connect to one shared AF_UNIX listener; each task's partner accepts.
 * Stresses: one listening socket's accept queue and locks, plus unix_stream_connect. */
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Same AF_UNIX listener connect and close, partners accept and close";

static struct sockaddr_un addr = { .sun_family = AF_UNIX };
static int lfd = -1;

void testcase_prepare(unsigned long nr_tasks)
{
	(void)nr_tasks;
	sb_path(addr.sun_path, sizeof(addr.sun_path), "listener");
	/* Made before the tasks, so every task (process or thread) shares it. */
	if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		sb_fatal("socket(AF_UNIX, SOCK_STREAM)");
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		sb_fatal("bind %s", addr.sun_path);
	if (listen(lfd, SOMAXCONN) < 0)
		sb_fatal("listen");
}

static void *acceptor(void *arg)
{
	int a;

	(void)arg;
	for (;;) {
		if ((a = accept(lfd, NULL, NULL)) < 0)
			sb_fatal("partner: accept");
		if (close(a) < 0)
			sb_fatal("partner: close");
	}
	return NULL;
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	int c;

	(void)nr;
	/* One acceptor per task keeps the accepting side as wide as the connecting side. */
	new_task(acceptor, NULL);
	for (;;) {
		/* Blocks while the shared backlog is full: the acceptors set the pace. */
		if ((c = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			sb_fatal("socket(AF_UNIX, SOCK_STREAM)");
		if (connect(c, (struct sockaddr *)&addr, sizeof(addr)) < 0)
			sb_fatal("connect %s", addr.sun_path);
		if (close(c) < 0)
			sb_fatal("close");
		sb_count(iterations);
	}
}

void testcase_cleanup(void)
{
	if (lfd >= 0)
		close(lfd);
}
