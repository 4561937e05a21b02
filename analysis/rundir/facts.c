/* The machine's facts meta records (sb-rundir facts): host, kernel, arch, os, cpu and a sweep's start id, key=value lines. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#if defined(__FreeBSD__) || defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include "facts.h"
#include "io/meta.h"

/* PRETTY_NAME of /etc/os-release, unquoted, into buf; 0 when there is none */
static int os_name(char *buf, size_t size)
{
	char line[512];
	FILE *f = fopen("/etc/os-release", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *v = line + strlen("PRETTY_NAME="), *end;

		if (strncmp(line, "PRETTY_NAME=", strlen("PRETTY_NAME=")) != 0)
			continue;
		v[strcspn(v, "\r\n")] = '\0';
		end = v + strlen(v);
		if (*v == '"')
			v++;
		if (end > v && end[-1] == '"')
			end[-1] = '\0';
		snprintf(buf, size, "%s", v);
		found = 1;
	}
	fclose(f);
	return found;
}

/* the first "model name", "Model", "Hardware", "cpu model" or "cpu" line of /proc/cpuinfo:
 * its value up to any further ':'; 0 when there is none */
static int cpu_model(char *buf, size_t size)
{
	static const char *const keys[] = { "model name", "Model", "Hardware", "cpu model", "cpu", NULL };
	char line[1024];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		for (int k = 0; keys[k] && !found; k++) {
			const char *p = line + strlen(keys[k]);

			if (strncmp(line, keys[k], strlen(keys[k])) != 0)
				continue;
			p += strspn(p, " \t");
			if (*p++ != ':')
				continue;
			p += strspn(p, " ");
			snprintf(buf, size, "%.*s", (int)strcspn(p, ":\r\n"), p);
			found = 1;
		}
	}
	fclose(f);
#if defined(__FreeBSD__) || defined(__APPLE__)
	if (!found) {
		size_t len = size;

		found = sysctlbyname("hw.model", buf, &len, NULL, 0) == 0;
	}
#endif
	return found;
}

int sb_rundir_facts(long pid, FILE *out)
{
	struct utsname u;
	char os[512], cpu[1024], start[160];

	if (uname(&u) != 0)
		return -1;
	if (!os_name(os, sizeof(os)))
		snprintf(os, sizeof(os), "%s", u.sysname);
	if (!cpu_model(cpu, sizeof(cpu)))
		snprintf(cpu, sizeof(cpu), "%s", u.machine);
	if (sb_start_id(pid, start, sizeof(start)) != 0)
		start[0] = '\0';	/* no /proc: a reader cannot tell a reused pid */
	fprintf(out, "host=%s\nkernel=%s %s %s %s\narch=%s\nos=%s\ncpu=%s\nstart=%s\n", u.nodename, u.sysname,
		u.release, u.version, u.machine, u.machine, os, cpu, start);
	return 0;
}
