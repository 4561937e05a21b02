/* compare --point MODE:TASKS: the point's values in every run, each pair cut to that point, ministat's block drawn into the model. */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg/msg.h"
#include "compare_priv.h"

static int parse_point(const char *spec, char *mode, size_t mlen, long *tasks)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	long t;

	if (colon == NULL || colon == spec || (size_t)(colon - spec) >= mlen)
		return -1;
	errno = 0;
	t = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *end != '\0' || errno == ERANGE || t < 1)
		return -1;
	memcpy(mode, spec, (size_t)(colon - spec));
	mode[colon - spec] = '\0';
	*tasks = t;
	return 0;
}

/*
 * The point's values in every run, into vals[]: per-run means only when
 * every run has them, else the samples. Returns 0, or 2 with a message.
 */
static int point_values(struct ctx *c, const char *mode, long tasks,
			const struct sb_point **pts, const struct sb_values **vals, int *means,
			char *err, size_t errlen)
{
	*means = 1;
	for (int i = 0; i < c->nruns; i++) {
		pts[i] = sb_run_find(&c->runs[i], mode, tasks);
		if (pts[i] == NULL)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s has no point %s:%ld", c->runs[i].dir, mode,
				       tasks);
		*means &= pts[i]->means.n > 0;
	}
	for (int i = 0; i < c->nruns; i++) {
		vals[i] = *means ? &pts[i]->means : &pts[i]->samples;
		if (vals[i]->n < SB_MINISTAT_MINVALUES)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: point %s:%ld has %zu value%s; at least %d are "
				       "needed", c->runs[i].dir, mode, tasks, vals[i]->n,
				       vals[i]->n == 1 ? "" : "s", SB_MINISTAT_MINVALUES);
	}
	return 0;
}

/* The verdict of this one point decides the exit code: every pair keeps its row of base. */
static void keep_point_rows(struct ctx *c, const struct sb_point *base)
{
	for (int i = 1; i < c->nruns; i++) {
		struct pair *pr = &c->pairs[i - 1];
		size_t keep = 0;

		for (size_t k = 0; k < pr->nrows; k++)
			if (pr->rows[k].b == base)
				pr->rows[keep++] = pr->rows[k];
		pr->nrows = keep;
		pr->ncurves = 0;	/* the point's verdict only (the gate was the whole comparison's) */
		pr->nfaster = pr->nslower = pr->nsame = pr->nna = pr->nregress = pr->nchange = 0;
		for (size_t k = 0; k < keep; k++) {
			const struct row *r = &pr->rows[k];

			pr->nfaster += r->v == V_FASTER;
			pr->nslower += r->v == V_SLOWER;
			pr->nsame += r->v == V_SAME;
			pr->nna += r->v == V_NA;
			pr->nchange += r->counts;
			pr->nregress += r->counts && r->v == V_SLOWER;
		}
	}
}

/* Run n's values as ministat data set *set, named by run and point. Returns 0, 2 or 3. */
static int point_set(struct ctx *c, int n, const struct sb_values *vals, const char *mode,
		     long tasks, int means, struct sb_mset *set, char *err, size_t errlen)
{
	size_t len = strlen(c->runs[n].dir) + 64;
	char *name = malloc(len), verr[256];
	int rc;

	if (name == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	snprintf(name, len, "%s %s:%ld (%s)", c->runs[n].dir, mode, tasks,
		 means ? "per-run means" : "samples");
	rc = sb_mset_init(set, name) != 0 ? SB_EXIT_ENV : 0;
	free(name);
	for (size_t k = 0; rc == 0 && k < vals->n; k++)
		if (sb_mset_add(set, vals->v[k]) != 0)
			rc = SB_EXIT_ENV;
	if (rc == 0)
		rc = sb_mset_finish(set, c->runs[n].dir, verr, sizeof(verr));
	if (rc == 0)
		return 0;
	sb_mset_free(set);
	return rc == SB_EXIT_ENV ? sb_fail(err, errlen, SB_EXIT_ENV, "out of memory") : sb_fail(err, errlen, rc, "%s", verr);
}

/* ministat's block of the n sets drawn into c->point (memory: the reports print it whole). 0, 2 or 3. */
static int draw(struct ctx *c, struct sb_mset **ptrs, int n, char *err, size_t errlen)
{
	struct sb_mopts mo = c->o->mopts;
	FILE *mem = open_memstream(&c->point->block, &c->point->len);
	int rc;

	if (mem == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory drawing the plot");
	mo.conf = c->o->conf;
	rc = sb_ministat_print(mem, ptrs, n, &mo);
	if (fclose(mem) != 0 && rc == 0)
		rc = SB_EXIT_ENV;
	return rc != 0 ? sb_fail(err, errlen, rc, "out of memory drawing the plot") : 0;
}

int sb_cmp_point(struct ctx *c, char *err, size_t errlen)
{
	struct sb_mset sets[SB_MINISTAT_MAXSETS];
	struct sb_mset *ptrs[SB_MINISTAT_MAXSETS];
	const struct sb_point *pts[SB_MINISTAT_MAXSETS];
	const struct sb_values *vals[SB_MINISTAT_MAXSETS];
	struct point_view *pv;
	int rc = 0, n = 0, means = 1;

	if (c->o->format != SB_CMP_TEXT && c->o->format != SB_CMP_MARKDOWN)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--point has no csv or JSON form: use text or markdown");
	if ((pv = c->point = calloc(1, sizeof(*c->point))) == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (parse_point(c->o->point, pv->mode, sizeof(pv->mode), &pv->tasks) != 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--point '%s': expected MODE:TASKS, e.g. processes:4",
			    c->o->point);
	if (c->nruns > SB_MINISTAT_MAXSETS)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--point shows at most %d runs, %d given",
			    SB_MINISTAT_MAXSETS, c->nruns);
	rc = point_values(c, pv->mode, pv->tasks, pts, vals, &means, err, errlen);
	if (rc != 0)
		return rc;
	c->correlated = !means;
	keep_point_rows(c, pts[0]);
	for (; n < c->nruns; n++) {
		rc = point_set(c, n, vals[n], pv->mode, pv->tasks, means, &sets[n], err, errlen);
		if (rc != 0)
			goto out;
		ptrs[n] = &sets[n];
	}
	rc = draw(c, ptrs, n, err, errlen);
out:
	for (int i = 0; i < n; i++)
		sb_mset_free(&sets[i]);
	return rc;
}

void sb_cmp_point_free(struct ctx *c)
{
	if (c->point != NULL)
		free(c->point->block);
	free(c->point);
	c->point = NULL;
}
