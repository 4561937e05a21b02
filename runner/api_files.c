/* The testcase API's file helpers: paths under sb_tmpdir(), created files, exact I/O, filesystem names. */
/* Apart from api.c: sb_path needs sb_tmpdir(), and only a testcase that uses these should link api_tmpdir.o. */
#define _GNU_SOURCE	/* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os.h"
#include "testcase.h"

void sb_path(char *buf, size_t size, const char *fmt, ...)
{
	const char *dir = sb_tmpdir();
	size_t len = strlen(dir);
	va_list ap;
	int n;

	/* size may be far below PATH_MAX (a socket's sun_path): say what the limit is. */
	if (len + 2 > size)
		sb_fatalx("a path under %s is longer than %zu bytes: use a shorter --param dir",
			  dir, size - 1);
	memcpy(buf, dir, len);
	buf[len] = '/';
	va_start(ap, fmt);
	n = vsnprintf(buf + len + 1, size - len - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - len - 1)
		sb_fatalx("a path under %s is longer than %zu bytes: use a shorter --param dir",
			  dir, size - 1);
}

/*
 * A failed open or fill. EINVAL with O_DIRECT is the filesystem refusing
 * direct I/O, not a bug: name the filesystem, so the user knows to pick
 * another directory.
 */
static __attribute__((noreturn))
void create_failed(const char *path, int flags, const char *what)
{
	if (errno == EINVAL && (flags & O_DIRECT)) {
		const char *slash = strrchr(path, '/');
		char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
				  : strdup(".");

		if (!dir)
			sb_fatal("strdup");
		sb_fatalx("O_DIRECT not supported on %s at %s", sb_fs_name(dir), dir);
	}
	sb_fatal("%s %s", what, path);
}

int sb_create(const char *path, int flags, off_t fill)
{
	/* Aligned, so that O_DIRECT files can be filled through the same call. */
	enum { CHUNK = 64 * 1024 };
	void *buf = NULL;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | flags, 0600);

	if (fd < 0)
		create_failed(path, flags, "create");
	if (fill > 0) {
		int err = posix_memalign(&buf, 4096, CHUNK);

		if (err)
			sb_fatalx("posix_memalign: %s", strerror(err));
		memset(buf, 'x', CHUNK);
		for (off_t done = 0; done < fill; ) {
			size_t n = fill - done < CHUNK ? (size_t)(fill - done) : CHUNK;
			ssize_t r = write(fd, buf, n);

			/* A short write is legal (a filling disk): the next one says why. */
			if (r < 0)
				create_failed(path, flags, "write");
			if (r == 0)
				sb_fatalx("write %s: no progress (0 bytes written)", path);
			done += (off_t)r;
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

const char *sb_fs_name(const char *path)
{
	return sb_os_fs_name(path);
}
