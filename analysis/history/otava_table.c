/* sb-history export --format otava: the table built whole (a row a sweep in order, a column a curve, point or peak), then printed by fmt/otava.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg/exit.h"
#include "fmt/otava.h"

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

/* The metric columns: the curves (and every point with all_points), then each mode's peak. */
static void columns(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns, int all_points,
		    struct sb_otava_table *t)
{
	for (size_t k = 0; k < ns; k++)
		if (s[k].tasks == 0)
			t->cols[t->ncols++] = (struct sb_otava_col){ h->modes[s[k].mode], 0, &s[k], -1 };
	for (size_t k = 0; all_points && k < ns; k++)
		if (s[k].tasks > 0)
			t->cols[t->ncols++] = (struct sb_otava_col){ h->modes[s[k].mode], s[k].tasks, &s[k], -1 };
	for (size_t m = 0; m < h->nmodes; m++)
		t->cols[t->ncols++] = (struct sb_otava_col){ h->modes[m], 0, NULL, (int)m };
}

/* t's rows (sweeps in order) and values. 0, or -1 when memory runs out. */
static int fill(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns, int all_points,
		struct sb_otava_table *t)
{
	t->cols = calloc(ns + h->nmodes + 1, sizeof(*t->cols));
	t->rows = calloc(h->nsw + 1, sizeof(*t->rows));
	if (t->cols == NULL || t->rows == NULL)
		return -1;
	columns(h, s, ns, all_points, t);
	t->v = calloc(h->nsw * t->ncols + 1, sizeof(*t->v));
	if (t->v == NULL)
		return -1;
	t->nrows = h->nsw;
	for (size_t k = 0; k < h->nsw; k++)
		t->rows[k] = &h->sw[0];	/* (the order is a permutation: every row is set below) */
	for (size_t i = 0; i < h->nsw; i++)
		t->rows[h->sw[i].ord < h->nsw ? h->sw[i].ord : i] = &h->sw[i];
	for (size_t k = 0; k < t->nrows; k++)
		for (size_t c = 0; c < t->ncols; c++) {
			const struct sb_otava_col *col = &t->cols[c];

			t->v[k * t->ncols + c] = col->series ? series_value(col->series, (size_t)(t->rows[k] - h->sw)) :
					      peak_of(t->rows[k], col->peak_mode);
		}
	return 0;
}

int sb_otava_write(FILE *out, const struct sb_hist *h, int all_points, char *err, size_t errlen)
{
	struct sb_hist_series *s = NULL;
	struct sb_otava_table t = { 0 };
	size_t ns = 0;
	int rc = 0;

	for (size_t i = 1; i < h->nsw; i++)
		if (h->sw[i].group != h->sw[0].group) {
			/* a hint that can be followed: --testbed chooses by name, not between params */
			const char *hint = strcmp(h->sw[i].tb_name, h->sw[0].tb_name) != 0 ? "choose one with --testbed" :
					   strcmp(h->sw[i].params, h->sw[0].params) != 0 ?
					   "their params differ, which --testbed cannot choose between: --any-params "
					   "makes them one series (a param changed on purpose)" :
					   "one host name, two testbeds (other CPU or topology facts): --testbed "
					   "cannot choose between them";

			snprintf(err, errlen, "%s: sweeps of %s (testbed %s, params '%s') and of %s (testbed %s, "
				 "params '%s'): Otava reads one series a file; %s",
				 h->sw[0].test, h->sw[0].run_id, h->sw[0].tb_name, h->sw[0].params,
				 h->sw[i].run_id, h->sw[i].tb_name, h->sw[i].params, hint);
			return SB_EXIT_USAGE;
		}
	if (sb_hist_series(h, &s, &ns) != 0 || fill(h, s, ns, all_points, &t) != 0) {
		snprintf(err, errlen, "out of memory");
		rc = SB_EXIT_ENV;
	} else {
		sb_otava_print(out, &t);	/* computed whole: now printed */
	}
	free(t.cols);
	free(t.rows);
	free(t.v);
	sb_hist_series_free(s, ns);
	return rc;
}
