/* sb-history show: the N-way table of a testcase, one column per kernel (or testbed), built whole (show_judge.c judges), then printed (show_print.c). */
#define _GNU_SOURCE	/* asprintf */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg/exit.h"
#include "history.h"
#include "msg/msg.h"
#include "show_priv.h"

/* ---- the tables ---- */

static int add_col(struct table *t, const char *name, size_t sw)
{
	struct column *c = NULL;

	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			c = &t->cols[i];
	if (c == NULL) {
		struct column *nv = realloc(t->cols, (t->ncols + 1) * sizeof(*nv));

		if (nv == NULL)
			return -1;
		t->cols = nv;
		c = &t->cols[t->ncols++];
		memset(c, 0, sizeof(*c));
		c->name = name;
	}
	{
		size_t *nv = realloc(c->sw, (c->n + 1) * sizeof(*nv));

		if (nv == NULL)
			return -1;
		c->sw = nv;
		c->sw[c->n++] = sw;
	}
	return 0;
}

static void free_tables(struct table *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < t[i].ncols; j++)
			free(t[i].cols[j].sw);
		free(t[i].cols);
	}
	free(t);
}

/* Same table: the group, or with --by testbed the testcase and params. */
static int same_table(const struct sb_hist_sweep *a, const struct sb_hist_sweep *b, int by_tb)
{
	if (!by_tb)
		return a->group == b->group;
	return strcmp(a->test, b->test) == 0 && strcmp(a->params, b->params) == 0;
}

/* The tables to print: their columns and sweeps. Returns 0, or -1 when memory runs out. */
static int make_tables(const struct sb_hist *h, const struct sb_show_opts *o, struct table **tp,
		       size_t *np)
{
	struct table *t = NULL;
	size_t n = 0;

	for (size_t i = 0; i < h->nsw; i++) {
		const struct sb_hist_sweep *s = &h->sw[i];
		struct table *tb = NULL;
		const char *kernel = o->kernel;

		for (size_t j = 0; j < n && tb == NULL; j++)
			if (same_table(t[j].first, s, o->by_testbed))
				tb = &t[j];
		if (o->by_testbed && kernel == NULL)	/* the newest kernel of the table */
			for (size_t j = h->nsw; j-- > 0;)
				if (same_table(&h->sw[j], s, 1)) {
					kernel = h->sw[j].column;
					break;
				}
		if (o->by_testbed && strcmp(s->column, kernel) != 0)
			continue;
		if (tb == NULL) {
			struct table *nv = realloc(t, (n + 1) * sizeof(*nv));

			if (nv == NULL)
				goto oom;
			t = nv;
			tb = &t[n++];
			memset(tb, 0, sizeof(*tb));
			tb->first = s;
		}
		if (add_col(tb, o->by_testbed ? s->tb_name : s->column, i) != 0)
			goto oom;
	}
	*tp = t;
	*np = n;
	return 0;
oom:
	free_tables(t, n);
	return -1;
}

static int cmp_rowkey(const void *a, const void *b)
{
	const struct rowkey *x = a, *y = b;

	if (x->mode != y->mode)
		return x->mode < y->mode ? -1 : 1;
	if ((x->tasks == 0) != (y->tasks == 0))
		return x->tasks == 0 ? 1 : -1;	/* the curve after the mode's points */
	return x->tasks < y->tasks ? -1 : x->tasks > y->tasks;
}

/* The rows of a table: every point of its sweeps, and each mode's curve over the counts all have. */
static struct rowkey *table_rows(const struct sb_hist *h, const struct table *t, size_t *nr)
{
	struct rowkey *r = NULL;
	size_t n = 0, cap = 0;

