/* The keys of a run directory's meta, declared once: name, who sets it, meaning (results/README.md's table). */
#ifndef SCALEBENCH_RUNDIR_KEYS_H
#define SCALEBENCH_RUNDIR_KEYS_H

#include <stddef.h>
#include <stdio.h>

struct sb_meta_key {
	const char *key;
	const char *setter;	/* who writes it: runtest.sh, sb-rundir, the machine lock, a guest, the VM host */
	const char *meaning;	/* results/README.md's words (markdown) */
};

/* The table, in the order meta lists its keys; n into *n. */
const struct sb_meta_key *sb_meta_keys(size_t *n);

/* The index of key in the table, or -1. */
int sb_meta_key_index(const char *key, size_t len);

/* The keys only `sb-rundir status` writes (status, error, failed_mode, failed_tasks): 1 for those. */
int sb_meta_key_is_status(const char *key);

/* results/README.md's meta table: the header, then one row per key. */
void sb_meta_keys_markdown(FILE *f);

#endif
