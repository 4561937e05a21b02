/* The continuous-benchmarking exports' model: each run's meta (the run model's) and summary.csv, the runs named apart, their points listed. */
#define _GNU_SOURCE	/* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_runs.h"
#include "msg/exit.h"

static void keep(char *dst, size_t size, const char *v)
{
	snprintf(dst, size, "%s", v);
}

/* The run model's meta (sb_run_meta) of dir into r's names. Returns 0, 2 or 3 with a message in err. */
static int take_meta(const char *dir, struct sb_bench_run *b, char *err, size_t errlen)
{
	struct sb_run r;
	int rc = sb_run_meta(dir, &r, err, errlen);

	if (rc == 0 && r.meta[SB_META_test])
		keep(b->test, sizeof(b->test), r.meta[SB_META_test]);
	if (rc == 0 && r.meta[SB_META_label])
		keep(b->label, sizeof(b->label), r.meta[SB_META_label]);
	if (rc == 0 && r.meta[SB_META_run_id])
		keep(b->run_id, sizeof(b->run_id), r.meta[SB_META_run_id]);
	sb_run_free(&r);
	return rc;
}

static int load_run(const char *dir, struct sb_bench_run *r, char *err, size_t errlen)
{
	char *meta = NULL, *summary = NULL;
	int rc;

	if (asprintf(&meta, "%s/meta", dir) < 0 || asprintf(&summary, "%s/summary.csv", dir) < 0) {
		snprintf(err, errlen, "out of memory");
		free(meta);
		return SB_EXIT_ENV;
	}
	rc = take_meta(dir, r, err, errlen);
	if (rc == 0)
		rc = sb_summary_read(summary, &r->rows, &r->n, err, errlen);
	if (rc == 0 && !r->test[0]) {
		snprintf(err, errlen, "%s: no test= line", meta);
		rc = SB_EXIT_USAGE;
	}
	free(meta);
	free(summary);
	return rc;
}

/*
 * Two runs of one test are told apart by their labels (a stable name keeps
 * the dashboard's history); two with one test and one label cannot be.
 */
static int name_runs(struct sb_bench_run *runs, int n, char **dirs, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		runs[i].who = "";
		for (int j = 0; j < n; j++)
			if (j != i && strcmp(runs[i].test, runs[j].test) == 0) {
				if (strcmp(runs[i].label, runs[j].label) == 0) {
					snprintf(err, errlen, "%s and %s: two runs of %s labelled '%s' would have "
						 "the same names: export them into separate files", dirs[i],
						 dirs[j], runs[i].test, runs[i].label);
					return SB_EXIT_USAGE;
				}
				runs[i].who = runs[i].label;
			}
	}
	return 0;
}

/* Every point with a mean, by run, mode and row. 0, or 3 out of memory. */
static int list_points(struct sb_bench *b, char *err, size_t errlen)
{
	size_t cap = 1;

	for (int ri = 0; ri < b->n; ri++)
		cap += (size_t)SB_NMODES * b->run[ri].n;
	if ((b->pt = calloc(cap, sizeof(*b->pt))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	for (int ri = 0; ri < b->n; ri++)
		for (int md = 0; md < SB_NMODES; md++)
			for (size_t i = 0; i < b->run[ri].n; i++) {
				const struct sb_summary_row *row = &b->run[ri].rows[i];

				if (isnan(row->mode[md].mean))
					continue;
				b->pt[b->npt++] = (struct sb_bench_point){ &b->run[ri], sb_mode_name[md], row->tasks,
									   row->mode[md].mean, row->mode[md].ci,
									   row->mode[md].runs };
			}
	return 0;
}

int sb_bench_load(int n, char **dirs, struct sb_bench *b, char *err, size_t errlen)
{
	int rc = 0;

	memset(b, 0, sizeof(*b));
	if ((b->run = calloc((size_t)(n > 0 ? n : 1), sizeof(*b->run))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	b->n = n;
	for (int i = 0; i < n && rc == 0; i++)
		rc = load_run(dirs[i], &b->run[i], err, errlen);
	if (rc == 0)
		rc = name_runs(b->run, n, dirs, err, errlen);
	if (rc == 0)
		rc = list_points(b, err, errlen);
	return rc;
}

void sb_bench_free(struct sb_bench *b)
{
	for (int i = 0; b->run && i < b->n; i++)
		free(b->run[i].rows);
	free(b->run);
	free(b->pt);
	memset(b, 0, sizeof(*b));
}

int sb_export_test_of(const char *dir, char *test, size_t len)
{
	struct sb_bench_run r = { .test = "" };
	char *path = NULL, err[64];
	int rc = SB_EXIT_USAGE;

	test[0] = '\0';
	for (int latest = 0; latest < 2 && rc != 0; latest++) {
		if (asprintf(&path, latest ? "%s/latest" : "%s", dir) < 0)
			return SB_EXIT_ENV;
		rc = take_meta(path, &r, err, sizeof(err));
		free(path);
	}
	if (rc == 0)
		snprintf(test, len, "%s", r.test);
	return rc == 0 && test[0] ? 0 : SB_EXIT_USAGE;
}
