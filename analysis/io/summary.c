/* summary.csv's reader (sb_summary_read) and writer (sb_summary_write), both from one column table. */
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
#include "summary.h"

/*
 * THE column table of summary.csv, in file order: the writer (sb_summary_write) writes
 * these columns and the reader (sb_summary_read) finds them by name. A per-mode column
 * is named the mode's name then its suffix ("threads_ci"). Adding a column: one row here
 * and its field in struct sb_summary_row.
 */
enum field { F_TASKS, F_MEAN, F_IDLE, F_LINEAR, F_STDDEV, F_CI, F_MIN, F_MAX, F_N, F_RUNS,
	     F_PRECISION, F_PEAK, F_LKP_LINEAR, NFIELDS };

static const struct column {
	const char *name;	/* the column, or the suffix after the mode's name */
	int mode;		/* SB_PROCESSES, SB_THREADS, or -1: one column of the row */
	enum field field;
} columns[] = {
	/* will-it-scale's six, which lkp-tests and plot.py read */
	{ "tasks", -1, F_TASKS }, { "", SB_PROCESSES, F_MEAN }, { "_idle", SB_PROCESSES, F_IDLE },
	{ "", SB_THREADS, F_MEAN }, { "_idle", SB_THREADS, F_IDLE }, { "linear", -1, F_LINEAR },
	/* each mode's statistics */
	{ "_stddev", SB_PROCESSES, F_STDDEV }, { "_ci", SB_PROCESSES, F_CI },
	{ "_min", SB_PROCESSES, F_MIN }, { "_max", SB_PROCESSES, F_MAX }, { "_n", SB_PROCESSES, F_N },
	{ "_stddev", SB_THREADS, F_STDDEV }, { "_ci", SB_THREADS, F_CI },
	{ "_min", SB_THREADS, F_MIN }, { "_max", SB_THREADS, F_MAX }, { "_n", SB_THREADS, F_N },
	{ "_runs", SB_PROCESSES, F_RUNS }, { "_precision", SB_PROCESSES, F_PRECISION },
	{ "_runs", SB_THREADS, F_RUNS }, { "_precision", SB_THREADS, F_PRECISION },
	{ "_peak", SB_PROCESSES, F_PEAK }, { "_peak", SB_THREADS, F_PEAK },
	/* lkp-tests reads linear from the last field; 0 there means "unknown" to it */
	{ "lkp_linear", -1, F_LKP_LINEAR },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/* will-it-scale's six first: a file must start with them (the first six rows). */
static const char *const wis_columns = "tasks,processes,processes_idle,threads,threads_idle,linear";

/* The column's name into buf. */
static const char *column_name(const struct column *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", c->mode < 0 ? "" : sb_mode_name[c->mode], c->name);
	return buf;
}

/* Whether a field holds a whole number (counts, the peak mark). */
static int whole_field(enum field f)
{
	return f == F_N || f == F_RUNS || f == F_PEAK;
}

static int summary_number(struct sb_field f, const char *where, const char *name, int whole,
			  double *out, char *err, size_t errlen)
{
	long l;

	*out = NAN;
	if (f.s == f.e)
		return 0;
	if (whole ? sb_field_long(f, 0, 1000000000L, &l) != 0 :
		    sb_field_double(f, out) != 0 || *out < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s '%.*s' is not a non-negative number", where, name,
			    SB_FIELD(f));
	/* as samples.csv's: above it a sum, square or ratio of the statistics overflows (issue 31, item 8) */
	if (*out > SB_VALUE_MAX)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s '%.*s' is out of range (above %g: no machine "
			       "counts that fast, and the statistics would overflow)", where, name, SB_FIELD(f),
			       SB_VALUE_MAX);
	if (whole)
		*out = (double)l;
	return 0;
}

/* The header [buf, nl): will-it-scale's six first, then col[mode][field] by name. Returns the fields, or -1. */
static int summary_header(const char *buf, const char *nl, int col[SB_NMODES][NFIELDS])
{
	size_t wl = strlen(wis_columns);
	const char *h = buf, *he = nl > buf && nl[-1] == '\r' ? nl - 1 : nl;
	char name[64];
	int nf = 0;

	if ((size_t)(he - buf) < wl || memcmp(buf, wis_columns, wl) != 0 ||
	    (buf + wl != he && buf[wl] != ','))
		return -1;
	for (int m = 0; m < SB_NMODES; m++)
		for (int k = 0; k < NFIELDS; k++)
			col[m][k] = -1;
	while (h <= he) {
		const char *c = memchr(h, ',', (size_t)(he - h)), *fe = c ? c : he;

		for (size_t k = 0; k < NCOLUMNS; k++) {
			column_name(&columns[k], name, sizeof(name));
			if (columns[k].mode >= 0 && (size_t)(fe - h) == strlen(name) &&
			    memcmp(h, name, strlen(name)) == 0)
				col[columns[k].mode][columns[k].field] = nf;
		}
		nf++;
		h = fe + 1;
	}
	return nf;
}

/* A data row's numbers (tasks already read) into *r. Returns 0 or 2 with a message. */
static int summary_row(const struct sb_field *f, const int col[SB_NMODES][NFIELDS],
		       const char *where, struct sb_summary_row *r, char *err, size_t errlen)
{
	char name[64];
	double v[SB_NMODES][NFIELDS];
	int rc = summary_number(f[5], where, "linear", 0, &r->linear, err, errlen);

	for (size_t k = 0; k < NCOLUMNS && rc == 0; k++) {
		const struct column *c = &columns[k];

		if (c->mode < 0)
			continue;
		v[c->mode][c->field] = NAN;
		if (col[c->mode][c->field] >= 0)
			rc = summary_number(f[col[c->mode][c->field]], where,
					    column_name(c, name, sizeof(name)), whole_field(c->field),
					    &v[c->mode][c->field], err, errlen);
	}
	for (int m = 0; m < SB_NMODES && rc == 0; m++) {
		double n = v[m][F_N], runs = v[m][F_RUNS], peak = v[m][F_PEAK];

		if (!isnan(peak) && peak > SB_PEAK_BEST)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s_peak '%.0f' is not 1 (plateau) or 2 (best)",
				       where, sb_mode_name[m], peak);
		r->mode[m].mean = v[m][F_MEAN];
		r->mode[m].idle = v[m][F_IDLE];
		r->mode[m].stddev = v[m][F_STDDEV];
		r->mode[m].ci = v[m][F_CI];
		r->mode[m].min = v[m][F_MIN];
		r->mode[m].max = v[m][F_MAX];
		r->mode[m].precision = v[m][F_PRECISION];
		r->mode[m].n = isnan(n) ? 0 : (long)n;
		/* _runs came after _n (issue 11): before it, n was the runs when there was an interval */
		r->mode[m].runs = !isnan(runs) ? (long)runs : isnan(n) ? 0 : !isnan(r->mode[m].ci) ? (long)n : 1;
		r->mode[m].peak = col[m][F_PEAK] < 0 ? SB_PEAK_UNKNOWN : isnan(peak) ? SB_PEAK_NONE : (int)peak;
	}
	return rc;
}

