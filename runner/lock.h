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
 * The lock file's path: $SB_MACHINE_LOCK, else root's
 * /run/scalebench/scalebench.lock (/var/run where /run is not a directory
 * only root may write), in a 0700 directory no other user can create or
 * enter; another user's scalebench-UID/scalebench.lock in the first of
 * /run/lock, /var/lock and /tmp that is a writable directory (not $TMPDIR,
 * which differs between users). Only its owner can create files in that
 * directory (sb-machine makes and checks it). $SB_MACHINE_ROOT prefixes
 * those directories (the selftests' stand-in for /). Returns buf.
 */
const char *sb_lock_path(char *buf, size_t size);

/* Parse the holder's lines from fd (read from offset 0), control characters escaped; 0, or -1 when it names nobody. */
int sb_lock_read_holder(int fd, struct sb_lock_holder *h);

/* "pid 123 (unix1, started 2026-12-04T18:40:00Z)" into buf. */
const char *sb_lock_describe(const struct sb_lock_holder *h, char *buf, size_t size);

/*
 * 1 when anyone holds the lock now, shared or exclusive (h filled in; pid 0
 * when the holder wrote no name), 0 when nobody does or there is no lock
 * file this user can open. Tries an exclusive lock for an instant (for up to
 * 100 ms while the holder names nobody): never blocks.
 */
int sb_lock_held(struct sb_lock_holder *h);

/*
 * For a runner about to measure: one line on stderr when a sweep holds the
 * machine, unless it is the sweep that started us ($SB_MACHINE_LOCK_HOLDER
 * names its pid, set by runtest.sh for its runners).
 */
void sb_lock_warn_if_held(void);

#endif
