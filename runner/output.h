/* Output formats: will-it-scale's text, and CSV (csv, samples) with one row per sample. */
#ifndef SCALEBENCH_OUTPUT_H
#define SCALEBENCH_OUTPUT_H

#include "options.h"

/* One sample, as the sampler measured it: everything a row of any format shows. */
struct sb_sample {
	unsigned long ntasks;
	unsigned long run;		/* --run */
	int measured;			/* 0 during warmup */
	unsigned long index;		/* 1.. within its phase */
	double elapsed;			/* seconds this sample really lasted */
	unsigned long long ops;		/* all tasks together */
	double rate, task_min, task_max;	/* ops/s */
	double idle, idle_all;		/* %, NaN when not measurable */
	double late_ms;			/* how late the sampler woke up for this sample */
	const double *task_rates;	/* per task ops/s, for -v */
};

/* The CSV header line of o->format (csv or samples), as a run prints it. */
void sb_output_header(const struct sb_options *o);
void sb_output_begin(const struct sb_options *o, const char *description);
void sb_output_sample(const struct sb_options *o, const struct sb_sample *s);
void sb_output_end(const struct sb_options *o, double average);

#endif
