/* A history's series: one point (testcase x params x testbed x mode x tasks) or one mode's curve over the sweeps, in order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve_value.h"
#include "msg/exit.h"
#include "history.h"

struct key {
	const char *mode;	/* h->modes[m]: the order of the text */
	int m;
	long tasks;
};

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->mode, y->mode);

	return c != 0 ? c : x->tasks < y->tasks ? -1 : x->tasks > y->tasks;
}

/* The sweep's point (mode m, tasks); NULL. Its points are sorted by the mode's text, then tasks. */
static const struct sb_hist_point *find_point(const struct sb_hist *h, const struct sb_hist_sweep *s,
					      int m, long tasks)
{
	size_t lo = 0, hi = s->npts;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct sb_hist_point *p = &s->pts[mid];
		int c = p->mode == m ? 0 : strcmp(h->modes[p->mode], h->modes[m]);

		if (c == 0)
			c = p->tasks < tasks ? -1 : p->tasks > tasks;
		if (c == 0)
			return p;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every run of the point measured progress: a mean above 0, finite. */
static int point_ok(const struct sb_hist *h, const struct sb_hist_point *p)
{
	for (size_t k = 0; k < p->n; k++)
		if (!(h->obs[p->off + k] > 0) || !isfinite(h->obs[p->off + k]))
			return 0;
	return 1;
}

void sb_hist_point_name(const struct sb_hist *h, int mode, long tasks, char *buf, size_t len)
{
	if (tasks > 0)
		snprintf(buf, len, "%s:%ld", h->modes[mode], tasks);
	else
		snprintf(buf, len, "%s:curve", h->modes[mode]);
}

size_t sb_hist_curve(const struct sb_hist *h, const struct sb_hist_sweep *s, int mode,
		     const long *tasks, size_t nt, double *out, size_t cap)
{
	const double **v;
	size_t runs = cap;

	if (nt == 0)
		return 0;
	v = calloc(nt, sizeof(*v));
	for (size_t i = 0; v && i < nt; i++) {
		const struct sb_hist_point *p = find_point(h, s, mode, tasks[i]);

		if (p == NULL) {
			runs = 0;
			break;
		}
		v[i] = h->obs + p->off;
		runs = p->n < runs ? p->n : runs;
	}
	/* the runs with a curve value (curve_value.h); the point failed is named as a failed point */
	runs = v && sb_curve_value(v, nt, runs, out, NULL) > 0 ? sb_curve_value_pack(out, runs) : 0;
	free(v);
	for (size_t k = 0; k < runs; k++)
		out[k] = exp(out[k]);
	return runs;
}

static void series_clear(struct sb_hist_series *se)
{
	free(se->sw);
	free(se->obs);
	free(se->own);
	memset(se, 0, sizeof(*se));
}

static int grow(struct sb_hist_series **s, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct sb_hist_series *nv = realloc(*s, nc * sizeof(*nv));

		if (nv == NULL)
			return -1;
		*s = nv;
		*cap = nc;
	}
	memset(&(*s)[*n], 0, sizeof(**s));
	return 0;
}

/* The series of point k in group g (sweeps gs[0..ng-1]); a curve's when tasks is 0. */
static int point_series(const struct sb_hist *h, const size_t *gs, size_t ng, const struct key *k,
			struct sb_hist_series *se)
{
	se->group = h->sw[gs[0]].group;
	se->mode = k->m;
	se->tasks = k->tasks;
	se->sw = malloc(ng * sizeof(*se->sw));
	se->obs = malloc(ng * sizeof(*se->obs));
	if (se->sw == NULL || se->obs == NULL)
		return -1;
	for (size_t i = 0; i < ng; i++) {
		const struct sb_hist_point *p = find_point(h, &h->sw[gs[i]], k->m, k->tasks);

		if (p == NULL || !point_ok(h, p))
			continue;	/* a failed measurement: changes reports it itself */
		se->sw[se->n] = gs[i];
		se->obs[se->n++] = (struct sb_cp_obs){ h->obs + p->off, p->n };
	}
	return 0;
}

