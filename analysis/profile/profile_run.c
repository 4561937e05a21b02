/* The profiled points of a run directory (runtest.sh --profile) and each one's throughput verdict. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat/ministat.h"
#include "msg/msg.h"
#include "profile.h"
#include "profile_diff.h"
#include "profile_run.h"
#include "io/results.h"
#include "stat/stats.h"
#include "stat/verdict.h"

int sb_prof_point_cmp(const void *a, const void *b)
{
	const struct sb_prof_point *x = a, *y = b;
	int c = strcmp(x->mode, y->mode);

	return c ? c : (x->tasks > y->tasks) - (x->tasks < y->tasks);	/* processes first */
}

struct sb_prof_point *sb_prof_points_of_run(const char *dir, size_t *n)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	struct sb_prof_point *v = NULL;
	size_t k = 0, cap = 0;

	snprintf(path, sizeof(path), "%s/profile", dir);
	d = opendir(path);
	*n = 0;
	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		char *dash = strrchr(e->d_name, '-'), *end;
		long t;

		if (dash == NULL || dash == e->d_name || (size_t)(dash - e->d_name) >= sizeof(v->mode))
			continue;
		t = strtol(dash + 1, &end, 10);
		if (*end || end == dash + 1 || t < 1)
			continue;
		snprintf(path, sizeof(path), "%s/profile/%s/top.csv", dir, e->d_name);
		if (access(path, R_OK) != 0)
			continue;
		if (k == cap) {
			struct sb_prof_point *nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
			if (nv == NULL)
				sb_die(SB_EXIT_ENV, "out of memory");
			v = nv;
		}
		snprintf(v[k].mode, sizeof(v[k].mode), "%.*s", (int)(dash - e->d_name), e->d_name);
		v[k].tasks = t;
		k++;
	}
	closedir(d);
	if (v)
		qsort(v, k, sizeof(*v), sb_prof_point_cmp);
	*n = k;
	return v;
}

void sb_prof_verdict(const struct sb_run *b, const struct sb_run *x, const struct sb_prof_point *pt,
		     const struct sb_drift *drift, char *word, size_t wlen, double *pct, double *half, int *slower)
{
	const struct sb_point *bp = sb_run_find(b, pt->mode, pt->tasks), *xp = sb_run_find(x, pt->mode, pt->tasks);
	const struct sb_values *bv, *xv;
	struct sb_vsweep sb, sx;
	struct sb_vquery q = { { &sb, 1 }, { &sx, 1 }, SB_VT_RATIO, SB_PROF_CONF, 0, *drift };
	struct sb_vresult d;
	size_t need;
	int means;

	*pct = *half = NAN;
	*slower = 0;
	if (bp == NULL || xp == NULL) {
		snprintf(word, wlen, "n/a: not measured in both");
		return;
	}
	means = bp->means.n > 0 && xp->means.n > 0;
	bv = means ? &bp->means : &bp->samples;
	xv = means ? &xp->means : &xp->samples;
	/* as compare's rows: SB_INDEPENDENT_RUNS run means a side, or ministat's 3 samples */
	need = means ? SB_INDEPENDENT_RUNS : SB_MINISTAT_MINVALUES;
	sb = (struct sb_vsweep){ bv->v, bv->n, 0, 0, NULL, -1 };
	sx = (struct sb_vsweep){ xv->v, xv->n, 0, 0, NULL, -1 };
	if (bv->n < need || xv->n < need || !(bv->st.mean > 0) || sb_verdict(&q, &d) != 0) {
		snprintf(word, wlen, "n/a: too few values");
		return;
	}
	*pct = d.estimate;
	*half = d.d.rel_halfwidth_pct;
	/* compare's rule (the verdict module's): the relative interval printed beside it decides */
	if (d.word == SB_VW_SAME)
		snprintf(word, wlen, "no difference proven");
	else
		snprintf(word, wlen, "%s", sb_vword_name[d.word]);
	*slower = d.word == SB_VW_SLOWER;
}

int sb_prof_point_parse(const char *s, struct sb_prof_point *pt)
{
	const char *colon = strchr(s, ':');
	char *end;

	if (colon == NULL || colon == s || (size_t)(colon - s) >= sizeof(pt->mode))
		return -1;
	snprintf(pt->mode, sizeof(pt->mode), "%.*s", (int)(colon - s), s);
	pt->tasks = strtol(colon + 1, &end, 10);
	return *end || end == colon + 1 || pt->tasks < 1 ? -1 : 0;
}

