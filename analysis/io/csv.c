/* The CSV scanner every reader of a run's files uses: files mapped or read whole, fields, numbers. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/mman.h>

#ifndef MAP_POPULATE
#define MAP_POPULATE 0	/* a Linux hint: elsewhere the pages are read in as needed */
#endif

#include "csv.h"
#include "number.h"
#include "msg/msg.h"

char *sb_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

int sb_path_exists(const char *dir, const char *name)
{
	char *p = sb_path_join(dir, name);
	struct stat st;
	int ok;

	if (p == NULL)
		return 0;
	ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

const char *sb_file_strerror(int e)
{
	if (e == SB_E_NOTREG)
		return "not a regular file (a FIFO, device or socket is not read)";
	if (e == EFBIG)
		return "larger than 1 GiB: not read";
	return strerror(e);
}

/*
 * path opened for reading and its status: the descriptor, or minus an errno
 * (SB_E_NOTREG, EFBIG). O_NONBLOCK: a FIFO planted in a run directory must
 * not stall the open; only a regular file of a sane size is read (a link to
 * /dev/zero would be read until memory runs out).
 */
static int open_stat(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) != 0) {
		e = errno;
		close(fd);
		return -e;
	}
	e = S_ISDIR(st->st_mode) ? EISDIR : !S_ISREG(st->st_mode) ? SB_E_NOTREG :
	    (unsigned long long)st->st_size > SB_FILE_MAX ? EFBIG : 0;
	if (e != 0) {
		close(fd);
		return -e;
	}
	return fd;
}

/* fd's regular file (its size st_size when opened) into a NUL-terminated buffer. Returns 0 or an errno. */
static int read_fd(int fd, const struct stat *st, char **buf, size_t *len)
{
	size_t cap = st->st_size > 0 ? (size_t)st->st_size + 1 : 4096, n = 0;
	ssize_t got;
	char *b = malloc(cap);

	if (b == NULL)
		return ENOMEM;
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = cap > SB_FILE_MAX ? NULL : realloc(b, cap * 2);

			if (nb == NULL) {
				free(b);
				return cap > SB_FILE_MAX ? EFBIG : ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		got = read(fd, b + n, cap - n - 1);
		if (got < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(b);
			return e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Whole file into a NUL-terminated buffer. Returns 0 or an errno. */
int sb_file_slurp(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd = open_stat(path, &st), e;

	if (fd < 0)
		return -fd;
	e = read_fd(fd, &st, buf, len);
	close(fd);
	return e;
}

FILE *sb_file_stream(const char *path, int *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0 || fstat(fd, &st) != 0) {
		*e = errno;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*e = S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) ? SB_E_NOTREG : 0;
	if (*e == 0 && fcntl(fd, F_SETFL, 0) != 0)	/* blocking again: a pipe's writer is waited for */
		*e = errno;
	if (*e != 0 || (f = fdopen(fd, "r")) == NULL) {
		*e = *e != 0 ? *e : errno;
		close(fd);
		return NULL;
	}
	return f;
}

/*
 * samples.csv can be tens of megabytes: map it rather than copy it. Returns
 * 0 or an errno; *mapped says whether to munmap or free.
 */
int sb_file_map(const char *path, char **buf, size_t *len, int *mapped)
{
	struct stat st;
	void *p;
	int fd = open_stat(path, &st), e;

	*mapped = 0;
	if (fd < 0)
		return -fd;
	if (st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			*buf = p;
			*len = (size_t)st.st_size;
			*mapped = 1;
			return 0;
		}
	}
	e = read_fd(fd, &st, buf, len);
	close(fd);
	return e;
}

int sb_field_long(struct sb_field f, long min, long max, long *out)
{
	long v = 0;

	if (f.s == f.e || f.e - f.s > 12)
		return -1;
	for (const char *c = f.s; c < f.e; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (*c - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * Decimal fields as runtest.sh writes them ("12345.678901") are converted
 * exactly with one division of two exactly representable numbers (correctly
 * rounded, like strtod); anything else goes to strtod. This keeps loading two
 * 96-point runs of 1,000 samples well under the 0.1 s budget.
 */
int sb_field_double(struct sb_field f, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	uint64_t m = 0;
	int digits = 0, frac = -1;
	const char *c;
	char buf[64];
	double d;

	if (f.s == f.e)
		return -1;
	for (c = f.s; c < f.e; c++) {
		if (*c >= '0' && *c <= '9') {
			if (++digits > 15)
				break;
			m = m * 10 + (uint64_t)(*c - '0');
			if (frac >= 0)
				frac++;
		} else if (*c == '.' && frac < 0) {
			frac = 0;
		} else {
			break;
		}
	}
	if (c == f.e && digits > 0) {
		*out = frac > 0 ? (double)m / pow10[frac] : (double)m;
		return 0;
	}
	if (f.e - f.s >= (long)sizeof(buf) || *f.s == ' ' || *f.s == '\t')
		return -1;
	memcpy(buf, f.s, (size_t)(f.e - f.s));
	buf[f.e - f.s] = '\0';
	if (sb_decimal(buf, &d) != 0)	/* no hex, inf or nan */
		return -1;
	*out = d;
	return 0;
}

void sb_file_unmap(char *buf, size_t len, int mapped)
{
	if (mapped)
		munmap(buf, len);
	else
		free(buf);
}

/*
 * A CSV file mapped whole: not empty, ending with a newline (files are
 * renamed into place whole, so a missing one means the file was cut short)
 * and without a NUL byte (a damaged file: a field would end at it).
 * Returns 0, or 2 or 3 with the message in err.
 */
int sb_csv_map(const char *path, char **buf, size_t *len, int *mapped, char *err,
		   size_t errlen)
{
	unsigned long lines = 1;
	const char *nul;
	int e = sb_file_map(path, buf, len, mapped);

	if (e != 0)
		return sb_fail(err, errlen, e == ENOENT || e == EISDIR || e == ENOTDIR || e == SB_E_NOTREG ||
			       e == EFBIG || e == ELOOP ? SB_EXIT_USAGE : SB_EXIT_ENV, "%s: %s", path, sb_file_strerror(e));
	nul = *len > 0 ? memchr(*buf, '\0', *len) : NULL;
	if (nul == NULL && *len > 0 && (*buf)[*len - 1] == '\n')
		return 0;
	for (const char *c = *buf; c < (nul != NULL ? nul : *buf + *len); c++)
		lines += *c == '\n';
	sb_file_unmap(*buf, *len, *mapped);
	if (nul != NULL)	/* a field would end at it: "903\0026.4" read as 903 */
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: a NUL byte: the file is damaged", path, lines);
	if (*len == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:1: empty file (no header)", path);
	return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: last line has no newline: the file is truncated",
		       path, lines);
}

int sb_field_is(struct sb_field f, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(f.e - f.s) == n && memcmp(f.s, s, n) == 0;
}

/* The line [p, le) split at commas into f[0..max-1]; returns how many fields it has. */
int sb_csv_fields(char *p, char *le, struct sb_field *f, int max)
{
	int fi = 0;

	for (;;) {
		char *c = memchr(p, ',', (size_t)(le - p)), *fe = c ? c : le;

		if (fi < max) {
			f[fi].s = p;
			f[fi].e = fe;
		}
		fi++;
		if (c == NULL)
			return fi;
		p = c + 1;
	}
}

