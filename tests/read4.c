/* read4: sequential page-sized O_DIRECT reads through one 1 MB file shared by all tasks.
 * Stresses: the direct I/O read path on one inode (i_rwsem shared, inode dio count, block layer). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "testcase.h"

#define FILESIZE (1024 * 1024)

static char path[PATH_MAX];
static long pg;		/* read size and buffer alignment: a page suits any block size */

char *testcase_description = "Same file O_DIRECT read";

/* A failed or short O_DIRECT call; EINVAL means the filesystem refuses O_DIRECT: name it. */
static void direct_failed(ssize_t r, ssize_t want, const char *what)
{
	static const struct { unsigned long magic; const char *name; } fs[] = {
		{ 0xef53, "ext2/ext3/ext4" }, { 0x58465342, "xfs" }, { 0x9123683e, "btrfs" },
		{ 0x01021994, "tmpfs" }, { 0x858458f6, "ramfs" }, { 0x794c7630, "overlayfs" },
		{ 0x6969, "nfs" }, { 0x2fc12fc1, "zfs" }, { 0xf2f52010, "f2fs" },
	};
	const char *dir = sb_tmpdir();
	struct statfs st;

	if (r >= 0)
		sb_fatalx("%s: short transfer (%zd of %zd bytes)", what, r, want);
	if (errno != EINVAL)
		sb_fatal("%s", what);
	if (statfs(dir, &st) < 0)
		sb_fatal("statfs %s", dir);
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if (((unsigned long)st.f_type & 0xffffffffUL) == fs[i].magic)
			sb_fatalx("O_DIRECT not supported on %s at %s", fs[i].name, dir);
	sb_fatalx("O_DIRECT not supported on filesystem type 0x%lx at %s",
		  (unsigned long)st.f_type & 0xffffffffUL, dir);
}

void testcase_prepare(unsigned long nr_tasks)
{
	static char zeros[FILESIZE];
	int fd;

	(void)nr_tasks;
	if ((pg = sysconf(_SC_PAGESIZE)) <= 0)
		sb_fatal("sysconf(_SC_PAGESIZE)");
	if ((size_t)snprintf(path, sizeof(path), "%s/shared", sb_tmpdir()) >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0)
		sb_fatal("open %s", path);
	if (write(fd, zeros, FILESIZE) != FILESIZE || fsync(fd) < 0 || close(fd) < 0)
		sb_fatal("writing %s", path);
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	void *buf;
	ssize_t r;
	int fd;

	(void)nr;
	if ((errno = posix_memalign(&buf, pg, pg)) != 0)
		sb_fatal("posix_memalign");
	if ((fd = open(path, O_RDONLY | O_DIRECT)) < 0)
		direct_failed(-1, 0, "open with O_DIRECT");
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, pg)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0 && r != pg)
			direct_failed(r, pg, "O_DIRECT read");
		sb_count(iterations);
	}
}
