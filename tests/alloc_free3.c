/* alloc_free3: each task sends datagrams to random other tasks' AF_UNIX sockets and drains its own.
 * Stresses: the kernel allocator's remote free: skbs (FreeBSD: mbufs) allocated on the sender's CPU, freed on the receiver's. */
/* Reproduces: the FreeBSD UMA cross-domain free experiment, a kernel module that allocated 2 KB
 *   network buffers, appended each to a random other CPU's queue and drained its own, so that
 *   most frees were remote (cross-NUMA-domain with tasks spread; the UMA change took that run
 *   from 40 s to 5 s). Here send() allocates the datagram's buffer on the sender's CPU and the
 *   receiver's recv() frees it on the receiver's.
 * Differs: the buffer goes through the socket layer, so each one also pays two system calls,
 *   a copy in and a copy out, the receiver's queue lock and the sender's socket accounting (the
 *   kernel charges the buffer to the sender until the receiver frees it); it is an skb (Linux)
 *   or mbuf chain (FreeBSD) of `size` bytes rather than a bare 2 KB cluster; a receiver's queue
 *   is bounded, and a send it refuses is dropped (full=0) or retried after the sender drains
 *   its own (full=1); one operation is one datagram received, not one allocate-and-free pair.
 * Run: ./runtest.sh alloc_free3 --points topology --placement spread
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "testcase.h"
#include "dgram_full.h"

/*
 * Each task binds its own socket under sb_tmpdir(), after it is pinned, so
 * that the socket lives on the task's node. A filesystem name rather than
 * Linux's abstract namespace: FreeBSD, the experiment's kernel, has no abstract
 * namespace, the runner removes the directory however the run ends, and an
 * abstract name could collide with another run's. Names are looked up once:
 * before it starts, each task connects one sending socket to every peer, so
 * that a send is a send, not a path walk and a socket lookup.
 *
 * A full receiver (dgram_full.h) never blocks a sender: with full=0 the
 * datagram is dropped, with full=1 the sender drains its own socket and
 * sends it again. Either way no task ever waits on another, and only
 * received datagrams count.
 */
char *testcase_description = "AF_UNIX datagrams of 2048 bytes to random other tasks, each task drains its own socket";

SB_PARAM_INT(size, 2048, 1, 1 << 20, "datagram size in bytes (the UMA experiment's network buffers were 2 KB)");
SB_PARAM_INT(peers, 0, 0, 1 << 20, "tasks each task sends to: 0 all the others, K the next K tasks "
	     "(wrapping; more than the others means all); a lone task sends to itself");
SB_PARAM_INT(batch, 1, 1, 1024, "datagrams sent between two drains of the task's own socket");
SB_PARAM_INT(full, 0, 0, 1, "what a sender does when the receiver's queue is full: 0 drop the datagram (not counted), "
	     "1 drain its own socket and send it again");

static struct { unsigned long bound; } *sh;
static unsigned long ntasks, npeers;
static char desc[192];

/* The descriptors one process needs: in threads mode every task's are in one table. */
static void check_nofile(void)
{
	unsigned long long need = (npeers + 1) * (sb_threads_mode() ? ntasks : 1) + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		sb_fatal("getrlimit(RLIMIT_NOFILE)");
	if (rl.rlim_cur != RLIM_INFINITY && need > rl.rlim_cur)
		sb_fatalx("%lu tasks sending to %lu peers each need about %llu descriptors in one process, "
			  "RLIMIT_NOFILE is %llu: use --param peers=K, processes or a higher ulimit -n",
			  ntasks, npeers, need, (unsigned long long)rl.rlim_cur);
}

/* One datagram of `size` must fit an empty socket, or every send would be refused forever. */
static void check_size(void)
{
	char *buf = calloc(1, (size_t)size);
	int fd[2], sndbuf = 0;
	socklen_t len = sizeof(sndbuf);
	ssize_t r;

	if (!buf)
		sb_fatal("malloc(%lld)", size);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, fd) < 0)
		sb_fatal("socketpair(AF_UNIX, SOCK_DGRAM)");
	if (getsockopt(fd[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, &len) < 0)
		sb_fatal("getsockopt(SO_SNDBUF)");
	r = send(fd[0], buf, (size_t)size, MSG_DONTWAIT);
	if (r < 0 && (errno == EMSGSIZE || dgram_full(errno)))
		sb_fatal("--param size=%lld: an empty AF_UNIX socket refuses a datagram that large "
			 "(its send buffer is %d bytes: net.core.wmem_default on Linux)", size, sndbuf);
	sb_io(r, (size_t)size, "send to a socketpair");
	if (close(fd[0]) < 0 || close(fd[1]) < 0)
		sb_fatal("close");
	free(buf);
}

