/* eventfd1: each task writes 8 bytes to its own eventfd and reads them back.
 * Stresses: eventfd_write/eventfd_read and the eventfd's wait-queue lock, uncontended. */
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "testcase.h"

char *testcase_description = "eventfd read/write of 8 bytes";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	uint64_t one = 1, got;
	int fd = eventfd(0, 0);

	(void)nr;
	if (fd < 0)
		sb_fatal("eventfd");
	for (;;) {
		if (write(fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
			sb_fatal("write 8 bytes to the eventfd");
		if (read(fd, &got, sizeof(got)) != (ssize_t)sizeof(got))
			sb_fatal("read 8 bytes from the eventfd");
		if (got != one)
			sb_fatalx("eventfd read %llu, expected %llu",
				  (unsigned long long)got, (unsigned long long)one);
		sb_count(iterations);
	}
}
