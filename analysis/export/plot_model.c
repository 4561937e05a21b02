/* sb-summary --format plot's model: meta, summary.csv, samples.csv and points.csv checked, each mode's peak, the unmet points and the origins computed for fmt/plot_data.c. */
#define _GNU_SOURCE	/* asprintf */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "curve/curve.h"
#include "msg/exit.h"
#include "curve/peak_label.h"
#include "plot_model.h"

/* What the records take from meta's lines (the last line of a key counts). */
struct plot_meta {
	int complete;		/* status=complete */
	double target;		/* precision=: the target half-width in % of the mean; NAN without one */
	const char *unmet;	/* unmet=: "MODE:TASKS ..." (points into the run model's meta) */
	/* status and the sweep that wrote it: the status record comes last, as a reader shows it */
	const char *status, *sweep_host, *sweep_pid, *sweep_start;
};

static void take_meta(struct plot_meta *pm, const char *key, const char *value)
{
	char *end;

	if (strcmp(key, "status") == 0) {
		pm->complete = strcmp(value, "complete") == 0;
		pm->status = value;
		return;
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
}

/* p's error: rc with its message. Returns rc. */
static int stop(struct sb_plot *p, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return p->rc = rc;
}

static int no_row(void *ctx, const struct sb_sample *smp)
{
	(void)ctx;
	(void)smp;
	return 0;
}

/* One origin from a row of points.csv. */
static int take_origin(void *ctx, const struct sb_points_row *r)
{
	struct sb_plot *p = ctx;

	if (p->norigin == p->origin_cap) {
		size_t cap = p->origin_cap ? 2 * p->origin_cap : 16;
		struct sb_plot_origin *o = realloc(p->origin, cap * sizeof(*o));

		if (o == NULL)
			return -1;
		p->origin = o, p->origin_cap = cap;
	}
	p->origin[p->norigin].mode = sb_mode_name[r->mode];
	p->origin[p->norigin].tasks = r->tasks;
	snprintf(p->origin[p->norigin].origin, sizeof(p->origin[0].origin), "%s", r->origin);
	snprintf(p->origin[p->norigin].reason, sizeof(p->origin[0].reason), "%s", r->reason);
	p->norigin++;
	return 0;
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

/* Each mode's peak and plateau (summary.csv's _peak columns, else found on its means). */
static int take_peaks(struct sb_plot *p)
{
	for (int m = 0; m < SB_NMODES; m++) {
		struct sb_curve cv;
		const struct sb_curve_point *b, *lo, *hi;
		struct sb_plot_peak *pk = &p->peak[p->npeak];
		int cols;

		if (sb_curve_of_summary(p->rows, p->nrows, m, &cv, &cols) != 0)
			return stop(p, SB_EXIT_ENV, "out of memory");
		if (cv.has_peak) {
			b = &cv.pt[cv.best], lo = &cv.pt[cv.lo], hi = &cv.pt[cv.hi];
			*pk = (struct sb_plot_peak){ sb_mode_name[m], b->tasks, lo->tasks, hi->tasks, b->mean, "" };
			sb_peak_label(pk->label, sizeof(pk->label), (unsigned long)b->tasks, (unsigned long)lo->tasks,
				      (unsigned long)hi->tasks, b->nruns, SB_CURVE_CONF);
			p->npeak++;
		}
		sb_curve_free(&cv);
	}
	return 0;
}

/* The points short of meta's precision target, or named by its unmet. */
static int take_unmet(struct sb_plot *p, const struct plot_meta *pm)
{
	const struct sb_summary_row *rows = p->rows;

	if ((p->unmet = calloc(p->nrows * SB_NMODES + 1, sizeof(*p->unmet))) == NULL)
		return stop(p, SB_EXIT_ENV, "out of memory");
	for (int m = 0; m < SB_NMODES; m++)
		for (size_t i = 0; i < p->nrows; i++) {
			double prec = rows[i].mode[m].precision;

			if (isnan(rows[i].mode[m].mean))
				continue;
			if (listed(pm->unmet, m, rows[i].tasks) ||
			    (!isnan(pm->target) && (isnan(prec) || prec > pm->target)))
				p->unmet[p->nunmet++] = (struct sb_plot_unmet){ sb_mode_name[m], rows[i].tasks, prec,
										 pm->target };
		}
	return 0;
}

/* summary.csv (a complete run has one) and samples.csv when there, checked; the rows kept. */
static int take_files(struct sb_plot *p, const char *summary, const char *samples, int complete)
{
	struct stat st;
	int rc;

	if (stat(summary, &st) != 0) {
		if (complete)
			return stop(p, SB_EXIT_USAGE, "%s: missing, but meta says status=complete", summary);
		p->empty = "no summary.csv";
	} else {
		if ((rc = sb_summary_read(summary, &p->rows, &p->nrows, p->err, sizeof(p->err))) != 0)
			return p->rc = rc;
		if (!p->nrows)
			p->empty = "no completed point in summary.csv";
	}
	if (stat(samples, &st) == 0 && (rc = sb_samples_read(samples, no_row, NULL, p->err, sizeof(p->err))) != 0) {
		free(p->rows);
		p->rows = NULL, p->nrows = 0;	/* no record after the failed check */
		return p->rc = rc;
	}
	return 0;
}

int sb_plot_build(const char *dir, struct sb_plot *p)
{
	char *summary = NULL, *samples = NULL, *points = NULL;
	struct plot_meta pm = { .target = NAN, .status = NULL, .sweep_host = "", .sweep_pid = "",
				.sweep_start = "" };
	int rc;

	memset(p, 0, sizeof(*p));
	if (asprintf(&summary, "%s/summary.csv", dir) < 0 || asprintf(&samples, "%s/samples.csv", dir) < 0 ||
	    asprintf(&points, "%s/points.csv", dir) < 0) {
		free(summary);
		free(samples);
		return stop(p, SB_EXIT_ENV, "out of memory");
	}
	/* meta's lines, in order, from the run model (those before a malformed line too) */
	rc = sb_run_meta(dir, &p->r, p->err, sizeof(p->err));
	for (size_t i = 0; i < p->r.nmeta_lines; i++)
		take_meta(&pm, p->r.meta_lines[i].key, p->r.meta_lines[i].value);
	if (rc != 0)
		p->rc = rc;
	else if (pm.status)
		p->status = sb_status_now(pm.status, pm.sweep_host, pm.sweep_pid, pm.sweep_start);
	if (p->rc == 0 && take_files(p, summary, samples, pm.complete) == 0 && take_peaks(p) == 0 &&
	    take_unmet(p, &pm) == 0) {
		/* points.csv (sb-plan's): which counts auto points added; runs before it have none (1) */
		rc = sb_points_read(points, take_origin, p, p->err, sizeof(p->err));
		if (rc >= 2)
			p->rc = rc;
	}
	free(summary);
	free(samples);
	free(points);
	return p->rc;
}

void sb_plot_free(struct sb_plot *p)
{
	sb_run_free(&p->r);
	free(p->rows);
	free(p->unmet);
	free(p->origin);
	memset(p, 0, sizeof(*p));
}
