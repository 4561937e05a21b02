/* unix5: each task connects a new AF_UNIX datagram socket to one of a few shared receivers, sends, closes; partners drain.
 * Stresses: unix_dgram_connect and unix_release_sock (FreeBSD: unp_connectat, uipc_disconnect) on a few shared receivers' locks and peer lists. */
/* Reproduces: the AF_UNIX datagram connect stress test that, after the FreeBSD AF_UNIX locking
 *   change, panicked in unp_connectat and then in uipc_disconnect called from close: datagram
 *   sockets connecting to shared bound datagram sockets while others send and close.
 * Differs: it is a rate as well as a stress: every iteration is socket(), connect() to a random
 *   one of `receivers` shared sockets, a 1-byte non-blocking send() and close(), and only the
 *   cycles whose datagram was taken count; the receivers stay bound for the whole run, drained
 *   by one partner per task, so connect races the senders' close, never a receiver going away;
 *   a full receiver refuses the send (EAGAIN) instead of blocking the sender.
 * Run: ./runtest.sh unix5 --points topology
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "testcase.h"
#include "dgram_full.h"

/*
 * The datagram often outlives its sender: the closed socket is freed by the
 * receiver's partner when it reads it, on the partner's CPU.
 *
 * What errors are expected. The receivers are bound in testcase_prepare
 * and stay open in the runner for the whole run, so socket, connect and
 * close have none: ECONNREFUSED or ENOENT from connect would mean the kernel
 * lost a bound socket, and ends the run naming the call, like any other
 * errno. The send is non-blocking: a receiver whose queue is full (its
 * partners are behind, e.g. oversubscribed) refuses it with EAGAIN (Linux,
 * net.unix.max_dgram_qlen) or ENOBUFS (FreeBSD); that cycle still connected
 * and closed, but only cycles whose datagram was taken count, and a note
 * says when refusals are common (dgram_full.h). The partners' recv() may
 * find nothing (EAGAIN) when another partner of the same receiver was
 * first. Nothing ever blocks but a partner waiting in poll().
 */
char *testcase_description = "New AF_UNIX datagram socket per send to one of 2 shared receivers, connect then send then close";

#define MAX_RECEIVERS 64
SB_PARAM_INT(receivers, 2, 1, MAX_RECEIVERS, "shared bound datagram sockets the tasks connect to");

static struct sockaddr_un addr[MAX_RECEIVERS];
static int rfd[MAX_RECEIVERS];
static unsigned long ntasks, nrecv;
static char desc[160];

void testcase_prepare(unsigned long nr_tasks)
{
	ntasks = nr_tasks;
	nrecv = (unsigned long)receivers;
	snprintf(desc, sizeof(desc), "New AF_UNIX datagram socket per send to one of %lu shared receiver%s, "
		 "connect then send then close", nrecv, nrecv == 1 ? "" : "s");
	testcase_description = desc;
	/* Made before the tasks, so that every task and partner shares them. */
	for (unsigned long r = 0; r < nrecv; r++) {
		addr[r].sun_family = AF_UNIX;
		sb_path(addr[r].sun_path, sizeof(addr[r].sun_path), "receiver%lu", r);
		if ((rfd[r] = socket(AF_UNIX, SOCK_DGRAM, 0)) < 0)
			sb_fatal("socket(AF_UNIX, SOCK_DGRAM)");
		if (bind(rfd[r], (struct sockaddr *)&addr[r], sizeof(addr[r])) < 0)
			sb_fatal("bind %s", addr[r].sun_path);
	}
	dgram_full_prepare();
}

/*
 * Task nr's partner drains receiver nr % receivers, so every receiver has
 * tasks / receivers partners; with fewer tasks than receivers, partner nr
 * drains every receiver r with r % tasks == nr, so none is left undrained.
 */
static void *drainer(void *arg)
{
	unsigned long nr = (unsigned long)arg;
	struct pollfd pfd[MAX_RECEIVERS];
	nfds_t n = 0;
	char c;

	for (unsigned long r = 0; r < nrecv; r++)
		if (r % ntasks == nr % nrecv)
			pfd[n++] = (struct pollfd){ .fd = rfd[r], .events = POLLIN };
	for (;;) {
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			sb_fatal("partner: poll on the receivers");
		}
		for (nfds_t i = 0; i < n; i++) {
			ssize_t got;

			if (!pfd[i].revents)
				continue;
			while ((got = recv(pfd[i].fd, &c, 1, MSG_DONTWAIT)) >= 0)
				sb_io(got, 1, "partner: recv on a receiver");
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				sb_fatal("partner: recv on a receiver");
		}
	}
	return NULL;
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned long long rnd = nr * 0x9e3779b97f4a7c15ull + 1, tried = 0, refused = 0;
	char c = 0;

	new_task(drainer, (void *)nr);
	for (;;) {
		unsigned long r;
		ssize_t sent;
		int fd;

		rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;	/* xorshift64 */
		r = rnd % nrecv;
		if ((fd = socket(AF_UNIX, SOCK_DGRAM, 0)) < 0)
			sb_fatal("socket(AF_UNIX, SOCK_DGRAM)");
		if (connect(fd, (struct sockaddr *)&addr[r], sizeof(addr[r])) < 0)
			sb_fatal("connect to receiver %lu (%s)", r, addr[r].sun_path);
		sent = send(fd, &c, 1, MSG_DONTWAIT);
		if (sent < 0 && dgram_full(errno))
			refused++;
		else
			sb_io(sent, 1, "send to a receiver");
		if (close(fd) < 0)
			sb_fatal("close");
		if (sent == 1)
			sb_count(iterations);
		if (++tried % DGRAM_FULL_EVERY == 0)
			dgram_full_note("unix5", tried, refused, "those cycles connected and closed but do not count");
	}
}
