/* sb-history show's verdicts: each cell's sweeps, then every column pair judged as compare judges two sides (one family, the drift in every test). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "show_priv.h"

static void cell_free(struct cell *c)
{
	free(c->v);
	free(c->vs);
	c->v = NULL;
	c->vs = NULL;
}

void sb_show_judged_free(struct judged *j)
{
	for (size_t i = 0; j->c && i < j->nr * j->ncols; i++)
		cell_free(&j->c[i]);
	free(j->c);
	free(j->first);
	free(j->prev);
	memset(j, 0, sizeof(*j));
}

static int push(double **v, size_t *n, size_t *cap, double x)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		double *nv = realloc(*v, nc * sizeof(*nv));

		if (nv == NULL)
			return -1;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return 0;
}

const struct sb_hist_point *sb_show_point_of(const struct sb_hist_sweep *s, int mode, long tasks)
{
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].mode == mode && s->pts[i].tasks == tasks)
			return &s->pts[i];
	return NULL;
}

/* Column c's values at row k: its sweeps' runs (a point's, or the curve's run by run), each sweep kept apart. */
static int cell_of(const struct sb_hist *h, const struct column *c, const struct rowkey *k, struct cell *out)
{
	double *v = NULL, tmp[1024];
	size_t n = 0, cap = 0;
	struct sb_stats st;

	memset(out, 0, sizeof(*out));
	out->ci = NAN;
	if ((out->vs = calloc(c->n + 1, sizeof(*out->vs))) == NULL)
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		const struct sb_hist_sweep *s = &h->sw[c->sw[i]];
		size_t m = 0;

		if (k->tasks > 0) {
			const struct sb_hist_point *p = sb_show_point_of(s, k->mode, k->tasks);

			for (size_t j = 0; p != NULL && j < p->n; j++)
				if (push(&v, &n, &cap, h->obs[p->off + j]) != 0)
					goto oom;
			m = p != NULL;
		} else {
			size_t r = sb_hist_curve(h, s, k->mode, k->ctasks, k->nct, tmp, 1024);

			for (size_t j = 0; j < r; j++)
				if (push(&v, &n, &cap, tmp[j]) != 0)
					goto oom;
			m = r > 0;
		}
		out->sweeps += m;
		if (n > out->runs)
			out->vs[out->nvs++] = (struct sb_vsweep){ NULL, n - out->runs, 0, 0, s->boot, (long)s->ord };
		out->runs = n;
	}
	for (size_t i = 0, off = 0; i < out->nvs; off += out->vs[i++].n)
		out->vs[i].v = v + off;
	for (size_t j = 0; j < n; j++)
		if (!(v[j] > 0) || !isfinite(v[j]))
			out->failed = 1;
	out->runs = out->failed ? 0 : n;
	n = out->runs;
	if (n > 0 && sb_stats_compute_var(v, n, &st, &out->var, NULL) == 0) {
		out->mean = st.mean;
		if (n >= 2)
			out->ci = sb_ci_halfwidth(&st, SHOW_CONF);
	}
	out->v = v;
	return 0;
oom:
	free(v);
	return -1;
}

/* Two cells' sweeps cross a boot: a boot differs, or one is unknown. */
static int across(const struct cell *a, const struct cell *b)
{
	for (size_t i = 0; i < a->nvs; i++)
		for (size_t k = 0; k < b->nvs; k++)
			if (!a->vs[i].boot || !b->vs[k].boot || strcmp(a->vs[i].boot, b->vs[k].boot) != 0)
				return 1;
	return 0;
}

/* The series of row k in the table's group: its index in s, or ns. */
static size_t series_of(const struct table *t, const struct rowkey *k, const struct sb_hist_series *s, size_t ns)
{
	for (size_t i = 0; i < ns; i++)
		if (s[i].group == t->first->group && s[i].mode == k->mode && s[i].tasks == k->tasks)
			return i;
	return ns;
}

/* x against base at one row, before the family's procedure. */
static struct vs versus(const struct cell *base, const struct cell *x, const struct sb_drift *drift,
			struct sb_vresult *d)
{
	struct vs r = { 0 };
	struct sb_vquery q = { { base->vs, base->nvs }, { x->vs, x->nvs }, SB_VT_RATIO, SHOW_CONF, 0, *drift };

	if (base->runs < 2 || x->runs < 2 || !(base->mean > 0) || sb_verdict(&q, d) != 0)
		return r;
	r.ok = 1;
	r.pct = d->estimate;
	r.hw = (d->hi - d->lo) / 2;
	r.p = d->p;
	return r;
}

/*
 * Column pair (a, x)'s family over the rows: weighted Holm at SHOW_CONF,
 * half the level to the curves and half to the points (compare's gate, two-
 * sided); a row rejected says worse or better, the others same. Its
 * detectable figure is at the level its row's first step in the family has.
 */
