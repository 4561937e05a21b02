/* Runs as continuous-benchmarking JSON (github-action-benchmark's customBiggerIsBetter, Bencher's BMF) from the exports' model (export/bench_runs.c); the JSON and CSV pieces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/bench_runs.h"
#include "export.h"

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong form, no surrogate,
 * at most U+10FFFF), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	unsigned char lo = 0x80, hi = 0xbf;	/* the second byte's range */

	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n == 0 || s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* s as a JSON string: quotes, backslashes and control characters escaped; a byte that is not UTF-8
 * (a Latin-1 label in meta) as U+FFFD: JSON is UTF-8, and Python's json (KCIDB's, SQUAD's) refuses the rest. */
void sb_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else if (c < 0x80)
			fputc(c, out);
		else if ((n = utf8_len((const unsigned char *)s)) == 0)
			fputs("\\ufffd", out);
		else {
			fwrite(s, 1, (size_t)n, out);
			s += n - 1;
		}
	}
	fputc('"', out);
}

/* A finite number, exactly enough digits to read back. */
void sb_json_num(FILE *out, double v)
{
	fprintf(out, "%.15g", v);
}

static void gab_entry(FILE *out, const struct sb_bench_run *r, const char *mode, long tasks,
		      double mean, double ci, long runs, int first)
{
	char name[900];

	snprintf(name, sizeof(name), "%s %s, %ld task%s%s%s%s", r->test, mode, tasks,
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
			 r->run_id);
		fputs(", \"extra\": ", out);
		sb_json_str(out, extra);
	}
	fputc('}', out);
}

/* A rate is never below zero: an interval wider than the mean is cut at 0 (docs/COMPARE.md). */
static void bencher_entry(FILE *out, const struct sb_bench_run *r, const char *mode, long tasks,
			  double mean, double ci, int first)
{
	char name[900];

	snprintf(name, sizeof(name), "%s/%s/%ld%s%s", r->test, mode, tasks, r->who[0] ? "/" : "",
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

void sb_export_print(FILE *out, const struct sb_bench *b, enum sb_export f)
{
	fputs(f == SB_EXPORT_GAB ? "[" : "{", out);
	for (size_t i = 0; i < b->npt; i++) {
		const struct sb_bench_point *p = &b->pt[i];

		if (f == SB_EXPORT_GAB)
			gab_entry(out, p->run, p->mode, p->tasks, p->mean, p->ci, p->runs, i == 0);
		else
			bencher_entry(out, p->run, p->mode, p->tasks, p->mean, p->ci, i == 0);
	}
	fputs(f == SB_EXPORT_GAB ? "\n]\n" : "\n}\n", out);
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
