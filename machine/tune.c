/* --tune: governor to performance, turbo off, ASLR off; the old values saved first and restored afterwards. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safefile.h"
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

/* Into an existing setting's file only: never made, never through a symbolic link. */
static int write_value(const char *path, const char *v)
{
	char p[4096], line[80];
	int fd = open(sb_sys_path(p, sizeof(p), path), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int n = snprintf(line, sizeof(line), "%s\n", v), e;

	if (fd < 0)
		return -1;
	if (write(fd, line, (size_t)n) != n) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* The settings --tune makes, and only those, may be restored: the paths plan_governors and sb_tune_apply use. */
static int tunable(const char *path)
{
	static const char *const fixed[] = { "/sys/devices/system/cpu/intel_pstate/no_turbo",
					     "/sys/devices/system/cpu/cpufreq/boost",
					     "/proc/sys/kernel/randomize_va_space" };
	const char *pre = "/sys/devices/system/cpu/cpu", *post = "/cpufreq/scaling_governor", *p;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (strcmp(path, fixed[i]) == 0)
			return 1;
	if (strncmp(path, pre, strlen(pre)) != 0)
		return 0;
	p = path + strlen(pre);
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return strcmp(p, post) == 0;
}

/* A value such a setting had: a governor's name or a number, nothing else. */
static int plain_value(const char *v)
{
	size_t n = strlen(v);

	if (n == 0 || n > 32)
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '_' && *v != '-')
			return 0;
	return 1;
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
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		return -1;
	}
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

/* One "PATH<tab>VALUE" line of the saved file written back; 0, or -1 (warned). */
static int restore_line(const char *save, int lineno, char *line)
{
	char *tab = strchr(line, '\t'), cur[64];

	if (!tab)
		tab = line + strlen(line);
	else
		*tab++ = '\0';
	if (!tunable(line) || !plain_value(tab)) {
		sb_warn("warning: %s:%d: not a setting --tune makes, ignored", save, lineno);
		return -1;
	}
	if (sb_sys_read(line, cur, sizeof(cur)) == 0 && strcmp(cur, tab) == 0)
		return 0;
	if (write_value(line, tab) == 0) {
		printf("tune: restored %s: %s\n", line, tab);
		return 0;
	}
	sb_warn("warning: cannot restore %s to %s: %s", line, tab, strerror(errno));
	return -1;
}

int sb_tune_restore(const char *save)
{
	char line[512], why[256];
	int fd = sb_safe_open(save, O_RDONLY, 0, NULL, why, sizeof(why)), bad = 0, unwritable = 0, n = 0;
	FILE *f;

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		sb_warn("warning: not restoring %s: %s", save, why);
		return -1;
	}
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (++n > MAX_SETTINGS) {
			sb_warn("warning: %s: more lines than --tune writes: the rest ignored", save);
			break;
		}
		if (restore_line(save, n, line) < 0) {
			bad = 1;
			unwritable |= tunable(line);
		}
	}
	fclose(f);
	/* Kept for the next sweep only when a real setting could not be written back. */
	if (unwritable)
		return -1;
	unlink(save);
	return bad ? -1 : 0;
}