static int family(struct judged *j, const struct rowkey *r, struct vs *v, struct sb_vresult *res, size_t col)
{
	double alpha = 1 - SHOW_CONF / 100.0, *p = calloc(j->nr + 1, sizeof(double));
	double *w = calloc(j->nr + 1, sizeof(double));
	int *rej = calloc(j->nr + 1, sizeof(int));
	size_t npt = 0, ncv = 0;

	if (!p || !w || !rej) {
		free(p);
		free(w);
		free(rej);
		return -1;
	}
	for (size_t i = 0; i < j->nr; i++)
		if (v[i * j->ncols + col].ok)
			*(r[i].tasks ? &npt : &ncv) += 1;
	for (size_t i = 0; i < j->nr; i++) {
		const struct vs *e = &v[i * j->ncols + col];

		p[i] = e->ok ? e->p : NAN;
		w[i] = !e->ok ? 0 : ncv == 0 ? 1.0 / (double)npt : npt == 0 ? 1.0 / (double)ncv :
		       0.5 / (double)(r[i].tasks ? npt : ncv);
	}
	if (sb_holm(p, w, j->nr, alpha, rej, NULL) < 0) {
		free(p);
		free(w);
		free(rej);
		return -1;
	}
	for (size_t i = 0; i < j->nr; i++) {
		struct vs *e = &v[i * j->ncols + col];

		if (!e->ok)
			continue;
		e->word = !rej[i] ? "same" : e->pct < 0 ? "worse" : "better";
		e->det = sb_verdict_detectable(&res[i], alpha * w[i]);
	}
	free(p);
	free(w);
	free(rej);
	return 0;
}

/* A column pair's sweeps, left out of the drift its verdicts use, and the testbed's pool without them. */
struct pairskip {
	size_t skip[256], n;
	struct sb_drift_est (*pool)[2];	/* by shape; NULL: no series */
	const char *shape;		/* the newer column's: the shape its verdicts are for */
};

static int pair_skip(const struct sb_hist *h, const struct sb_hist_drift *d, const struct table *t,
		     const struct rowkey *r, size_t nr, const struct sb_hist_series *s, size_t ns, size_t a, size_t x,
		     struct pairskip *ps)
{
	size_t si = ns;

	ps->n = 0;
	ps->pool = NULL;
	ps->shape = t->cols[x].n ? h->sw[t->cols[x].sw[0]].shape : NULL;
	for (size_t k = 0; k < 2; k++) {
		const struct column *col = &t->cols[k ? x : a];

		for (size_t i = 0; i < col->n && ps->n < 256; i++)
			ps->skip[ps->n++] = col->sw[i];
	}
	for (size_t i = 0; d && i < nr && si == ns; i++)
		si = series_of(t, &r[i], s, ns);
	if (si < ns && (ps->pool = sb_hist_drift_pool_without(d, si, ps->skip, ps->n)) == NULL)
		return -1;
	return 0;
}

int sb_show_judge(const struct sb_hist *h, const struct table *t, const struct rowkey *r, size_t nr,
		  const struct sb_hist_drift *d, const struct sb_hist_series *s, size_t ns,
		  const struct sb_drift *base, struct judged *j)
{
	size_t nc = t->ncols;
	struct sb_vresult *ra = calloc(nr + 1, sizeof(*ra)), *rb = calloc(nr + 1, sizeof(*rb));

	memset(j, 0, sizeof(*j));
	j->nr = nr;
	j->ncols = nc;
	j->drift = *base;
	j->c = calloc(nr * nc + 1, sizeof(*j->c));
	j->first = calloc(nr * nc + 1, sizeof(*j->first));
	j->prev = calloc(nr * nc + 1, sizeof(*j->prev));
	if (!ra || !rb || !j->c || !j->first || !j->prev)
		goto oom;
	for (size_t i = 0; i < nr; i++)
		for (size_t c = 0; c < nc; c++)
			if (cell_of(h, &t->cols[c], &r[i], &j->c[i * nc + c]) != 0)
				goto oom;
	for (size_t c = 1; c < nc; c++) {
		struct pairskip pf, pp;

		pf.pool = pp.pool = NULL;
		if (pair_skip(h, d, t, r, nr, s, ns, 0, c, &pf) != 0 || pair_skip(h, d, t, r, nr, s, ns, c - 1, c, &pp) != 0) {
			free(pf.pool);
			goto oom;
		}
		for (size_t i = 0; i < nr; i++) {
			const struct cell *row = &j->c[i * nc];
			size_t si = d ? series_of(t, &r[i], s, ns) : ns;
			struct sb_drift da = *base, db = *base;

			if (si < ns && (sb_hist_drift_of_without(d, si, pf.shape, across(&row[0], &row[c]), pf.skip,
								  pf.n, pf.pool, base, &da) != 0 ||
					sb_hist_drift_of_without(d, si, pp.shape, across(&row[c - 1], &row[c]), pp.skip,
								  pp.n, pp.pool, base, &db) != 0)) {
				free(pf.pool);
				free(pp.pool);
				goto oom;
			}
			if (j->ndrift++ == 0 || (da.src == SB_DRIFT_LEARNED && j->drift.src != SB_DRIFT_LEARNED))
				j->drift = da;
			j->first[i * nc + c] = versus(&row[0], &row[c], &da, &ra[i]);
			j->prev[i * nc + c] = versus(&row[c - 1], &row[c], &db, &rb[i]);
		}
		free(pf.pool);
		free(pp.pool);
		if (family(j, r, j->first, ra, c) != 0 || family(j, r, j->prev, rb, c) != 0)
			goto oom;
	}
	free(ra);
	free(rb);
	return 0;
oom:
	free(ra);
	free(rb);
	sb_show_judged_free(j);
	return -1;
}
