/* Output formats: will-it-scale's text, and CSV with one row per sample. */
#include <math.h>
#include <stdio.h>

#include "output.h"
#include "util.h"

static int in_measurement;

void sb_output_begin(const struct sb_options *o, const char *description)
{
	if (o->format == SB_FMT_CSV) {
		printf("phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct");
		if (o->verbose)
			for (unsigned long i = 0; i < o->tasks; i++)
				printf(",task_%lu", i);
		putchar('\n');
	} else {
		printf("testcase:%s\n", description);
		printf("warmup\n");
	}
	fflush(stdout);
}

static unsigned long long rounded(double v)
{
	return (unsigned long long)llround(v);
}

static void csv_pct(double v)
{
	if (isnan(v))
		printf(",");
	else
		printf(",%.2f", v);
}

void sb_output_sample(const struct sb_options *o, const struct sb_sample *s)
{
	if (o->format == SB_FMT_CSV) {
		printf("%s,%lu,%.6f,%llu,%.1f,%.1f,%.1f", s->measured ? "measure" : "warmup",
		       s->index, s->elapsed, s->ops, s->rate, s->task_min, s->task_max);
		csv_pct(s->idle);
		csv_pct(s->idle_all);
		if (o->verbose)
			for (unsigned long i = 0; i < s->ntasks; i++)
				printf(",%.1f", s->task_rates[i]);
		putchar('\n');
	} else {
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
	if (fflush(stdout) == EOF)
		sb_die(SB_EXIT_ENV, "writing the output failed");
}

void sb_output_end(const struct sb_options *o, double average)
{
	if (o->format == SB_FMT_TEXT) {
		if (!in_measurement)
			printf("measurement\n");
		printf("average:%llu\n", rounded(average));
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		sb_die(SB_EXIT_ENV, "writing the output failed");
}
