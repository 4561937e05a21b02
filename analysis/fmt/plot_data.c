/* sb-summary --format plot: a run directory's records for plot/plot.py, printed from the model export/plot_model.c built. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot_data.h"
#include "export/plot_model.h"

static void put_plot(FILE *out, double v)
{
	if (isnan(v))
		fputs("\t", out);
	else
		fprintf(out, "\t%.17g", v);
}

/* The "row" records: summary.csv's rows as they are. */
static void put_rows(FILE *out, const struct sb_summary_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "row\t%ld", rows[i].tasks);
		put_plot(out, rows[i].linear);
		for (int m = 0; m < SB_NMODES; m++) {
			put_plot(out, rows[i].mode[m].mean);
			put_plot(out, rows[i].mode[m].idle);
			put_plot(out, rows[i].mode[m].stddev);
			put_plot(out, rows[i].mode[m].ci);
			if (rows[i].mode[m].n)
				fprintf(out, "\t%ld", rows[i].mode[m].n);
			else
				fputs("\t", out);
		}
		fputc('\n', out);
	}
}

void sb_plot_print(FILE *out, const struct sb_plot *p)
{
	/* meta's lines in order; the status as it is now comes last */
	for (size_t i = 0; i < p->r.nmeta_lines; i++)
		if (strcmp(p->r.meta_lines[i].key, "status") != 0)
			fprintf(out, "meta\t%s\t%s\n", p->r.meta_lines[i].key, p->r.meta_lines[i].value);
	if (p->status)
		fprintf(out, "meta\tstatus\t%s\n", p->status);
	if (p->empty)
		fprintf(out, "empty\t%s\n", p->empty);
	put_rows(out, p->rows, p->nrows);
	for (int k = 0; k < p->npeak; k++) {
		const struct sb_plot_peak *pk = &p->peak[k];

		fprintf(out, "peak\t%s\t%ld\t%.17g\t%ld\t%ld\t%s\n", pk->mode, pk->tasks, pk->mean, pk->lo, pk->hi,
			pk->label);
	}
	for (size_t i = 0; i < p->nunmet; i++) {
		fprintf(out, "unmet\t%s\t%ld", p->unmet[i].mode, p->unmet[i].tasks);
		put_plot(out, p->unmet[i].precision);
		put_plot(out, p->unmet[i].target);
		fputc('\n', out);
	}
	for (size_t i = 0; i < p->norigin; i++)
		fprintf(out, "origin\t%s\t%ld\t%s\t%s\n", p->origin[i].mode, p->origin[i].tasks, p->origin[i].origin,
			p->origin[i].reason);
}
