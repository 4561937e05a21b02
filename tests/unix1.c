/* unix1: one AF_UNIX stream socketpair per task; write one byte, read it back.
 * Stresses: unix_stream_sendmsg/recvmsg and skb allocation, uncontended. */
#include <sys/socket.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "unix domain socket read/write";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	int fd[2];
	char c = 0;

	(void)nr;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd) < 0)
		sb_fatal("socketpair(AF_UNIX, SOCK_STREAM)");
	for (;;) {
		if (write(fd[1], &c, 1) != 1)
			sb_fatal("write to the socket");
		if (read(fd[0], &c, 1) != 1)
			sb_fatal("read from the socket");
		sb_count(iterations);
	}
}