int sb_summary_read(const char *path, struct sb_summary_row **rows, size_t *nrows, char *err,
		    size_t errlen)
{
	enum { MAXF = 256 };
	char *buf = NULL, *p, *end, *nl, where[PATH_MAX + 32];
	int mapped = 0, rc, nf, col[SB_NMODES][NFIELDS];
	size_t len, cap = 0;
	unsigned long lineno = 1;

	*rows = NULL;
	*nrows = 0;
	rc = sb_csv_map(path, &buf, &len, &mapped, err, errlen);
	if (rc != 0)
		return rc;
	end = buf + len;
	nl = memchr(buf, '\n', len);	/* map_csv: the file ends with one */
	nf = summary_header(buf, nl, col);
	if (nf < 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:1: header does not start with %s", path, wis_columns);
	for (p = nl + 1; rc == 0 && p < end; p = nl + 1) {
		struct sb_field f[MAXF];
		double tasks;
		int fi;

		nl = memchr(p, '\n', (size_t)(end - p));
		fi = sb_csv_fields(p, nl > p && nl[-1] == '\r' ? nl - 1 : nl, f, MAXF);
		snprintf(where, sizeof(where), "%s:%lu", path, ++lineno);
		if (sb_field_is(f[0], "0") && (fi == 6 || fi == nf))
			continue;	/* will-it-scale's 0,0,100,0,100,0 row */
		if (fi != nf || nf > MAXF) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %d fields, the header has %d (truncated or malformed line)",
				     where, fi, nf);
			break;
		}
		rc = summary_number(f[0], where, "tasks", 1, &tasks, err, errlen);
		if (rc == 0 && (isnan(tasks) || tasks < 1))
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: tasks must be a whole number of at least 1", where);
		if (rc == 0 && *nrows && tasks <= (double)(*rows)[*nrows - 1].tasks)
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: tasks %.0f after %ld: rows must go up", where, tasks,
				     (*rows)[*nrows - 1].tasks);
		if (rc == 0 && *nrows == cap) {
			struct sb_summary_row *nr = realloc(*rows, (cap ? cap * 2 : 64) * sizeof(*nr));

			if (nr == NULL)
				rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
			*rows = nr ? nr : *rows;
			cap = nr ? (cap ? cap * 2 : 64) : cap;
		}
		if (rc == 0) {
			(*rows)[*nrows].tasks = (long)tasks;
			rc = summary_row(f, col, where, &(*rows)[(*nrows)++], err, errlen);
		}
	}
	if (rc != 0) {
		free(*rows);
		*rows = NULL;
		*nrows = 0;
	}
	sb_file_unmap(buf, len, mapped);
	return rc;
}


