/* File helpers for testcases: paths under sb_tmpdir(), created files, exact I/O. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testcase.h"

void sb_path(char *buf, size_t size, const char *fmt, ...)
{
	const char *dir = sb_tmpdir();
	size_t len = strlen(dir);
	va_list ap;
	int n;

	if (len + 2 > size)
		sb_fatalx("file name too long under %s", dir);
	memcpy(buf, dir, len);
	buf[len] = '/';
	va_start(ap, fmt);
	n = vsnprintf(buf + len + 1, size - len - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - len - 1)
		sb_fatalx("file name too long under %s", dir);
}

int sb_create(const char *path, int flags, off_t fill)
{
	/* Aligned, so that O_DIRECT files can be filled through the same call. */
	enum { CHUNK = 64 * 1024 };
	void *buf = NULL;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | flags, 0600);

	if (fd < 0)
		sb_fatal("create %s", path);
	if (fill > 0) {
		int err = posix_memalign(&buf, 4096, CHUNK);

		if (err)
			sb_fatalx("posix_memalign: %s", strerror(err));
		memset(buf, 'x', CHUNK);
		for (off_t done = 0; done < fill; ) {
			size_t n = fill - done < CHUNK ? (size_t)(fill - done) : CHUNK;

			sb_io(write(fd, buf, n), n, path);
			done += (off_t)n;
		}
		free(buf);
	}
	return fd;
}

void sb_io(ssize_t r, size_t want, const char *what)
{
	if (r < 0)
		sb_fatal("%s", what);
	if ((size_t)r != want)
		sb_fatalx("%s: short transfer (%zd of %zu bytes)", what, r, want);
}
