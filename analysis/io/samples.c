/* samples.csv's reader (sb_samples_read): the columns by name, every row checked. */
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

#include "format/samples.h"
#include "csv.h"
#include "msg/msg.h"
#include "samples.h"

const char *const sb_mode_name[SB_NMODES] = { SB_SAMPLES_PROCESSES, SB_SAMPLES_THREADS };

/* The columns read, of samples.csv's table (format/samples.h); the others are skipped. */
enum { COL_MODE, COL_TASKS, COL_RUN, COL_PHASE, COL_OPS, COL_IDLE, NCOLS };
static const enum sb_samples_col wanted[NCOLS] = {
	SB_SAMPLES_COL_MODE, SB_SAMPLES_COL_TASKS, SB_SAMPLES_COL_RUN, SB_SAMPLES_COL_PHASE,
	SB_SAMPLES_COL_RATE, SB_SAMPLES_COL_IDLE_ALL
};


/* The columns' places in the header line [h, he); -1 when one is missing. */
static int read_header(const char *h, const char *he, int idx[NCOLS], const char **missing)
{
	int nf = 0;

	for (int k = 0; k < NCOLS; k++)
		idx[k] = -1;
	while (h <= he) {
		const char *c = memchr(h, ',', (size_t)(he - h));
		const char *fe = c ? c : he;

		for (int k = 0; k < NCOLS; k++)
			if ((size_t)(fe - h) == strlen(sb_samples_col_name[wanted[k]]) &&
			    memcmp(h, sb_samples_col_name[wanted[k]], (size_t)(fe - h)) == 0)
				idx[k] = nf;
		nf++;
		h = fe + 1;
	}
	for (int k = 0; k < NCOLS; k++)
		if (idx[k] < 0) {
			*missing = sb_samples_col_name[wanted[k]];
			return -1;
		}
	return nf;
}

/* One data line's measured sample into *smp: 1, 0 for a warmup row, or 2 with a message. */
static int parse_row(const struct sb_field f[NCOLS], struct sb_sample *smp, const char *where,
		     char *err, size_t errlen)
{
	smp->mode = -1;
	for (int m = 0; m < SB_NMODES; m++)
		if (sb_field_is(f[COL_MODE], sb_mode_name[m]))
			smp->mode = m;
	if (smp->mode < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: mode '%.*s' is neither processes nor threads",
			    where, SB_FIELD(f[COL_MODE]));
	if (sb_field_long(f[COL_TASKS], 1, 100000000L, &smp->tasks) != 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: tasks '%.*s' is not a whole number of at least 1",
			    where, SB_FIELD(f[COL_TASKS]));
	if (sb_field_long(f[COL_RUN], 1, 1000000000L, &smp->run) != 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: run '%.*s' is not a whole number of at least 1",
			    where, SB_FIELD(f[COL_RUN]));
	if (sb_field_double(f[COL_OPS], &smp->rate) != 0 || smp->rate < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: ops_per_s '%.*s' is not a non-negative number",
			    where, SB_FIELD(f[COL_OPS]));
	/* A finite value can still overflow a sum, a square or a ratio (1e308 printed +inf% -nan%
	 * and "no difference proven"); below the bound every figure stays finite. */
	if (smp->rate > SB_VALUE_MAX)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: ops_per_s '%.*s' is out of range (above %g: "
			    "no machine counts that fast, and the statistics would overflow)",
			    where, SB_FIELD(f[COL_OPS]), SB_VALUE_MAX);
	smp->idle = NAN;
	if (f[COL_IDLE].s != f[COL_IDLE].e &&
	    (sb_field_double(f[COL_IDLE], &smp->idle) != 0 || smp->idle < 0 ||
	     smp->idle > SB_VALUE_MAX))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: idle_all_pct '%.*s' is not a non-negative number "
			    "up to %g", where, SB_FIELD(f[COL_IDLE]), SB_VALUE_MAX);
	if (sb_field_is(f[COL_PHASE], SB_SAMPLES_WARMUP))
		return 0;
	if (!sb_field_is(f[COL_PHASE], SB_SAMPLES_MEASURE))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: phase '%.*s' is neither warmup nor measure",
			    where, SB_FIELD(f[COL_PHASE]));
	return 1;
}

int sb_samples_read(const char *path, sb_sample_fn fn, void *ctx, char *err, size_t errlen)
{
	char *buf = NULL, *p, *end, *nl, *he, where[PATH_MAX + 32];
	const char *missing = "";
	int idx[NCOLS], nf, rc = 0, *colmap = NULL, mapped = 0;
	size_t len;
	unsigned long lineno = 1;

	rc = sb_csv_map(path, &buf, &len, &mapped, err, errlen);
	if (rc != 0)
		return rc;
	end = buf + len;

	/* Header: the columns by name, so added columns break no reader. */
	nl = memchr(buf, '\n', len);
	he = nl ? nl : end;
	if (he > buf && he[-1] == '\r')
		he--;
	nf = read_header(buf, he, idx, &missing);
	if (nf < 0) {
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:1: no column '%s' in the header", path, missing);
		goto out;
	}
	p = nl ? nl + 1 : end;
	colmap = malloc((size_t)nf * sizeof(*colmap));
	if (colmap == NULL) {
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		goto out;
	}
	for (int i = 0; i < nf; i++)
		colmap[i] = -1;
	for (int k = 0; k < NCOLS; k++)
		colmap[idx[k]] = k;

	for (; p < end; p = nl ? nl + 1 : end) {
		char *le, *q = p;
		struct sb_field f[NCOLS];
		struct sb_sample smp;
		int fi = 0;

		nl = memchr(p, '\n', (size_t)(end - p));
		le = nl ? nl : end;
		lineno++;
		if (le > p && le[-1] == '\r')
			le--;
		for (;;) {
			char *c = memchr(q, ',', (size_t)(le - q)), *fe = c ? c : le;

			if (fi < nf && colmap[fi] >= 0) {
				f[colmap[fi]].s = q;
				f[colmap[fi]].e = fe;
			}
			fi++;
			if (c == NULL)
				break;
			q = c + 1;
		}
		snprintf(where, sizeof(where), "%s:%lu", path, lineno);
		if (fi != nf) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %d fields, the header has %d (truncated or malformed line)",
				  where, fi, nf);
			goto out;
		}
		rc = parse_row(f, &smp, where, err, errlen);
		if (rc == 0)
			continue;
		if (rc != 1)
			goto out;
		rc = 0;
		if (fn(ctx, &smp) != 0) {
			rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
			goto out;
		}
	}
out:
	free(colmap);
	sb_file_unmap(buf, len, mapped);
	return rc;
}

