/* The machine's shared state (the lock, --tune's saved settings) in places no other local user can plant or change. */
#ifndef SCALEBENCH_SAFEFILE_H
#define SCALEBENCH_SAFEFILE_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * The lock's directory for the default path: made when missing, then checked:
 * a directory (not a symbolic link) owned by this user, that no group or
 * other may write. root's (/run/scalebench) is made 0700 in a parent only root
 * may write, and must stay 0700: no other user can create it, or open the lock
 * in it (a shared flock on it stalled every root sweep). Another user's
 * (<base>/scalebench-UID) is made 0755. 0, or -1 with the reason in why.
 */
int sb_safe_dir(const char *dir, char *why, size_t size);

/*
 * The directory holding a file named by the user (SB_MACHINE_LOCK): owned by
 * this user or root, and sticky if anyone else may write it (so that nobody
 * can replace the file once it is there). 0, or -1 with why.
 */
int sb_safe_parent(const char *path, char *why, size_t size);

/* An open file of ours: regular, owned by this user, one link, no write bit for group or other. */
int sb_safe_fd(int fd, char *why, size_t size);

/*
 * Open path (O_RDONLY or O_WRONLY in flags) never through a symbolic link,
 * never blocking on a FIFO, close-on-exec, and keep it only when sb_safe_fd
 * accepts it. create: make it (0644, O_EXCL) when missing, *created set.
 * The descriptor, or -1 with errno (ENOENT: missing, not created) and why.
 */
int sb_safe_open(const char *path, int flags, int create, int *created, char *why, size_t size);

/* 1 when fd and path are the same file now (path not followed through a link). */
int sb_safe_same(int fd, const char *path);

#endif