	for (size_t c = 0; c < t->ncols; c++)
		for (size_t i = 0; i < t->cols[c].n; i++) {
			const struct sb_hist_sweep *s = &h->sw[t->cols[c].sw[i]];

			for (size_t j = 0; j < s->npts; j++) {
				struct rowkey k = { s->pts[j].mode, s->pts[j].tasks, NULL, 0 };
				size_t q = 0;

				while (q < n && cmp_rowkey(&r[q], &k) != 0)
					q++;
				if (q < n)
					continue;
				if (n + 1 >= cap) {
					struct rowkey *nv = realloc(r, (cap = 2 * cap + 16) * sizeof(*nv));

					if (nv == NULL)
						goto oom;
					r = nv;
				}
				r[n++] = k;
			}
		}
	for (size_t m = 0; m < h->nmodes; m++) {
		long *ct = malloc((n + 1) * sizeof(*ct));
		size_t nct = 0;

		if (ct == NULL)
			goto oom;
		for (size_t q = 0; q < n; q++) {
			int all = r[q].mode == (int)m && r[q].tasks > 0;

			for (size_t c = 0; all && c < t->ncols; c++)
				for (size_t i = 0; all && i < t->cols[c].n; i++)
					all = sb_show_point_of(&h->sw[t->cols[c].sw[i]], (int)m, r[q].tasks) != NULL;
			if (all)
				ct[nct++] = r[q].tasks;
		}
		if (nct < 2) {
			free(ct);
			continue;
		}
		if (n + 1 >= cap) {
			struct rowkey *nv = realloc(r, (cap = 2 * cap + 16) * sizeof(*nv));

			if (nv == NULL) {
				free(ct);
				goto oom;
			}
			r = nv;
		}
		r[n++] = (struct rowkey){ (int)m, 0, ct, nct };
	}
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_rowkey);
	*nr = n;
	return r;
oom:
	for (size_t q = 0; q < n; q++)
		free(r[q].ctasks);
	free(r);
	return NULL;
}

static void free_model(struct show_model *m)
{
	for (size_t i = 0; m->tabs != NULL && i < m->nt; i++) {
		struct show_table *st = &m->tabs[i];

		for (size_t q = 0; q < st->nr; q++) {
			free(st->r[q].ctasks);
			if (st->names != NULL)
				free(st->names[q]);
		}
		free(st->r);
		free(st->names);
		if (st->judged)
			sb_show_judged_free(&st->jd);
	}
	free(m->tabs);
	free_tables(m->t, m->nt);
}

/* Table i of m: its rows, their names, every cell and column pair judged, the drift's words. 0 or -1 (memory). */
static int build_table(const struct sb_hist *h, struct show_model *m, size_t i, const struct sb_hist_drift *hd,
		       const struct sb_hist_series *se, size_t ns, const struct sb_drift *base)
{
	struct show_table *st = &m->tabs[i];
	char buf[160];

	if ((st->r = table_rows(h, &m->t[i], &st->nr)) == NULL ||
	    (st->names = calloc(st->nr + 1, sizeof(*st->names))) == NULL)
		return -1;
	for (size_t q = 0; q < st->nr; q++) {
		sb_hist_point_name(h, st->r[q].mode, st->r[q].tasks, buf, sizeof(buf));
		if ((st->names[q] = strdup(buf)) == NULL)
			return -1;
	}
	if (sb_show_judge(h, &m->t[i], st->r, st->nr, hd, se, ns, base, &st->jd) != 0)
		return -1;
	st->judged = 1;
	sb_drift_words(&st->jd.drift, st->drift_words, sizeof(st->drift_words));
	return 0;
}

int sb_hist_show(FILE *out, const struct sb_hist *h, const struct sb_show_opts *o, char *err,
		 size_t errlen)
{
	struct show_model m = { 0 };
	struct sb_hist_series *se = NULL;
	struct sb_hist_drift *hd = NULL;
	struct sb_drift base;
	size_t ns = 0;
	int rc = 0;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep of that testcase in the history");
	if (make_tables(h, o, &m.t, &m.nt) != 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (m.nt == 0) {
		free_tables(m.t, m.nt);
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep of kernel %s in the history", o->kernel);
	}
	/* the drift: --drift, else learned from this selection's history (testbeds side by side: none) */
	if (o->drift_pct >= 0 || o->by_testbed)
		sb_drift_given(o->by_testbed ? 0 : o->drift_pct, &base);
	else
		sb_drift_default(&base);
	if (base.src == SB_DRIFT_DEFAULT &&
	    (sb_hist_series(h, &se, &ns) != 0 || sb_hist_drift_new(h, se, ns, &hd) != 0))
		rc = SB_EXIT_ENV;
	if (rc == 0 && (m.tabs = calloc(m.nt, sizeof(*m.tabs))) == NULL)
		rc = SB_EXIT_ENV;
	for (size_t i = 0; i < m.nt && rc == 0; i++)
		if (build_table(h, &m, i, hd, se, ns, &base) != 0)
			rc = SB_EXIT_ENV;
	/* computed whole: now printed */
	if (rc == 0 && sb_show_print(out, h, &m, o) != 0)
		rc = SB_EXIT_ENV;
	free_model(&m);
	sb_hist_drift_free(hd);
	sb_hist_series_free(se, ns);
	return rc ? sb_fail(err, errlen, rc, "out of memory") : 0;
}
