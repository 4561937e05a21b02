/* Output formats: will-it-scale's text, and CSV (csv, samples) with one row per sample. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "format/samples.h"
#include "output.h"
#include "testcase.h"
#include "util.h"

enum { CSV = 1 << SB_FMT_CSV, SAMPLES = 1 << SB_FMT_SAMPLES };

/*
 * The CSV columns, in order: header and rows of both CSV formats come from
 * samples.csv's one table (format/samples.h): samples is samples.csv's row,
 * csv the columns the table marks for it. With -v both end with task_0 ... task_N-1.
 */
#define AT(f) offsetof(struct sb_sample, f)
static const struct column {
	const char *name;
	unsigned int formats;
	enum sb_samples_kind kind;
	size_t at;		/* offsetof(struct sb_sample, its value) */
} columns[] = {
#define COLUMN(id, name, csv, kind, member) { name, SAMPLES | ((csv) ? CSV : 0), SB_SAMPLES_K_##kind, AT(member) },
	SB_SAMPLES_COLUMNS(COLUMN)
#undef COLUMN
};

static int in_measurement;

static int shown(const struct column *c, const struct sb_options *o)
{
	return (c->formats & (1u << o->format)) != 0;
}

void sb_output_header(const struct sb_options *o)
{
	const char *sep = "";

	for (const struct column *c = columns; c < columns + sizeof(columns) / sizeof(columns[0]); c++)
		if (shown(c, o)) {
			printf("%s%s", sep, c->name);
			sep = ",";
		}
	if (o->verbose)
		for (unsigned long i = 0; i < o->tasks; i++)
			printf(",task_%lu", i);
	putchar('\n');
	sb_flush_stdout();
}

static void put(const struct column *c, const struct sb_sample *s)
{
	const void *v = (const char *)s + c->at;

	switch (c->kind) {
	case SB_SAMPLES_K_MODE:
		fputs(sb_threads_mode() ? SB_SAMPLES_THREADS : SB_SAMPLES_PROCESSES, stdout);
		break;
	case SB_SAMPLES_K_PHASE:
		fputs(*(const int *)v ? SB_SAMPLES_MEASURE : SB_SAMPLES_WARMUP, stdout);
		break;
	case SB_SAMPLES_K_COUNT:
		printf("%lu", *(const unsigned long *)v);
		break;
	case SB_SAMPLES_K_OPS:
		printf("%llu", *(const unsigned long long *)v);
		break;
	case SB_SAMPLES_K_SECONDS:
		printf("%.6f", *(const double *)v);
		break;
	case SB_SAMPLES_K_RATE:
		printf("%.1f", *(const double *)v);
		break;
	case SB_SAMPLES_K_PCT:
		if (!isnan(*(const double *)v))
			printf("%.2f", *(const double *)v);
		break;
	case SB_SAMPLES_K_MS:
		printf("%.3f", *(const double *)v);
		break;
	}
}

static void csv_row(const struct sb_options *o, const struct sb_sample *s)
{
	const char *sep = "";

	for (const struct column *c = columns; c < columns + sizeof(columns) / sizeof(columns[0]); c++)
		if (shown(c, o)) {
			fputs(sep, stdout);
			put(c, s);
			sep = ",";
		}
	if (o->verbose)
		for (unsigned long i = 0; i < s->ntasks; i++)
			printf(",%.1f", s->task_rates[i]);
	putchar('\n');
}

static unsigned long long rounded(double v)
{
	return (unsigned long long)llround(v);
}

static void text_row(const struct sb_options *o, const struct sb_sample *s)
{
	if (s->measured && !in_measurement) {
		printf("measurement\n");
		in_measurement = 1;
	}
	printf("min:%llu max:%llu total:%llu\n", rounded(s->task_min),
	       rounded(s->task_max), rounded(s->rate));
	if (o->verbose) {
		printf("tasks:");
		for (unsigned long i = 0; i < s->ntasks; i++)
			printf("%s%llu", i ? " " : "", rounded(s->task_rates[i]));
		putchar('\n');
	}
}

void sb_output_begin(const struct sb_options *o, const char *description)
{
	if (o->format != SB_FMT_TEXT) {
		if (!o->no_header)
			sb_output_header(o);
		return;
	}
	printf("testcase:%s\n", description);
	printf("warmup\n");
	fflush(stdout);
}

void sb_output_sample(const struct sb_options *o, const struct sb_sample *s)
{
	if (o->format == SB_FMT_TEXT)
		text_row(o, s);
	else
		csv_row(o, s);
	sb_flush_stdout();
}

void sb_output_end(const struct sb_options *o, double average)
{
	if (o->format == SB_FMT_TEXT) {
		if (!in_measurement)
			printf("measurement\n");
		printf("average:%llu\n", rounded(average));
	}
	sb_flush_stdout();
}
