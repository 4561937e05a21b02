/* meta's reader (sb_meta_read) and a run's status as a reader shows it (sb_status_now: is its sweep alive). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <signal.h>
#include <sys/utsname.h>

#include "format/reference.h"
#include "csv.h"
#include "meta.h"
#include "msg/msg.h"
#include "number.h"

int sb_meta_read(const char *path, sb_meta_fn fn, void *ctx, char **text, char *err,
		 size_t errlen)
{
	char *p, *next;
	size_t len;
	unsigned long lineno = 0;
	int e = sb_file_slurp(path, text, &len);

	if (e != 0) {
		*text = NULL;
		return sb_fail(err, errlen, e == ENOMEM ? SB_EXIT_ENV : SB_EXIT_USAGE, "cannot read %s: %s", path, sb_file_strerror(e));
	}
	if ((p = memchr(*text, '\0', len)) != NULL) {	/* the lines after it would be lost */
		for (next = *text; next < p; next++)
			lineno += *next == '\n';
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: a NUL byte: the file is damaged", path, lineno + 1);
	}
	for (p = *text; *p != '\0'; p = next) {
		char *eq, *end = strchr(p, '\n');

		lineno++;
		next = end ? end + 1 : p + strlen(p);
		if (end)
			*end = '\0';
		if (end > p && end[-1] == '\r')
			end[-1] = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		eq = strchr(p, '=');
		if (eq == NULL || eq == p)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: expected key=value", path, lineno);
		*eq = '\0';
		if (fn(ctx, p, eq + 1) != 0)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
	}
	return 0;
}

/* "BOOT_ID/STARTTIME" of process pid (what runtest.sh records as sweep_start); -1 where /proc cannot tell. */
int sb_start_id(long pid, char *buf, size_t size)
{
	char path[64], stat[1024], boot[64];
	const char *p;
	ssize_t n;
	int fd;

	if ((fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, boot, sizeof(boot) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	boot[n] = '\0';
	boot[strcspn(boot, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	stat[n] = '\0';
	/* after the name in parentheses (which may hold anything): field 3 on; starttime is field 22 */
	if ((p = strrchr(stat, ')')) == NULL)
		return -1;
	p++;
	for (int field = 2; field < 21; field++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
		if (*p == '\0')
			return -1;
	}
	p += strspn(p, " ");
	snprintf(buf, size, "%s/%.*s", boot, (int)strcspn(p, " \n"), p);
	return 0;
}

const char *sb_status_now(const char *status, const char *host, const char *pid,
			  const char *start)
{
	struct utsname u;
	char now[160];
	char *end;
	long v;

	if (strcmp(status, "running") != 0 || !*host || !*pid)
		return status;
	if (uname(&u) != 0 || strcmp(u.nodename, host) != 0)
		return status;
	errno = 0;
	v = strtol(pid, &end, 10);
	if (*end != '\0' || errno || v <= 0 || v != (long)(pid_t)v)
		return status;
	if (kill((pid_t)v, 0) < 0 && errno == ESRCH)
		return "abandoned";
	if (*start && sb_start_id(v, now, sizeof(now)) == 0 && strcmp(now, start) != 0)
		return "abandoned";
	return status;
}

void sb_reference_parse(const char *value, struct sb_reference_reading *out)
{
	const char *p = value ? value : "";
	int have = 0;

	memset(out, 0, sizeof(*out));
	while (*p) {
		char word[64], *eq;
		size_t n = strcspn(p, " ");
		double v;

		if (n > 0 && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			eq = strchr(word, '=');
			if (eq && (*eq = '\0', sb_decimal(eq + 1, &v) == 0)) {
				const char *const *w = sb_reference_word_name;

				if (strcmp(word, w[SB_REFERENCE_W_LOOP]) == 0 && v >= 1 && v <= 1e6 && v == floor(v))
					out->loop = (long)v, have |= 1;
				else if (strcmp(word, w[SB_REFERENCE_W_RATE]) == 0 && v > 0)
					out->rate = v, have |= 2;
				else if (strcmp(word, w[SB_REFERENCE_W_SPAN]) == 0 && v >= 0)
					out->span_pct = v, have |= 4;
				else if (strcmp(word, w[SB_REFERENCE_W_SD]) == 0 && v >= 0)
					out->sd_pct = v, have |= 8;
			}
		}
		p += n;
		p += strspn(p, " ");
	}
	out->ok = have == 15;
}
