/* Runs as continuous-benchmarking JSON: github-action-benchmark's customBiggerIsBetter, Bencher's BMF. */
#define _GNU_SOURCE	/* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit.h"
#include "export.h"
#include "results.h"

struct meta {
	char test[256], label[256], run_id[256];
};

static void keep(char *dst, size_t size, const char *v)
{
	snprintf(dst, size, "%s", v);
}

/* The run model's meta (sb_run_meta) of dir into *m. Returns 0, 2 or 3 with a message in err. */
static int take_meta(const char *dir, struct meta *m, char *err, size_t errlen)
{
	struct sb_run r;
	int rc = sb_run_meta(dir, &r, err, errlen);

	if (rc == 0 && r.meta[SB_META_test])
		keep(m->test, sizeof(m->test), r.meta[SB_META_test]);
	if (rc == 0 && r.meta[SB_META_label])
		keep(m->label, sizeof(m->label), r.meta[SB_META_label]);
	if (rc == 0 && r.meta[SB_META_run_id])
		keep(m->run_id, sizeof(m->run_id), r.meta[SB_META_run_id]);
	sb_run_free(&r);
	return rc;
}

/* s as a JSON string: quotes, backslashes and control characters escaped. */
void sb_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* A finite number, exactly enough digits to read back. */
void sb_json_num(FILE *out, double v)
{
	fprintf(out, "%.15g", v);
}

/* One run's points, loaded whole before anything is written (no half-written file). */
struct run {
	struct meta m;
	struct sb_summary_row *rows;
	size_t n;
	const char *who;	/* "" or the label that tells two runs of one test apart */
};

static void gab_entry(FILE *out, const struct run *r, const char *mode, long tasks,
		      double mean, double ci, long runs, int first)
{
	char name[900];

	snprintf(name, sizeof(name), "%s %s, %ld task%s%s%s%s", r->m.test, mode, tasks,
		 tasks == 1 ? "" : "s", r->who[0] ? " (" : "", r->who, r->who[0] ? ")" : "");
	fputs(first ? "\n  {" : ",\n  {", out);
	fputs("\"name\": ", out);
	sb_json_str(out, name);
	fputs(", \"unit\": \"ops/s\", \"value\": ", out);
	sb_json_num(out, mean);
	if (!isnan(ci)) {
		char range[64];

		snprintf(range, sizeof(range), "± %.6g", ci);
		fputs(", \"range\": ", out);
		sb_json_str(out, range);
	}
	{
		char extra[900];

		snprintf(extra, sizeof(extra), "%ld run%s%s; run %s", runs, runs == 1 ? "" : "s",
			 isnan(ci) ? "" : ", range: 95% confidence interval of the mean across runs",
			 r->m.run_id);
		fputs(", \"extra\": ", out);
		sb_json_str(out, extra);
	}
	fputc('}', out);
}

/* A rate is never below zero: an interval wider than the mean is cut at 0 (docs/COMPARE.md). */
static void bencher_entry(FILE *out, const struct run *r, const char *mode, long tasks,
			  double mean, double ci, int first)
{
	char name[900];

	snprintf(name, sizeof(name), "%s/%s/%ld%s%s", r->m.test, mode, tasks, r->who[0] ? "/" : "",
		 r->who);
	fputs(first ? "\n  " : ",\n  ", out);
	sb_json_str(out, name);
	fputs(": {\"throughput\": {\"value\": ", out);
	sb_json_num(out, mean);
	if (!isnan(ci)) {
		fputs(", \"lower_value\": ", out);
		sb_json_num(out, fmax(mean - ci, 0));
		fputs(", \"upper_value\": ", out);
		sb_json_num(out, mean + ci);
	}
	fputs("}}", out);
}

static int load_run(const char *dir, struct run *r, char *err, size_t errlen)
{
	char *meta = NULL, *summary = NULL;
	int rc;

	if (asprintf(&meta, "%s/meta", dir) < 0 || asprintf(&summary, "%s/summary.csv", dir) < 0) {
		snprintf(err, errlen, "out of memory");
		free(meta);
		return SB_EXIT_ENV;
	}
	rc = take_meta(dir, &r->m, err, errlen);
	if (rc == 0)
		rc = sb_summary_read(summary, &r->rows, &r->n, err, errlen);
	if (rc == 0 && !r->m.test[0]) {
		snprintf(err, errlen, "%s: no test= line", meta);
		rc = SB_EXIT_USAGE;
	}
	free(meta);
	free(summary);
	return rc;
}

