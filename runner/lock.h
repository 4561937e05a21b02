/* The machine-wide sweep lock: where it is, who holds it, and the one-line warning of a runner run by hand. */
#ifndef SCALEBENCH_LOCK_H
#define SCALEBENCH_LOCK_H

#include <stddef.h>
#include <sys/types.h>

/* The holder's own words in the lock file (key=value lines); empty fields when unknown. */
struct sb_lock_holder {
	long pid;		/* 0: unknown */
	char test[256];
	char start[64];		/* UTC, 2026-12-04T18:40:00Z */
	char command[1024];
};

/*
 * The lock file's path: $SB_MACHINE_LOCK, else scalebench/scalebench.lock
 * (root) or scalebench-UID/scalebench.lock (another user) in the first of
 * /run/lock, /var/lock and /tmp that is a writable directory (not $TMPDIR,
 * which differs between users). Only its owner can create files in that
 * directory (sb-machine makes and checks it). Returns buf.
 */
const char *sb_lock_path(char *buf, size_t size);

/* Parse the holder's lines from fd (read from offset 0), control characters escaped; 0, or -1 when it names nobody. */
int sb_lock_read_holder(int fd, struct sb_lock_holder *h);

/* "pid 123 (unix1, started 2026-12-04T18:40:00Z)" into buf. */
const char *sb_lock_describe(const struct sb_lock_holder *h, char *buf, size_t size);

/*
 * 1 when a sweep holds the lock now (h filled in), 0 when nobody does or
 * there is no lock file. Tries a shared lock for an instant: never blocks.
 */
int sb_lock_held(struct sb_lock_holder *h);

/*
 * For a runner about to measure: one line on stderr when a sweep holds the
 * machine, unless it is the sweep that started us ($SB_MACHINE_LOCK_HOLDER
 * names its pid, set by runtest.sh for its runners).
 */
void sb_lock_warn_if_held(void);

#endif
