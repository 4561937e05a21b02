/* pipe1: one pipe per task; write one byte into it and read it back.
 * Stresses: pipe_write/pipe_read and the per-pipe mutex, uncontended. */
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "pipe read/write";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	int fd[2];
	char c = 0;

	(void)nr;
	if (pipe(fd) < 0)
		sb_fatal("pipe");
	for (;;) {
		if (write(fd[1], &c, 1) != 1)
			sb_fatal("write to the pipe");
		if (read(fd[0], &c, 1) != 1)
			sb_fatal("read from the pipe");
		sb_count(iterations);
	}
}