size_t sb_prof_load_common(const struct sb_run *rb, const struct sb_run *rx, const struct sb_prof_point *want,
			   int testcase, struct sb_prof **profs, struct sb_prof_point **common)
{
	size_t nb, nx, shown = 0;
	struct sb_prof_point *pb = sb_prof_points_of_run(rb->dir, &nb), *px = sb_prof_points_of_run(rx->dir, &nx);
	char err[1024], path[4096];
	int rc;

	*profs = calloc(2 * (nb + 1), sizeof(**profs));
	*common = calloc(nb + 1, sizeof(**common));
	if (*profs == NULL || *common == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < nb; i++) {
		size_t j;

		for (j = 0; j < nx && sb_prof_point_cmp(&pb[i], &px[j]) != 0; j++)
			;
		if (j == nx || (want && sb_prof_point_cmp(&pb[i], want) != 0))
			continue;
		for (int side = 0; side < 2; side++) {
			snprintf(path, sizeof(path), "%s/profile/%s-%ld/%s", side ? rx->dir : rb->dir,
				 pb[i].mode, pb[i].tasks, testcase ? "test-top.csv" : "top.csv");
			if ((rc = sb_prof_load(&(*profs)[2 * shown + side], path, err, sizeof(err))) != 0)
				sb_die(rc, "%s", err);
		}
		(*common)[shown++] = pb[i];
	}
	if (shown == 0 && want)
		sb_die(SB_EXIT_USAGE, "point %s:%ld is not profiled in both %s and %s", want->mode,
		       want->tasks, rb->dir, rx->dir);
	if (shown == 0)
		sb_die(SB_EXIT_USAGE, "no point is profiled in both %s and %s (runtest.sh --profile)",
		       rb->dir, rx->dir);
	free(pb);
	free(px);
	return shown;
}

int sb_prof_report_point(FILE *out, const struct sb_run *rb, const struct sb_run *rx,
			 const struct sb_prof_point *pt, const struct sb_drift *drift, const struct sb_prof *profs,
			 enum sb_prof_fmt fmt, size_t limit, int children, int first)
{
	char word[64], pre[256];
	double pct, half;
	int slower;
	size_t nd;
	struct sb_prof_delta *d = sb_prof_diff_rows(&profs[0], &profs[1], children, &nd);

	if (d == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	sb_prof_verdict(rb, rx, pt, drift, word, sizeof(word), &pct, &half, &slower);
	if (fmt == SB_PROF_CSV) {
		snprintf(pre, sizeof(pre), "%s,%ld,%s,%s,%s,", pt->mode, pt->tasks, "", "", word);
		if (!isnan(pct))
			snprintf(pre, sizeof(pre), "%s,%ld,%.2f,%.2f,%s,", pt->mode, pt->tasks, pct, half, word);
		sb_prof_print_diff(out, d, nd, limit, fmt, children, pre, first);
	} else {
		if (fmt == SB_PROF_MARKDOWN)
			fprintf(out, "\n#### %s at %ld tasks: ", pt->mode, pt->tasks);
		else
			fprintf(out, "\n%s at %ld tasks: ", pt->mode, pt->tasks);
		if (isnan(pct))
			fprintf(out, "throughput %s\n", word);
		else
			fprintf(out, "throughput %+.1f%% +/- %.1f%% (%s)\n", pct, half, word);
		if (fmt == SB_PROF_MARKDOWN)
			fputc('\n', out);
		sb_prof_print_diff(out, d, nd, limit, fmt, children, "", 0);
	}
	free(d);
	return slower;
}

int sb_prof_compare_report(FILE *out, const struct sb_run *rb, const struct sb_run *rx,
			   const struct sb_prof_point *common, struct sb_prof *profs, size_t shown,
			   struct sb_prof_drift *pd, enum sb_prof_fmt fmt, size_t limit, int children, int testcase)
{
	struct sb_drift drift;
	char note[2048];
	int regress = 0;

	if (fmt == SB_PROF_TEXT)
		fprintf(out, "compare --profile %s: %s (base) -> %s (new), %s share in %% of %s samples\n",
			rb->test[0] ? rb->test : "?", rb->name, rx->name, children ? "with-children" : "self",
			testcase ? "the testcase's" : "all");
	else if (fmt == SB_PROF_MARKDOWN)
		fprintf(out, "### Profile changes: %s, %s (base) -> %s (new)\n", rb->test[0] ? rb->test : "?",
			rb->name, rx->name);
	for (size_t i = 0; i < shown; i++) {
		sb_prof_drift_point(pd, common[i].mode, common[i].tasks, &drift);
		regress |= sb_prof_report_point(out, rb, rx, &common[i], &drift, &profs[2 * i], fmt, limit,
						children, i == 0);
		sb_prof_free(&profs[2 * i]);
		sb_prof_free(&profs[2 * i + 1]);
	}
	sb_prof_drift_note(pd, note, sizeof(note));
	if (fmt != SB_PROF_CSV)
		fprintf(out, "\nNote: %s\n", note);
	return regress;
}