/*
 * Two runs of one test are told apart by their labels (a stable name keeps
 * the dashboard's history); two with one test and one label cannot be.
 */
static int name_runs(struct run *runs, int n, char **dirs, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		runs[i].who = "";
		for (int j = 0; j < n; j++)
			if (j != i && strcmp(runs[i].m.test, runs[j].m.test) == 0) {
				if (strcmp(runs[i].m.label, runs[j].m.label) == 0) {
					snprintf(err, errlen, "%s and %s: two runs of %s labelled '%s' would have "
						 "the same names: export them into separate files", dirs[i],
						 dirs[j], runs[i].m.test, runs[i].m.label);
					return SB_EXIT_USAGE;
				}
				runs[i].who = runs[i].m.label;
			}
	}
	return 0;
}

int sb_export_runs(FILE *out, int ndirs, char **dirs, enum sb_export f, char *err, size_t errlen)
{
	struct run *runs = calloc((size_t)(ndirs > 0 ? ndirs : 1), sizeof(*runs));
	int rc = 0, first = 1;

	if (runs == NULL) {
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	for (int i = 0; i < ndirs && rc == 0; i++)
		rc = load_run(dirs[i], &runs[i], err, errlen);
	if (rc == 0)
		rc = name_runs(runs, ndirs, dirs, err, errlen);
	if (rc == 0) {
		fputs(f == SB_EXPORT_GAB ? "[" : "{", out);
		for (int ri = 0; ri < ndirs; ri++)
			for (int md = 0; md < SB_NMODES; md++)
				for (size_t i = 0; i < runs[ri].n; i++) {
					const struct sb_summary_row *row = &runs[ri].rows[i];
					double mean = row->mode[md].mean, ci = row->mode[md].ci;

					if (isnan(mean))
						continue;
					if (f == SB_EXPORT_GAB)
						gab_entry(out, &runs[ri], sb_mode_name[md], row->tasks, mean,
							  ci, row->mode[md].runs, first);
					else
						bencher_entry(out, &runs[ri], sb_mode_name[md], row->tasks,
							      mean, ci, first);
					first = 0;
				}
		fputs(f == SB_EXPORT_GAB ? "\n]\n" : "\n}\n", out);
	}
	for (int i = 0; i < ndirs; i++)
		free(runs[i].rows);
	free(runs);
	return rc;
}

int sb_export_test_of(const char *dir, char *test, size_t len)
{
	struct meta m = { "", "", "" };
	char *path = NULL, err[64];
	int rc = SB_EXIT_USAGE;

	test[0] = '\0';
	for (int latest = 0; latest < 2 && rc != 0; latest++) {
		if (asprintf(&path, latest ? "%s/latest" : "%s", dir) < 0)
			return SB_EXIT_ENV;
		rc = take_meta(path, &m, err, sizeof(err));
		free(path);
	}
	if (rc == 0)
		snprintf(test, len, "%s", m.test);
	return rc == 0 && test[0] ? 0 : SB_EXIT_USAGE;
}

int sb_json_join(FILE *out, char *const *pieces, size_t n, enum sb_export f)
{
	int first = 1;

	/* each "[" or "{", the entries (each "\n  ..."), "\n]\n" or "\n}\n" */
	for (size_t i = 0; i < n; i++)
		if (strlen(pieces[i]) < 4 || pieces[i][0] != (f == SB_EXPORT_GAB ? '[' : '{'))
			return -1;
	fputs(f == SB_EXPORT_GAB ? "[" : "{", out);
	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[i];
		size_t len = strlen(p);

		if (len == 4)
			continue;	/* an empty list */
		if (!first)
			fputc(',', out);
		fwrite(p + 1, 1, len - 4, out);
		first = 0;
	}
	fputs(f == SB_EXPORT_GAB ? "\n]\n" : "\n}\n", out);
	return 0;
}

void sb_csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\n") == NULL) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
