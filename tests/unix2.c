/* unix2: one AF_UNIX datagram socketpair per task; send one byte, receive it.
 * Stresses: unix_dgram_sendmsg/recvmsg and skb allocation, uncontended. */
#include <sys/socket.h>

#include "testcase.h"

char *testcase_description = "Separate AF_UNIX datagram socketpair 1 byte send then recv";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	int fd[2];
	char c = 0;

	(void)nr;
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, fd) < 0)
		sb_fatal("socketpair(AF_UNIX, SOCK_DGRAM)");
	for (;;) {
		if (send(fd[1], &c, 1, 0) != 1)
			sb_fatal("send on the socket");
		if (recv(fd[0], &c, 1, 0) != 1)
			sb_fatal("recv on the socket");
		sb_count(iterations);
	}
}
