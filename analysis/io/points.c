/* points.csv's reader (sb_points_read): why each task count of a mode is measured (sb-plan writes it; format/points.h). */
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

#include "format/points.h"
#include "csv.h"
#include "msg/msg.h"
#include "points.h"

/* Whether origin is one of points.csv's (seed, added, given). */
static int known_origin(const char *origin)
{
	static const char *const names[] = {
#define ORIGIN(id, name) name,
		SB_POINTS_ORIGINS(ORIGIN)
#undef ORIGIN
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(origin, names[i]) == 0)
			return 1;
	return 0;
}

int sb_points_read(const char *path, sb_points_fn fn, void *ctx, char *err, size_t errlen)
{
	const char *header = SB_POINTS_HEADER;
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
		/* f[k]: column k's start; f[k + 1] - 1 its end (the last one's: the line's) */
		char *f[SB_POINTS_NCOLS + 1], *q = p, *e;
		char *mode, *ntasks, *origin, *reason;
		long tasks;
		int k;

		nl = memchr(p, '\n', (size_t)(end - p));
		lineno++;
		for (k = 0; k < SB_POINTS_NCOLS - 1; k++) {
			f[k] = q;
			q = memchr(q, ',', (size_t)(nl - q));
			if (!q)
				break;
			q++;
		}
		f[SB_POINTS_NCOLS - 1] = q;
		if (k < SB_POINTS_NCOLS - 1 || memchr(q, ',', (size_t)(nl - q))) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: not %d fields (%s)", path, lineno,
				     SB_POINTS_NCOLS, header);
			break;
		}
		f[SB_POINTS_NCOLS] = nl + 1;
		mode = f[SB_POINTS_COL_MODE], ntasks = f[SB_POINTS_COL_TASKS];
		origin = f[SB_POINTS_COL_ORIGIN], reason = f[SB_POINTS_COL_REASON];
		for (int m = 0; m < SB_NMODES; m++)
			if ((size_t)(f[SB_POINTS_COL_MODE + 1] - 1 - mode) == strlen(sb_mode_name[m]) &&
			    memcmp(mode, sb_mode_name[m], strlen(sb_mode_name[m])) == 0)
				r.mode = m;
		errno = 0;
		tasks = strtol(ntasks, &e, 10);
		if (r.mode < 0 || e != f[SB_POINTS_COL_TASKS + 1] - 1 || errno || tasks < 1 ||
		    f[SB_POINTS_COL_ORIGIN + 1] - 1 - origin >= (long)sizeof(r.origin) ||
		    (size_t)(f[SB_POINTS_COL_REASON + 1] - 1 - reason) >= sizeof(r.reason)) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: malformed row (mode, task count, origin or reason)",
				     path, lineno);
			break;
		}
		r.tasks = tasks;
		memcpy(r.origin, origin, (size_t)(f[SB_POINTS_COL_ORIGIN + 1] - 1 - origin));
		r.origin[f[SB_POINTS_COL_ORIGIN + 1] - 1 - origin] = '\0';
		if (!known_origin(r.origin)) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: origin '%s' is not seed, added or given", path, lineno,
				     r.origin);
			break;
		}
		memcpy(r.reason, reason, (size_t)(f[SB_POINTS_COL_REASON + 1] - 1 - reason));
		r.reason[f[SB_POINTS_COL_REASON + 1] - 1 - reason] = '\0';
		if (fn(ctx, &r) != 0) {
			rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
			break;
		}
	}
	sb_file_unmap(buf, len, mapped);
	return rc;
}
