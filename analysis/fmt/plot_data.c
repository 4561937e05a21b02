/* sb-summary --format plot: a run directory's records for plot/plot.py, every file checked. */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "curve.h"
#include "msg.h"
#include "peak_label.h"
#include "plot_data.h"
#include "results.h"

static int no_row(void *ctx, const struct sb_sample *smp)
{
	(void)ctx;
	(void)smp;
	return 0;
}

struct plot_meta {
	FILE *out;
	int complete;		/* status=complete */
	double target;		/* precision=: the target half-width in % of the mean; NAN without one */
	const char *unmet;	/* unmet=: "MODE:TASKS ..." (points into the run model's meta) */
	/* status and the sweep that wrote it: the status line comes last, as a reader shows it */
	const char *status, *sweep_host, *sweep_pid, *sweep_start;
};

static int put_meta(void *ctx, const char *key, const char *value)
{
	struct plot_meta *pm = ctx;
	char *end;

	if (strcmp(key, "status") == 0) {
		pm->complete = strcmp(value, "complete") == 0;
		pm->status = value;
		return 0;
	}
	if (strcmp(key, "precision") == 0 && value[0]) {
		pm->target = strtod(value, &end);
		if (*end || !(pm->target > 0))
			pm->target = NAN;	/* not a target: nothing is marked against it */
	}
	if (strcmp(key, "unmet") == 0)
		pm->unmet = value;
	else if (strcmp(key, "sweep_host") == 0)
		pm->sweep_host = value;
	else if (strcmp(key, "sweep_pid") == 0)
		pm->sweep_pid = value;
	else if (strcmp(key, "sweep_start") == 0)
		pm->sweep_start = value;
	fprintf(pm->out, "meta\t%s\t%s\n", key, value);
	return 0;
}

static void put_plot(FILE *out, double v)
{
	if (isnan(v))
		fputs("\t", out);
	else
		fprintf(out, "\t%.17g", v);
}

/* Whether "MODE:TASKS" is a word of list (meta's unmet). */
static int listed(const char *list, int mode, long tasks)
{
	char word[64];
	size_t len = (size_t)snprintf(word, sizeof(word), "%s:%ld", sb_mode_name[mode], tasks);

	for (const char *p = list ? strstr(list, word) : NULL; p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' '))
			return 1;
	return 0;
}

/* One "origin" record of --format plot from a row of points.csv. */
static int put_origin(void *ctx, const struct sb_points_row *r)
{
	fprintf(ctx, "origin\t%s\t%ld\t%s\t%s\n", sb_mode_name[r->mode], r->tasks, r->origin, r->reason);
	return 0;
}

/* The "row" records of --format plot: summary.csv's rows as they are. */
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

/* The "unmet" records: points short of meta's precision target, or named by its unmet. */
static void put_unmet(FILE *out, const struct sb_summary_row *rows, size_t n, const struct plot_meta *pm)
{
	for (int m = 0; m < SB_NMODES; m++)
		for (size_t i = 0; i < n; i++) {
			double prec = rows[i].mode[m].precision;

			if (isnan(rows[i].mode[m].mean))
				continue;
			if (listed(pm->unmet, m, rows[i].tasks) ||
			    (!isnan(pm->target) && (isnan(prec) || prec > pm->target))) {
				fprintf(out, "unmet\t%s\t%ld", sb_mode_name[m], rows[i].tasks);
				put_plot(out, prec);
				put_plot(out, pm->target);
				fputc('\n', out);
			}
		}
}

void sb_plot_data(FILE *out, const char *dir)
{
	char *summary = NULL, *samples = NULL, *points = NULL;
	char err[PATH_MAX + 512];
	struct sb_run r;
	struct plot_meta pm = { .out = out, .target = NAN, .status = NULL, .sweep_host = "",
				.sweep_pid = "", .sweep_start = "" };
	struct sb_summary_row *rows = NULL;
	size_t n = 0;
	struct stat st;
	int rc;

	if (asprintf(&summary, "%s/summary.csv", dir) < 0 ||
	    asprintf(&samples, "%s/samples.csv", dir) < 0 || asprintf(&points, "%s/points.csv", dir) < 0)
		sb_die(SB_EXIT_ENV, "out of memory");
	/* meta's lines, in order, from the run model (those before a malformed line too) */
	rc = sb_run_meta(dir, &r, err, sizeof(err));
	for (size_t i = 0; i < r.nmeta_lines; i++)
		put_meta(&pm, r.meta_lines[i].key, r.meta_lines[i].value);
	if (rc == 0 && pm.status)
		fprintf(out, "meta\tstatus\t%s\n",
			sb_status_now(pm.status, pm.sweep_host, pm.sweep_pid, pm.sweep_start));
	if (rc != 0)
		sb_die(rc, "%s", err);
	if (stat(summary, &st) != 0) {
		if (pm.complete)
			sb_die(SB_EXIT_USAGE, "%s: missing, but meta says status=complete", summary);
		fputs("empty\tno summary.csv\n", out);
	} else {
		rc = sb_summary_read(summary, &rows, &n, err, sizeof(err));
		if (rc != 0)
			sb_die(rc, "%s", err);
		if (!n)
			fputs("empty\tno completed point in summary.csv\n", out);
	}
	if (stat(samples, &st) == 0) {
		rc = sb_samples_read(samples, no_row, NULL, err, sizeof(err));
		if (rc != 0)
			sb_die(rc, "%s", err);
	}
	put_rows(out, rows, n);
	for (int m = 0; m < SB_NMODES; m++) {
		struct sb_curve cv;
		const struct sb_curve_point *b, *lo, *hi;
		char label[160];
		int cols;

		if (sb_curve_of_summary(rows, n, m, &cv, &cols) != 0)
			sb_die(SB_EXIT_ENV, "out of memory");
		if (cv.has_peak) {
			b = &cv.pt[cv.best], lo = &cv.pt[cv.lo], hi = &cv.pt[cv.hi];
			fprintf(out, "peak\t%s\t%ld\t%.17g\t%ld\t%ld\t%s\n", sb_mode_name[m], b->tasks, b->mean,
				lo->tasks, hi->tasks,
				sb_peak_label(label, sizeof(label), (unsigned long)b->tasks,
					      (unsigned long)lo->tasks, (unsigned long)hi->tasks, b->nruns, SB_CURVE_CONF));
		}
		sb_curve_free(&cv);
	}
	put_unmet(out, rows, n, &pm);
	/* points.csv (sb-plan's): which counts auto points added; runs before it have none (1) */
	rc = sb_points_read(points, put_origin, out, err, sizeof(err));
	if (rc >= 2)
		sb_die(rc, "%s", err);
	sb_run_free(&r);
	free(rows);
	free(summary);
	free(samples);
	free(points);
}

