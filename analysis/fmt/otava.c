/* The Otava writer: one row a sweep in the history's order, attributes, then the curve and peak (or every point) of each mode. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit.h"
#include "export.h"
#include "otava.h"

/* The mean of sweep i's per-run values in series s, NAN when the series lacks the sweep. */
static double series_value(const struct sb_hist_series *s, size_t sweep)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->sw[k] == sweep) {
			double sum = 0;

			for (size_t r = 0; r < s->obs[k].nruns; r++)
				sum += s->obs[k].runs[r];
			return s->obs[k].nruns ? sum / (double)s->obs[k].nruns : NAN;
		}
	return NAN;
}

/* The best point mean of mode m in sweep sw, NAN without a point. */
static double peak_of(const struct sb_hist_sweep *sw, int m)
{
	double best = NAN;

	for (size_t j = 0; j < sw->npts; j++)
		if (sw->pts[j].mode == m && (isnan(best) || sw->pts[j].mean > best))
			best = sw->pts[j].mean;
	return best;
}

static void cell(FILE *out, double v)
{
	fputc(',', out);
	if (!isnan(v))
		fprintf(out, "%.6f", v);
}

/* The metric columns: curves (and every point with all_points), then each mode's peak. */
static void header(FILE *out, const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
		   int all_points)
{
	fputs("time,commit,kernel,testbed", out);
	for (size_t k = 0; k < ns; k++)
		if (s[k].tasks == 0)
			fprintf(out, ",%s_curve", h->modes[s[k].mode]);
	for (size_t k = 0; all_points && k < ns; k++)
		if (s[k].tasks > 0)
			fprintf(out, ",%s_%ld", h->modes[s[k].mode], s[k].tasks);
	for (size_t m = 0; m < h->nmodes; m++)
		fprintf(out, ",%s_peak", h->modes[m]);
	fputc('\n', out);
}

static void row(FILE *out, const struct sb_hist *h, size_t i, const struct sb_hist_series *s,
		size_t ns, int all_points)
{
	const struct sb_hist_sweep *sw = &h->sw[i];

	sb_csv_field(out, sw->date);
	fputc(',', out);
	sb_csv_field(out, sw->commit);
	fputc(',', out);
	sb_csv_field(out, sw->release);
	fputc(',', out);
	sb_csv_field(out, sw->tb_name);
	for (size_t k = 0; k < ns; k++)
		if (s[k].tasks == 0)
			cell(out, series_value(&s[k], i));
	for (size_t k = 0; all_points && k < ns; k++)
		if (s[k].tasks > 0)
			cell(out, series_value(&s[k], i));
	for (size_t m = 0; m < h->nmodes; m++)
		cell(out, peak_of(sw, (int)m));
	fputc('\n', out);
}

int sb_otava_write(FILE *out, const struct sb_hist *h, int all_points, char *err, size_t errlen)
{
	struct sb_hist_series *s = NULL;
	size_t ns = 0, *byord;

	for (size_t i = 1; i < h->nsw; i++)
		if (h->sw[i].group != h->sw[0].group) {
			snprintf(err, errlen, "%s: sweeps of %s (testbed %s, params '%s') and of %s (testbed %s, "
				 "params '%s'): Otava reads one series a file; choose one with --testbed",
				 h->sw[0].test, h->sw[0].run_id, h->sw[0].tb_name, h->sw[0].params,
				 h->sw[i].run_id, h->sw[i].tb_name, h->sw[i].params);
			return SB_EXIT_USAGE;
		}
	byord = calloc(h->nsw ? h->nsw : 1, sizeof(*byord));
	if (byord == NULL || sb_hist_series(h, &s, &ns) != 0) {
		free(byord);
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	for (size_t i = 0; i < h->nsw; i++)
		byord[h->sw[i].ord < h->nsw ? h->sw[i].ord : i] = i;
	header(out, h, s, ns, all_points);
	for (size_t k = 0; k < h->nsw; k++)
		row(out, h, byord[k], s, ns, all_points);
	sb_hist_series_free(s, ns);
	free(byord);
	return 0;
}
