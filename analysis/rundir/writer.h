/* A run directory's writer: made with its run id, meta set key by key and its status changed, each write a rename. */
#ifndef SCALEBENCH_RUNDIR_WRITER_H
#define SCALEBENCH_RUNDIR_WRITER_H

#include <stddef.h>
#include <time.h>

/* The room kept beside meta (DIR/.meta.reserve) from creation until the final status, which
 * frees it when the disk is full so that `failed` (or `complete`, `interrupted`) still lands. */
#define SB_RUNDIR_RESERVE (64 * 1024)
#define SB_RUNDIR_RESERVE_NAME ".meta.reserve"

/* meta's values, one per key of the table (keys.h); NULL: the key is absent. */
struct sb_meta {
	char **val;
	size_t n;
};

/* Functions returning int: 0, 2 (bad input: the message in err) or 3 (the system's refusal). */

int sb_meta_new(struct sb_meta *m);
void sb_meta_free(struct sb_meta *m);

/* "KEY=VALUE" into m: the key must be in the table, the value on one line;
 * status keys (keys.h) only when allow_status. */
int sb_meta_put(struct sb_meta *m, const char *kv, int allow_status, char *err, size_t errlen);

/* The keys of the meta file at path into m (any key of the table; an unknown one is an error). */
int sb_meta_load(struct sb_meta *m, const char *path, char *err, size_t errlen);

/* m into DIR/meta through a temporary file and a rename. final: the write may use
 * the reserve (it is removed first when the disk is full, and after the write anyway). */
int sb_meta_store(const struct sb_meta *m, const char *dir, int final, char *err, size_t errlen);

/* PARENT/<label>-<stamp>[-N] made (stamp: at, UTC), its meta (m, with run_id, date and
 * status=running) and the reserve; the id into id. Nothing is left behind on failure. */
int sb_rundir_create(const char *parent, const char *label, time_t at, struct sb_meta *m, char *id,
		     size_t idlen, char *err, size_t errlen);

/* PARENT/latest -> id, replaced by a rename. */
int sb_rundir_latest(const char *parent, const char *id, char *err, size_t errlen);

/* 1 when s is a status a run may have (running, complete, failed, interrupted). */
int sb_rundir_status_valid(const char *s);

#endif
