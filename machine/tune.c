/* --tune: governor to performance, turbo off, ASLR off; the old values saved first and restored afterwards. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscheck.h"
#include "tune.h"
#include "util.h"

#define MAX_SETTINGS 1100

struct setting {
	char path[160];		/* the file, without $SB_MACHINE_ROOT */
	char old[64], want[64];
};

static struct setting set[MAX_SETTINGS];
static int nset;

static void consider(const char *path, const char *want)
{
	char v[64];

	if (nset == MAX_SETTINGS || sb_sys_read(path, v, sizeof(v)) < 0 || strcmp(v, want) == 0)
		return;
	snprintf(set[nset].path, sizeof(set[nset].path), "%s", path);
	snprintf(set[nset].old, sizeof(set[nset].old), "%s", v);
	snprintf(set[nset].want, sizeof(set[nset].want), "%s", want);
	nset++;
}

static int write_value(const char *path, const char *v)
{
	char p[4096];
	FILE *f = fopen(sb_sys_path(p, sizeof(p), path), "we");
	int rc;

	if (!f)
		return -1;
	rc = fprintf(f, "%s\n", v) < 0;
	if (fclose(f) != 0 || rc)
		return -1;
	return 0;
}

/* The performance governor, where cpufreq offers it. */
static void plan_governors(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char path[160], avail[256];

	for (long c = 0; c < (n > 0 ? n : 1); c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_available_governors", c);
		if (sb_sys_read(path, avail, sizeof(avail)) == 0 && !strstr(avail, "performance"))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", c);
		consider(path, "performance");
	}
}

int sb_tune_apply(const char *save)
{
	char tmp[4096], reason[256];
	FILE *f;
	int changed = 0;

	nset = 0;
	plan_governors();
	consider("/sys/devices/system/cpu/intel_pstate/no_turbo", "1");
	consider("/sys/devices/system/cpu/cpufreq/boost", "0");
	consider("/proc/sys/kernel/randomize_va_space", "0");
	if (nset == 0) {
		printf("tune: nothing to change (no governor, turbo or ASLR setting differs from what a sweep wants)\n");
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", save, (long)getpid());
	if (!(f = fopen(tmp, "we")))
		return -1;
	for (int i = 0; i < nset; i++)
		fprintf(f, "%s\t%s\n", set[i].path, set[i].old);
	if (fclose(f) != 0 || rename(tmp, save) != 0) {
		unlink(tmp);
		return -1;
	}
	for (int i = 0; i < nset; i++) {
		if (write_value(set[i].path, set[i].want) == 0) {
			printf("tune: %s: %s -> %s\n", set[i].path, set[i].old, set[i].want);
			changed++;
		} else {
			snprintf(reason, sizeof(reason), "%s", strerror(errno));
			sb_warn("warning: --tune cannot set %s to %s: %s", set[i].path, set[i].want, reason);
		}
	}
	return changed;
}

int sb_tune_restore(const char *save)
{
	char line[512];
	FILE *f = fopen(save, "re");
	int bad = 0;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), cur[64];

		line[strcspn(line, "\n")] = '\0';
		if (!tab || line[0] != '/')
			continue;
		*tab = '\0';
		if (sb_sys_read(line, cur, sizeof(cur)) == 0 && strcmp(cur, tab + 1) == 0)
			continue;
		if (write_value(line, tab + 1) == 0) {
			printf("tune: restored %s: %s\n", line, tab + 1);
		} else {
			sb_warn("warning: cannot restore %s to %s: %s", line, tab + 1, strerror(errno));
			bad = 1;
		}
	}
	fclose(f);
	if (bad)
		return -1;
	unlink(save);
	return 0;
}
