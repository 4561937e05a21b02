/* The meta key table: every key a run directory's meta may hold, who sets it and what it means. */
#include <string.h>

#include "format/meta.h"
#include "keys.h"

#define SWEEP "runtest.sh"
#define TOOL "sb-rundir"
#define MACHINE "runtest.sh (machine/)"
#define GUEST "runtest.sh in a VM guest"
#define VMHOST "runtest.sh --kernel (the VM host)"

/* meta's keys (format/meta.h): results/README.md's table is this table
 * (selftest/rundir_keys.t compares them). */
static const struct sb_meta_key keys[] = {
#define KEY(key, setter, meaning) { #key, setter, meaning },
	SB_META_KEYS(KEY)
#undef KEY
};

const struct sb_meta_key *sb_meta_keys(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

int sb_meta_key_index(const char *key, size_t len)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == len && memcmp(keys[i].key, key, len) == 0)
			return (int)i;
	return -1;
}

int sb_meta_key_is_status(const char *key)
{
	int i = sb_meta_key_index(key, strlen(key));

	return i == SB_META_status || i == SB_META_error || i == SB_META_failed_mode || i == SB_META_failed_tasks;
}

void sb_meta_keys_markdown(FILE *f)
{
	fputs("| key | set by | meaning |\n|---|---|---|\n", f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		fprintf(f, "| %s | %s | %s |\n", keys[i].key, keys[i].setter, keys[i].meaning);
}
