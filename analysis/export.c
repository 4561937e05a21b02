/* A run as continuous-benchmarking JSON: github-action-benchmark's customBiggerIsBetter, Bencher's BMF. */
#define _GNU_SOURCE	/* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "results.h"

struct meta {
	char test[256], label[256], run_id[256];
};

static void keep(char *dst, size_t size, const char *v)
{
	snprintf(dst, size, "%s", v);
}

static int take_meta(void *ctx, const char *key, const char *value)
{
	struct meta *m = ctx;

	if (strcmp(key, "test") == 0)
		keep(m->test, sizeof(m->test), value);
	else if (strcmp(key, "label") == 0)
		keep(m->label, sizeof(m->label), value);
	else if (strcmp(key, "run_id") == 0)
		keep(m->run_id, sizeof(m->run_id), value);
	return 0;
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

static void gab_entry(FILE *out, const struct meta *m, const char *mode, long tasks,
		      double mean, double ci, long n, int first)
{
	char name[600];

	snprintf(name, sizeof(name), "%s %s, %ld task%s", m->test, mode, tasks, tasks == 1 ? "" : "s");
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

		snprintf(extra, sizeof(extra), "%ld run%s%s; run %s", n, n == 1 ? "" : "s",
			 isnan(ci) ? "" : ", range: 95% confidence interval of the mean across runs",
			 m->run_id);
		fputs(", \"extra\": ", out);
		sb_json_str(out, extra);
	}
	fputc('}', out);
}

static void bencher_entry(FILE *out, const struct meta *m, const char *mode, long tasks,
			  double mean, double ci, int first)
{
	char name[600];

	snprintf(name, sizeof(name), "%s/%s/%ld", m->test, mode, tasks);
	fputs(first ? "\n  " : ",\n  ", out);
	sb_json_str(out, name);
	fputs(": {\"throughput\": {\"value\": ", out);
	sb_json_num(out, mean);
	if (!isnan(ci)) {
		fputs(", \"lower_value\": ", out);
		sb_json_num(out, mean - ci);
		fputs(", \"upper_value\": ", out);
		sb_json_num(out, mean + ci);
	}
	fputs("}}", out);
}

int sb_export_run(FILE *out, const char *dir, enum sb_export f, char *err, size_t errlen)
{
	struct meta m = { "", "", "" };
	struct sb_summary_row *rows = NULL;
	char *meta = NULL, *summary = NULL, *text = NULL;
	size_t n = 0;
	int rc, first = 1;

	if (asprintf(&meta, "%s/meta", dir) < 0 || asprintf(&summary, "%s/summary.csv", dir) < 0) {
		snprintf(err, errlen, "out of memory");
		free(meta);
		return 3;
	}
	rc = sb_meta_read(meta, take_meta, &m, &text, err, errlen);
	free(text);
	if (rc == 0)
		rc = sb_summary_read(summary, &rows, &n, err, errlen);
	if (rc == 0 && !m.test[0]) {
		snprintf(err, errlen, "%s: no test= line", meta);
		rc = 2;
	}
	if (rc == 0) {
		fputs(f == SB_EXPORT_GAB ? "[" : "{", out);
		for (int md = 0; md < SB_NMODES; md++)
			for (size_t i = 0; i < n; i++) {
				double mean = rows[i].mode[md].mean, ci = rows[i].mode[md].ci;

				if (isnan(mean))
					continue;
				if (f == SB_EXPORT_GAB)
					gab_entry(out, &m, sb_mode_name[md], rows[i].tasks, mean, ci,
						  rows[i].mode[md].n, first);
				else
					bencher_entry(out, &m, sb_mode_name[md], rows[i].tasks, mean, ci,
						      first);
				first = 0;
			}
		fputs(f == SB_EXPORT_GAB ? "\n]\n" : "\n}\n", out);
	}
	free(rows);
	free(meta);
	free(summary);
	return rc;
}