void testcase_prepare(unsigned long nr_tasks)
{
	struct sockaddr_un addr;

	ntasks = nr_tasks;
	if (ntasks == 1)
		npeers = 1;
	else if (peers == 0 || (unsigned long long)peers > ntasks - 1)
		npeers = ntasks - 1;
	else
		npeers = (unsigned long)peers;
	if (ntasks == 1)
		snprintf(desc, sizeof(desc), "AF_UNIX datagrams of %lld bytes from a lone task to itself", size);
	else if (npeers == ntasks - 1)
		snprintf(desc, sizeof(desc), "AF_UNIX datagrams of %lld bytes to random other tasks, "
			 "each task drains its own socket", size);
	else
		snprintf(desc, sizeof(desc), "AF_UNIX datagrams of %lld bytes to a random one of the next "
			 "%lu task%s, each task drains its own socket", size, npeers, npeers == 1 ? "" : "s");
	testcase_description = desc;
	/* The longest socket name, here rather than in a task: a too long --param dir is the user's. */
	sb_path(addr.sun_path, sizeof(addr.sun_path), "task%lu", ntasks - 1);
	check_nofile();
	check_size();
	sh = sb_shared_alloc(sizeof(*sh));
	dgram_full_prepare();
}

/* Everything queued on the task's own socket: the frees on this CPU. */
static unsigned long long drain(int fd, char *buf)
{
	unsigned long long n = 0;
	ssize_t r;

	while ((r = recv(fd, buf, (size_t)size, MSG_DONTWAIT)) >= 0) {
		sb_io(r, (size_t)size, "recv on the task's own socket");
		n++;
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		sb_fatal("recv on the task's own socket");
	return n;
}

/* Binds this task's socket, waits for every other task's, and connects one socket to each peer. */
static int *connect_peers(unsigned long nr, int *own)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int *to = malloc(npeers * sizeof(*to));

	if (!to)
		sb_fatal("malloc");
	sb_path(addr.sun_path, sizeof(addr.sun_path), "task%lu", nr);
	if ((*own = socket(AF_UNIX, SOCK_DGRAM, 0)) < 0)
		sb_fatal("socket(AF_UNIX, SOCK_DGRAM)");
	if (bind(*own, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		sb_fatal("bind %s", addr.sun_path);
	__atomic_add_fetch(&sh->bound, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&sh->bound, __ATOMIC_ACQUIRE) < ntasks)
		sched_yield();	/* a few scheduler ticks at most: every task is already running */
	for (unsigned long k = 0; k < npeers; k++) {
		unsigned long peer = ntasks == 1 ? nr : (nr + 1 + k) % ntasks;

		sb_path(addr.sun_path, sizeof(addr.sun_path), "task%lu", peer);
		if ((to[k] = socket(AF_UNIX, SOCK_DGRAM, 0)) < 0)
			sb_fatal("socket(AF_UNIX, SOCK_DGRAM)");
		if (connect(to[k], (struct sockaddr *)&addr, sizeof(addr)) < 0)
			sb_fatal("connect to task %lu (%s)", peer, addr.sun_path);
	}
	return to;
}

/* One send: 1 if the peer took the datagram, 0 if its queue was full. */
static int send_one(int fd, const char *buf)
{
	ssize_t r = send(fd, buf, (size_t)size, MSG_DONTWAIT);

	if (r < 0 && dgram_full(errno))
		return 0;
	sb_io(r, (size_t)size, "send to a peer");
	return 1;
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned long long rnd = nr * 0x9e3779b97f4a7c15ull + 1, tried = 0, refused = 0;
	const char *then = full ? "the sender drained its own socket and sent again"
				: "those datagrams were dropped, not counted";
	char *buf = malloc((size_t)size);
	int own, *to;

	if (!buf)
		sb_fatal("malloc(%lld)", size);
	memset(buf, 'x', (size_t)size);
	to = connect_peers(nr, &own);
	for (;;) {
		for (long long b = 0; b < batch; b++) {
			int fd, sent;

			rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;	/* xorshift64 */
			fd = to[rnd % npeers];
			do {
				sent = send_one(fd, buf);
				refused += !sent;
				if (++tried % DGRAM_FULL_EVERY == 0)
					dgram_full_note("alloc_free3", tried, refused, then);
				if (!sent && full)	/* make room for the peer that may be waiting on us */
					sb_count_n(iterations, drain(own, buf));
			} while (!sent && full);
		}
		sb_count_n(iterations, drain(own, buf));
	}
}
