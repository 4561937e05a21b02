/* The machine's shared state (the lock, --tune's saved settings) in places no other local user can plant or change. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefile.h"

static int fail(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

int sb_safe_dir(const char *dir, char *why, size_t size)
{
	int root = geteuid() == 0;
	char copy[4096];
	const char *parent;
	struct stat st;

	/* root's: only root may create it (its parent root's alone, like /run) or enter it */
	snprintf(copy, sizeof(copy), "%s", dir);
	parent = dirname(copy);
	if (root && (stat(parent, &st) < 0 || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))))
		return fail(why, size, "%s is not a directory only root may write (another user could make or "
			    "replace %s): root's lock belongs in /run", parent, dir);
	if (mkdir(dir, root ? 0700 : 0755) < 0 && errno != EEXIST)
		return fail(why, size, "cannot make the directory %s: %s", dir, strerror(errno));
	if (lstat(dir, &st) < 0)
		return fail(why, size, "%s: %s", dir, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return fail(why, size, "%s is a symbolic link (planted by another user?)", dir);
	if (!S_ISDIR(st.st_mode))
		return fail(why, size, "%s is not a directory", dir);
	if (st.st_uid != geteuid())
		return fail(why, size, "%s is owned by uid %ld, not this user (made by another user?)", dir,
			    (long)st.st_uid);
	if (root && (st.st_mode & (S_IRWXG | S_IRWXO)))
		return fail(why, size, "%s may be entered by others (mode %lo): root's lock directory must be "
			    "0700, so that no other user can open the lock and stall root's sweeps", dir,
			    (unsigned long)(st.st_mode & 07777));
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return fail(why, size, "%s may be written by others (mode %lo): make it 0755", dir,
			    (unsigned long)(st.st_mode & 07777));
	return 0;
}

int sb_safe_parent(const char *path, char *why, size_t size)
{
	char copy[4096];
	struct stat st;
	const char *dir;

	snprintf(copy, sizeof(copy), "%s", path);
	dir = dirname(copy);
	if (stat(dir, &st) < 0)
		return fail(why, size, "%s: %s", dir, strerror(errno));
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return fail(why, size, "its directory %s belongs to uid %ld, neither this user nor root", dir,
			    (long)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return fail(why, size, "its directory %s may be written by others and is not sticky (mode %lo)", dir,
			    (unsigned long)(st.st_mode & 07777));
	return 0;
}

int sb_safe_fd(int fd, char *why, size_t size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return fail(why, size, "fstat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(why, size, "not a regular file");
	if (st.st_uid != geteuid())
		return fail(why, size, "owned by uid %ld, not this user", (long)st.st_uid);
	if (st.st_nlink != 1)
		return fail(why, size, "%ld links (a hard link to another file?)", (long)st.st_nlink);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return fail(why, size, "writable by others (mode %lo)", (unsigned long)(st.st_mode & 07777));
	return 0;
}

int sb_safe_open(const char *path, int flags, int create, int *created, char *why, size_t size)
{
	int fd = -1, e;

	if (created)
		*created = 0;
	if (create) {
		fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 && created)
			*created = 1;
	}
	if (fd < 0 && (!create || errno == EEXIST))
		fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(why, size, "%s", e == ELOOP ? "a symbolic link (planted by another user?)" : strerror(e));
		errno = e;
		return -1;
	}
	if (sb_safe_fd(fd, why, size) < 0) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int sb_safe_same(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