/* The curve of mode m in group g: over the counts every sweep with the mode has, at least 2. */
static int curve_series(const struct sb_hist *h, const size_t *gs, size_t ng, const struct key *keys,
			size_t nk, int m, struct sb_hist_series *se, int *made)
{
	long *tasks = malloc((nk + 1) * sizeof(*tasks));
	size_t nt = 0, total = 0;

	*made = 0;
	if (tasks == NULL)
		return -1;
	for (size_t i = 0; i < nk; i++) {
		int all = keys[i].m == m;

		for (size_t j = 0; all && j < ng; j++) {
			const struct sb_hist_sweep *s = &h->sw[gs[j]];

			all = find_point(h, s, m, keys[i].tasks) != NULL;
		}
		if (all)
			tasks[nt++] = keys[i].tasks;
	}
	for (size_t j = 0; j < ng && nt >= 2; j++)
		total += find_point(h, &h->sw[gs[j]], m, tasks[0])->n;
	if (nt < 2 || (se->own = malloc((total + 1) * sizeof(double))) == NULL ||
	    (se->sw = malloc(ng * sizeof(*se->sw))) == NULL ||
	    (se->obs = malloc(ng * sizeof(*se->obs))) == NULL) {
		free(tasks);
		return nt < 2 ? 0 : -1;
	}
	se->group = h->sw[gs[0]].group;
	se->mode = m;
	total = 0;
	for (size_t j = 0; j < ng; j++) {
		size_t n = sb_hist_curve(h, &h->sw[gs[j]], m, tasks, nt, se->own + total,
					 find_point(h, &h->sw[gs[j]], m, tasks[0])->n);

		if (n == 0)
			continue;
		se->sw[se->n] = gs[j];
		se->obs[se->n++] = (struct sb_cp_obs){ se->own + total, n };
		total += n;
	}
	free(tasks);
	*made = se->n > 0;
	return 0;
}

/* The distinct points of the group's sweeps, sorted. */
static struct key *group_keys(const struct sb_hist *h, const size_t *gs, size_t ng, size_t *nk)
{
	size_t n = 0, keep = 0;
	struct key *k;

	for (size_t i = 0; i < ng; i++)
		n += h->sw[gs[i]].npts;
	if ((k = malloc((n + 1) * sizeof(*k))) == NULL)
		return NULL;
	n = 0;
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < h->sw[gs[i]].npts; j++) {
			const struct sb_hist_point *p = &h->sw[gs[i]].pts[j];

			k[n++] = (struct key){ h->modes[p->mode], p->mode, p->tasks };
		}
	qsort(k, n, sizeof(*k), cmp_key);
	for (size_t i = 0; i < n; i++)
		if (keep == 0 || cmp_key(&k[keep - 1], &k[i]) != 0)
			k[keep++] = k[i];
	*nk = keep;
	return k;
}

/* Group g's series (its points, then each mode's curve) appended to *s. */
static int group_series(const struct sb_hist *h, const size_t *gs, size_t ng,
			struct sb_hist_series **s, size_t *ns, size_t *cap)
{
	size_t nk;
	struct key *k = group_keys(h, gs, ng, &nk);
	int made;

	if (k == NULL)
		return -1;
	for (size_t i = 0; i < nk; i++) {
		if (grow(s, ns, cap) != 0)
			goto fail;
		if (point_series(h, gs, ng, &k[i], &(*s)[*ns]) != 0) {
			series_clear(&(*s)[*ns]);
			goto fail;
		}
		(*ns)++;
	}
	for (size_t i = 0; i < nk; i++) {
		size_t *ms, nm = 0;

		if (i > 0 && k[i].m == k[i - 1].m)
			continue;
		/* the sweeps that have the mode at all */
		if ((ms = malloc(ng * sizeof(*ms))) == NULL)
			goto fail;
		for (size_t j = 0; j < ng; j++)
			for (size_t q = 0; q < h->sw[gs[j]].npts; q++)
				if (h->sw[gs[j]].pts[q].mode == k[i].m) {
					ms[nm++] = gs[j];
					break;
				}
		if (grow(s, ns, cap) != 0) {
			free(ms);
			goto fail;
		}
		made = 0;
		if (curve_series(h, ms, nm, k, nk, k[i].m, &(*s)[*ns], &made) != 0)
			made = -1;
		free(ms);
		if (made == 1)
			(*ns)++;
		else
			series_clear(&(*s)[*ns]);
		if (made < 0)
			goto fail;
	}
	free(k);
	return 0;
fail:
	free(k);
	return -1;
}

int sb_hist_series(const struct sb_hist *h, struct sb_hist_series **s, size_t *ns)
{
	size_t *gs = malloc((h->nsw + 1) * sizeof(*gs)), cap = 0;
	int rc = 0;

	*s = NULL;
	*ns = 0;
	if (gs == NULL)
		return SB_EXIT_ENV;
	for (size_t g = 0; g < h->ngroups && rc == 0; g++) {
		size_t ng = 0;

		for (size_t i = 0; i < h->nsw; i++)
			if (h->sw[i].group == g)
				gs[ng++] = i;
		if (ng > 0 && group_series(h, gs, ng, s, ns, &cap) != 0)
			rc = SB_EXIT_ENV;
	}
	free(gs);
	if (rc != 0) {
		sb_hist_series_free(*s, *ns);
		*s = NULL;
		*ns = 0;
	}
	return rc;
}

void sb_hist_series_free(struct sb_hist_series *s, size_t ns)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < ns; i++)
		series_clear(&s[i]);
	free(s);
}
