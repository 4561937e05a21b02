/* lseek1: each task seeks to the start of its own 4 KiB file.
 * Stresses: the lseek syscall path: fdget_pos, generic_file_llseek and the file's f_pos. */
#include <limits.h>
#include <unistd.h>

#include "testcase.h"

#define FILE_SIZE 4096

char *testcase_description = "Separate file lseek";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, FILE_SIZE);
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	for (;;) {
		if (lseek(fd, 0, SEEK_SET) != 0)
			sb_fatal("lseek to 0");
		sb_count(iterations);
	}
}