/* One field of a row as the file holds it: ",%.6f", or "," when unknown. */
static void put(FILE *out, double v)
{
	if (isnan(v))
		fputs(",", out);
	else
		fprintf(out, ",%.6f", v);
}

/* Column c of row r (zero: will-it-scale's first row, 0,0,100,0,100,0 and 0 in lkp_linear). */
static void put_column(FILE *out, const struct column *c, const struct sb_summary_row *r, int zero)
{
	int present = c->mode >= 0 && !isnan(r->mode[c->mode].mean);

	switch (c->field) {
	case F_TASKS:
		fprintf(out, "%ld", zero ? 0 : r->tasks);
		return;
	case F_LINEAR:
		return zero ? (void)fputs(",0", out) : put(out, r->linear);
	case F_LKP_LINEAR:
		if (zero || isnan(r->linear))
			fputs(",0", out);
		else
			fprintf(out, ",%.6f", r->linear);
		return;
	case F_MEAN:
		return zero ? (void)fputs(",0", out) : put(out, r->mode[c->mode].mean);
	case F_IDLE:
		return zero ? (void)fputs(",100", out) : put(out, present ? r->mode[c->mode].idle : NAN);
	case F_N:
	case F_RUNS:
		if (zero || !present)
			fputs(",", out);
		else
			fprintf(out, ",%ld", c->field == F_N ? r->mode[c->mode].n : r->mode[c->mode].runs);
		return;
	case F_PEAK:
		/* a number (2 best, 1 plateau): lkp-tests' parser drops a row that is not digits,
		 * dots and commas */
		if (zero || !present || r->mode[c->mode].peak <= SB_PEAK_NONE)
			fputs(",", out);
		else
			fprintf(out, ",%d", r->mode[c->mode].peak);
		return;
	default: {
		const double *v[] = { [F_STDDEV] = &r->mode[c->mode].stddev, [F_CI] = &r->mode[c->mode].ci,
				      [F_MIN] = &r->mode[c->mode].min, [F_MAX] = &r->mode[c->mode].max,
				      [F_PRECISION] = &r->mode[c->mode].precision };

		put(out, zero || !present ? NAN : *v[c->field]);
	}
	}
}

void sb_summary_write(FILE *out, const struct sb_summary_row *rows, size_t n)
{
	static const struct sb_summary_row none;
	char name[64];

	for (size_t k = 0; k < NCOLUMNS; k++)
		fprintf(out, "%s%s", k ? "," : "", column_name(&columns[k], name, sizeof(name)));
	fputc('\n', out);
	for (size_t i = 0; i <= n; i++) {
		for (size_t k = 0; k < NCOLUMNS; k++)
			put_column(out, &columns[k], i ? &rows[i - 1] : &none, i == 0);
		fputc('\n', out);
	}
}
