/* summary.csv's reader (sb_summary_read) and writer (sb_summary_write), both from one column table. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "msg/msg.h"
#include "summary.h"

/*
 * summary.csv's columns come from its one table (format/summary.h): the writer
 * (sb_summary_write) writes them in its order and the reader (sb_summary_read)
 * finds them by name; a field is a row's (tasks, linear, lkp_linear) or one of
 * struct sb_summary_mode's, held as its kind says.
 */
enum field {
	F_tasks, F_linear, F_lkp_linear,
#define FIELD(member, kind) F_##member,
	SB_SUMMARY_MODE_FIELDS(FIELD)
#undef FIELD
	NFIELDS
};
enum kind { K_ROW, K_MEAN, K_IDLE, K_STAT, K_COUNT, K_PEAK };

/* A mode's field: its kind and place in struct sb_summary_mode (a row's, not listed: K_ROW). */
static const struct {
	enum kind kind;
	size_t at;
} fields[NFIELDS] = {
#define FIELD(member, kind) [F_##member] = { K_##kind, offsetof(struct sb_summary_mode, member) },
	SB_SUMMARY_MODE_FIELDS(FIELD)
#undef FIELD
};

enum { MODE_ROW = -1, MODE_PROCESSES = SB_PROCESSES, MODE_THREADS = SB_THREADS };
static const struct column {
	const char *name;	/* the column, or the suffix after the mode's name */
	int mode;		/* SB_PROCESSES, SB_THREADS, or -1: one column of the row */
	enum field field;
} columns[] = {
#define COLUMN(mode, member) { MODE_##mode < 0 ? #member : F_##member == F_mean ? "" : "_" #member, \
			       MODE_##mode, F_##member },
	SB_SUMMARY_COLUMNS(COLUMN)
#undef COLUMN
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/* will-it-scale's six first: a file must start with them (the first six rows). */
static const char *const wis_columns = SB_SUMMARY_WIS_COLUMNS;

/* The column's name into buf. */
static const char *column_name(const struct column *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", c->mode < 0 ? "" : sb_mode_name[c->mode], c->name);
	return buf;
}

/* Whether a field holds a whole number (counts, the peak mark). */
static int whole_field(enum field f)
{
	return fields[f].kind == K_COUNT || fields[f].kind == K_PEAK;
}

/* Mode m's field f of row r */
static void *field_at(struct sb_summary_row *r, int m, enum field f)
{
	return (char *)&r->mode[m] + fields[f].at;
}

static const void *field_in(const struct sb_summary_row *r, int m, enum field f)
{
	return (const char *)&r->mode[m] + fields[f].at;
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

	for (int m = 0; m < SB_NMODES; m++)
		for (int k = 0; k < NFIELDS; k++)
			v[m][k] = NAN;
	for (size_t k = 0; k < NCOLUMNS && rc == 0; k++) {
		const struct column *c = &columns[k];

		if (c->mode < 0)
			continue;
		if (col[c->mode][c->field] >= 0)
			rc = summary_number(f[col[c->mode][c->field]], where,
					    column_name(c, name, sizeof(name)), whole_field(c->field),
					    &v[c->mode][c->field], err, errlen);
	}
	for (int m = 0; m < SB_NMODES && rc == 0; m++) {
		double peak = v[m][F_peak];

		if (!isnan(peak) && peak > SB_PEAK_BEST)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s_peak '%.0f' is not 1 (plateau) or 2 (best)",
				       where, sb_mode_name[m], peak);
		for (int k = F_lkp_linear + 1; k < NFIELDS; k++) {
			double x = v[m][k];

			if (fields[k].kind == K_COUNT)
				*(long *)field_at(r, m, k) = isnan(x) ? 0 : (long)x;
			else if (fields[k].kind == K_PEAK)
				*(int *)field_at(r, m, k) = col[m][k] < 0 ? SB_PEAK_UNKNOWN : isnan(x) ? SB_PEAK_NONE : (int)x;
			else
				*(double *)field_at(r, m, k) = x;
		}
		/* _runs came after _n (issue 11): before it, n was the runs when there was an interval */
		if (isnan(v[m][F_runs]))
			r->mode[m].runs = isnan(v[m][F_n]) ? 0 : !isnan(r->mode[m].ci) ? r->mode[m].n : 1;
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

	switch (fields[c->field].kind) {
	case K_ROW:
		if (c->field == F_tasks)
			fprintf(out, "%ld", zero ? 0 : r->tasks);
		else if (zero || (c->field == F_lkp_linear && isnan(r->linear)))
			fputs(",0", out);
		else if (c->field == F_lkp_linear)
			fprintf(out, ",%.6f", r->linear);
		else
			put(out, r->linear);
		return;
	case K_MEAN:
		return zero ? (void)fputs(",0", out) : put(out, *(const double *)field_in(r, c->mode, c->field));
	case K_IDLE:
		return zero ? (void)fputs(",100", out) :
			      put(out, present ? *(const double *)field_in(r, c->mode, c->field) : NAN);
	case K_STAT:
		return put(out, zero || !present ? NAN : *(const double *)field_in(r, c->mode, c->field));
	case K_COUNT:
		if (zero || !present)
			fputs(",", out);
		else
			fprintf(out, ",%ld", *(const long *)field_in(r, c->mode, c->field));
		return;
	case K_PEAK: {
		int peak = *(const int *)field_in(r, c->mode, c->field);

		/* a number (2 best, 1 plateau): lkp-tests' parser drops a row that is not digits,
		 * dots and commas */
		if (zero || !present || peak <= SB_PEAK_NONE)
			fputs(",", out);
		else
			fprintf(out, ",%d", peak);
		return;
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
