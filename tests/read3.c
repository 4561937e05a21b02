/* read3: sequential page-sized O_DIRECT reads through a 1 MB file, each task on its own file.
 * Stresses: the direct I/O read path (iomap/block layer, no page cache), nothing shared. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "testcase.h"

#define FILESIZE (1024 * 1024)

char *testcase_description = "Separate file O_DIRECT read";

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
	(void)nr_tasks;
	(void)sb_tmpdir();
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	long pg = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX];
	void *buf;
	ssize_t r;
	int fd;

	/* O_DIRECT needs aligned buffers; a page suits every logical block size. */
	if (pg <= 0 || (errno = posix_memalign(&buf, pg, FILESIZE)) != 0)
		sb_fatal("page-aligned buffer");
	memset(buf, 0, FILESIZE);
	if ((size_t)snprintf(path, sizeof(path), "%s/task%lu", sb_tmpdir(), nr) >= sizeof(path))
		sb_fatalx("file name too long under %s", sb_tmpdir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT, 0600)) < 0)
		direct_failed(-1, 0, "open with O_DIRECT");
	if (unlink(path) < 0)
		sb_fatal("unlink %s", path);
	/* Written with O_DIRECT too: the reads find the data on the device, not in the page cache. */
	if ((r = write(fd, buf, FILESIZE)) != FILESIZE)
		direct_failed(r, FILESIZE, "O_DIRECT write");
	for (;;) {
		/* As in will-it-scale, the read that finds the end of the file counts too. */
		if ((r = read(fd, buf, pg)) == 0 && lseek(fd, 0, SEEK_SET) < 0)
			sb_fatal("lseek");
		if (r != 0 && r != pg)
			direct_failed(r, pg, "O_DIRECT read");
		sb_count(iterations);
	}
}
