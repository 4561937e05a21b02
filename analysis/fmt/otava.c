/* The Otava writer: one row a sweep in the history's order, attributes, then the curve and peak (or every point) of each mode, from the built table. */
#include <math.h>
#include <stdio.h>

#include "export.h"
#include "otava.h"

static void cell(FILE *out, double v)
{
	fputc(',', out);
	if (!isnan(v))
		fprintf(out, "%.6f", v);
}

void sb_otava_print(FILE *out, const struct sb_otava_table *t)
{
	fputs("time,commit,kernel,testbed", out);
	for (size_t c = 0; c < t->ncols; c++) {
		const struct sb_otava_col *col = &t->cols[c];

		if (col->series == NULL)
			fprintf(out, ",%s_peak", col->mode);
		else if (col->tasks == 0)
			fprintf(out, ",%s_curve", col->mode);
		else
			fprintf(out, ",%s_%ld", col->mode, col->tasks);
	}
	fputc('\n', out);
	for (size_t k = 0; k < t->nrows; k++) {
		const struct sb_hist_sweep *sw = t->rows[k];

		sb_csv_field(out, sw->date);
		fputc(',', out);
		sb_csv_field(out, sw->commit);
		fputc(',', out);
		sb_csv_field(out, sw->release);
		fputc(',', out);
		sb_csv_field(out, sw->tb_name);
		for (size_t c = 0; c < t->ncols; c++)
			cell(out, t->v[k * t->ncols + c]);
		fputc('\n', out);
	}
}
