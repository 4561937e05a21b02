/* points.csv's reader (sb_points_read): why each task count of a mode is measured (sb-plan writes it). */
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

#include "csv.h"
#include "msg.h"
#include "points.h"

int sb_points_read(const char *path, sb_points_fn fn, void *ctx, char *err, size_t errlen)
{
	static const char header[] = "mode,tasks,origin,reason";
	char *buf = NULL, *p, *end, *nl;
	size_t len;
	int mapped = 0, rc = 0;
	unsigned long lineno = 1;
	struct stat st;

	if (stat(path, &st) != 0 && errno == ENOENT)
		return 1;
	rc = sb_csv_map(path, &buf, &len, &mapped, err, errlen);
	if (rc != 0)
		return rc;
	end = buf + len;
	nl = memchr(buf, '\n', len);
	if ((size_t)(nl - buf) != strlen(header) || memcmp(buf, header, strlen(header)) != 0) {
		sb_file_unmap(buf, len, mapped);
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:1: the header is not '%s'", path, header);
	}
	for (p = nl + 1; p < end; p = nl + 1) {
		struct sb_points_row r = { .mode = -1 };
		char *f[4], *q = p, *e;
		long tasks;
		int k;

		nl = memchr(p, '\n', (size_t)(end - p));
		lineno++;
		for (k = 0; k < 3; k++) {
			f[k] = q;
			q = memchr(q, ',', (size_t)(nl - q));
			if (!q)
				break;
			q++;
		}
		f[3] = q;
		if (k < 3 || memchr(q, ',', (size_t)(nl - q))) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: not 4 fields (mode,tasks,origin,reason)", path, lineno);
			break;
		}
		for (int m = 0; m < SB_NMODES; m++)
			if ((size_t)(f[1] - 1 - f[0]) == strlen(sb_mode_name[m]) &&
			    memcmp(f[0], sb_mode_name[m], strlen(sb_mode_name[m])) == 0)
				r.mode = m;
		errno = 0;
		tasks = strtol(f[1], &e, 10);
		if (r.mode < 0 || e != f[2] - 1 || errno || tasks < 1 || f[3] - 1 - f[2] >= (long)sizeof(r.origin) ||
		    (size_t)(nl - f[3]) >= sizeof(r.reason)) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: malformed row (mode, task count, origin or reason)",
				     path, lineno);
			break;
		}
		r.tasks = tasks;
		memcpy(r.origin, f[2], (size_t)(f[3] - 1 - f[2]));
		r.origin[f[3] - 1 - f[2]] = '\0';
		if (strcmp(r.origin, "seed") != 0 && strcmp(r.origin, "added") != 0 && strcmp(r.origin, "given") != 0) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: origin '%s' is not seed, added or given", path, lineno,
				     r.origin);
			break;
		}
		memcpy(r.reason, f[3], (size_t)(nl - f[3]));
		r.reason[nl - f[3]] = '\0';
		if (fn(ctx, &r) != 0) {
			rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
			break;
		}
	}
	sb_file_unmap(buf, len, mapped);
	return rc;
}
