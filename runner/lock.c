/* The machine-wide sweep lock: its path, its holder's lines, and a runner's warning when a sweep holds it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lock.h"
#include "util.h"

static int writable_dir(const char *d)
{
	return access(d, W_OK | X_OK) == 0;
}

/* A directory only root may create entries in (root's, no group or other write bit): /run. */
static int root_only_dir(const char *d)
{
	struct stat st;

	return stat(d, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

const char *sb_lock_path(char *buf, size_t size)
{
	/* root's: in a directory of its own where only root can create it (never /run/lock, 1777) */
	static const char *const root_dirs[] = { "/run", "/var/run" };
	static const char *const dirs[] = { "/run/lock", "/var/lock", "/tmp" };
	const char *env = getenv("SB_MACHINE_LOCK");
	const char *top = getenv("SB_MACHINE_ROOT");
	char base[4096];

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return buf;
	}
	if (!top)
		top = "";
	if (geteuid() == 0) {
		snprintf(buf, size, "%s%s/scalebench/scalebench.lock", top, root_dirs[0]);
		for (size_t i = 0; i < sizeof(root_dirs) / sizeof(root_dirs[0]); i++) {
			snprintf(base, sizeof(base), "%s%s", top, root_dirs[i]);
			if (root_only_dir(base)) {
				snprintf(buf, size, "%s/scalebench/scalebench.lock", base);
				break;
			}
		}
		return buf;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(base, sizeof(base), "%s%s", top, dirs[i]);
		if (writable_dir(base) || i + 1 == sizeof(dirs) / sizeof(dirs[0])) {
			snprintf(buf, size, "%s/scalebench-%ld/scalebench.lock", base, (long)geteuid());
			break;
		}
	}
	return buf;
}

/* Another user's words are shown escaped: a control character never reaches the terminal raw. */
static void field(char *dst, size_t size, const char *v)
{
	size_t n = 0;

	for (; *v && n + 5 < size; v++) {
		unsigned char c = (unsigned char)*v;

		if (c < 0x20 || c == 0x7f || c == '\\')
			n += (size_t)snprintf(dst + n, size - n, "\\x%02x", c);
		else
			dst[n++] = (char)c;
	}
	dst[n] = '\0';
}

int sb_lock_read_holder(int fd, struct sb_lock_holder *h)
{
	char buf[4096], *line, *save = NULL;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	memset(h, 0, sizeof(*h));
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(line, "pid") == 0)
			h->pid = strtol(eq + 1, NULL, 10);
		else if (strcmp(line, "test") == 0)
			field(h->test, sizeof(h->test), eq + 1);
		else if (strcmp(line, "start") == 0)
			field(h->start, sizeof(h->start), eq + 1);
		else if (strcmp(line, "command") == 0)
			field(h->command, sizeof(h->command), eq + 1);
	}
	return h->pid > 0 ? 0 : -1;
}

const char *sb_lock_describe(const struct sb_lock_holder *h, char *buf, size_t size)
{
	if (h->pid <= 0)
		snprintf(buf, size, "a sweep that did not say who it is");
	else
		snprintf(buf, size, "pid %ld (%s, started %s)", h->pid, h->test[0] ? h->test : "testcase unknown",
			 h->start[0] ? h->start : "at an unknown time");
	return buf;
}

/*
 * Whether anyone holds fd's lock, shared or exclusive (a process holding it
 * shared stalls every sweep: a shared probe would not see it). A holder that
 * wrote no name is looked at again for 100 ms: another probe holds it for an
 * instant, and a sweep writes its name just after it takes it.
 */
static int probe(int fd, struct sb_lock_holder *h)
{
	struct timespec pause = { 0, 5 * 1000000L };

	for (int i = 0; i < 20; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			flock(fd, LOCK_UN);
			return 0;
		}
		if (errno != EWOULDBLOCK)
			return 0;
		if (sb_lock_read_holder(fd, h) == 0)
			return 1;
		nanosleep(&pause, NULL);
	}
	return 1;
}

int sb_lock_held(struct sb_lock_holder *h)
{
	char path[4096];
	struct stat st;
	int fd, held;

	memset(h, 0, sizeof(*h));
	fd = open(sb_lock_path(path, sizeof(path)), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	held = probe(fd, h);
	close(fd);
	return held;
}

void sb_lock_warn_if_held(void)
{
	struct sb_lock_holder h;
	const char *ours = getenv("SB_MACHINE_LOCK_HOLDER");
	char who[1400];

	if (!sb_lock_held(&h))
		return;
	if (ours && h.pid > 0 && strtol(ours, NULL, 10) == h.pid)
		return;
	sb_warn("warning: a sweep holds this machine, %s: this run measures on top of it",
		sb_lock_describe(&h, who, sizeof(who)));
}
