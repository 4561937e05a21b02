/* unix3: each task connects to its own listening AF_UNIX socket, accepts, and closes both ends.
 * Stresses: unix_stream_connect, accept and socket release (the bound-socket table lock). */
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "Separate AF_UNIX listener connect, accept, close both";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int lfd, c, a;

	sb_path(addr.sun_path, sizeof(addr.sun_path), "sock%lu", nr);
	if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		sb_fatal("socket(AF_UNIX, SOCK_STREAM)");
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		sb_fatal("bind %s", addr.sun_path);
	if (listen(lfd, SOMAXCONN) < 0)
		sb_fatal("listen");
	for (;;) {
		/* connect() returns once the connection is queued, so one task plays both sides. */
		if ((c = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			sb_fatal("socket(AF_UNIX, SOCK_STREAM)");
		if (connect(c, (struct sockaddr *)&addr, sizeof(addr)) < 0)
			sb_fatal("connect %s", addr.sun_path);
		if ((a = accept(lfd, NULL, NULL)) < 0)
			sb_fatal("accept");
		if (close(a) < 0 || close(c) < 0)
			sb_fatal("close");
		sb_count(iterations);
	}
}
