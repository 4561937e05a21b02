/* The drift a series' verdicts use, learned from the history: its testbed's other series as the prior, its own sweeps as the data. */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

/*
 * Estimates are kept by sweep shape (meta's duration, warmup and period_ms):
 * a sweep's offset averages a drift that moves in seconds, so sweeps of
 * another length are another series of offsets. Arrays "by shape" hold
 * nshapes entries, index S for shapes[S].
 */
struct sb_hist_drift {
	const struct sb_hist *h;
	const struct sb_hist_series *s;
	size_t ns;
	const char **shapes;			/* the shapes of h's sweeps (h's strings) */
	size_t nshapes;
	size_t *swshape;			/* h->sw[i]'s shape index */
	struct sb_drift_est (*est)[2];		/* est[si * nshapes + S]: series si's own, within and across boots */
	struct sb_drift_est (*bed)[2];		/* bed[slot * nshapes + S]: a testbed's pool over its series */
	size_t *slot;				/* series -> its testbed's slot */
	size_t *bed_sweeps;			/* [slot * nshapes + S]: sweeps of each testbed and shape */
	size_t nbeds;
	struct sb_drift_sweep *sweeps;		/* every series' sweeps (sb_hist_series_sweeps), series i's from off[i] */
	size_t *off;
	size_t *order;				/* [ooff[si * nshapes + S]...]: sb_drift_series_order of each series and shape */
	size_t *ooff, *on;
};

char *sb_hist_shape_name(const char *duration, const char *warmup, const char *period_ms)
{
	char *s;

	if (!*duration && !*warmup && !*period_ms)
		return strdup("an unknown shape");
	if (asprintf(&s, "duration %.24s, warmup %.24s, period_ms %.24s", *duration ? duration : "?",
		     *warmup ? warmup : "?", *period_ms ? period_ms : "?") < 0)
		return NULL;
	return s;
}

/* The sweeps of one series as the drift estimate takes them: mean and variance of log runs. */
int sb_hist_series_sweeps(const struct sb_hist *h, const struct sb_hist_series *se,
			  struct sb_drift_sweep *out)
{
	for (size_t i = 0; i < se->n; i++) {
		const struct sb_cp_obs *o = &se->obs[i];
		double sum = 0, ss = 0;
		size_t n = 0;

		for (size_t r = 0; r < o->nruns; r++)
			if (o->runs[r] > 0) {
				sum += log(o->runs[r]);
				n++;
			}
		out[i] = (struct sb_drift_sweep){ .mean = n ? sum / (double)n : NAN, .n = n,
			.boot = h->sw[se->sw[i]].boot };
		if (h->sw[se->sw[i]].judged)	/* a sweep being judged: in the order, not in the estimate */
			out[i].n = 0;
		if (n < 2)
			continue;
		for (size_t r = 0; r < o->nruns; r++)
			if (o->runs[r] > 0)
				ss += (log(o->runs[r]) - out[i].mean) * (log(o->runs[r]) - out[i].mean);
		out[i].var = ss / (double)(n - 1);
	}
	return 0;
}

void sb_hist_drift_free(struct sb_hist_drift *d)
{
	if (!d)
		return;
	free(d->shapes);
	free(d->swshape);
	free(d->est);
	free(d->bed);
	free(d->slot);
	free(d->bed_sweeps);
	free(d->sweeps);
	free(d->off);
	free(d->order);
	free(d->ooff);
	free(d->on);
	free(d);
}

/* The shape index of each sweep of h (a new shape: the next index). */
static int shape_slots(struct sb_hist_drift *d)
{
	const struct sb_hist *h = d->h;

	if (!(d->shapes = calloc(h->nsw + 1, sizeof(*d->shapes))) || !(d->swshape = calloc(h->nsw + 1, sizeof(size_t))))
		return -1;
	for (size_t i = 0; i < h->nsw; i++) {
		const char *sh = h->sw[i].shape ? h->sw[i].shape : "";
		size_t k = 0;

		while (k < d->nshapes && strcmp(d->shapes[k], sh) != 0)
			k++;
		if (k == d->nshapes)
			d->shapes[d->nshapes++] = sh;
		d->swshape[i] = k;
	}
	return 0;
}

size_t sb_hist_drift_shape_index(const struct sb_hist_drift *d, const char *shape)
{
	size_t k = 0;

	while (k < d->nshapes && strcmp(d->shapes[k], shape) != 0)
		k++;
	return k;
}

#define shape_index sb_hist_drift_shape_index

size_t sb_hist_drift_nshapes(const struct sb_hist_drift *d)
{
	return d->nshapes;
}

const char *sb_hist_drift_shape(const struct sb_hist_drift *d, size_t k)
{
	return d->shapes[k];
}

size_t sb_hist_drift_shape_of(const struct sb_hist_drift *d, size_t sweep)
{
	return d->swshape[sweep];
}

const struct sb_drift_est *sb_hist_drift_own(const struct sb_hist_drift *d, size_t si, size_t shape)
{
	return d->est[si * d->nshapes + shape];
}

/* The testbed slot of each series, and how many sweeps each testbed has of each shape. */
static int testbed_slots(struct sb_hist_drift *d)
{
	const struct sb_hist *h = d->h;
	long *ids = malloc((d->ns + 1) * sizeof(long));

	if (!ids)
		return -1;
	for (size_t i = 0; i < d->ns; i++) {
		long tb = d->s[i].n ? h->sw[d->s[i].sw[0]].testbed : -1;
		size_t k = 0;

		while (k < d->nbeds && ids[k] != tb)
			k++;
		if (k == d->nbeds)
			ids[d->nbeds++] = tb;
		d->slot[i] = k;
	}
	for (size_t i = 0; i < h->nsw; i++)
		for (size_t k = 0; k < d->nbeds; k++)
			if (ids[k] == h->sw[i].testbed)
				d->bed_sweeps[k * d->nshapes + d->swshape[i]]++;
	free(ids);
	return 0;
}

/*
 * Series se's estimates by shape into est[nshapes]: the pairs are consecutive
 * sweeps of one shape (a sweep of another shape between them is passed over);
 * a sweep whose index is in skip stays in its shape's order with no runs, so
 * that its neighbours are not read as a pair. all and buf hold se->n sweeps.
 */
static int series_est(const struct sb_hist_drift *d, const struct sb_hist_series *se, const size_t *skip,
		      size_t nskip, struct sb_drift_sweep *all, struct sb_drift_sweep *buf,
		      struct sb_drift_est (*est)[2])
{
	memcpy(all, &d->sweeps[d->off[se - d->s]], se->n * sizeof(*all));
	for (size_t q = 0; q < nskip; q++)
		for (size_t i = 0; i < se->n; i++)
			if (se->sw[i] == skip[q])
				all[i].n = 0;
	for (size_t sh = 0; sh < d->nshapes; sh++) {
		size_t k = 0, o = (size_t)(se - d->s) * d->nshapes + sh;

		for (size_t i = 0; i < se->n; i++)
			if (d->swshape[se->sw[i]] == sh)
				buf[k++] = all[i];
		/* the sweeps' order of differences, once per series and shape: no sort again */
		if (d->order && sb_drift_series_sorted(buf, k, &d->order[d->ooff[o]], d->on[o], est[sh]) < 0)
			return -1;
		if (!d->order && sb_drift_series(buf, k, est[sh]) < 0)
			return -1;
	}
	return 0;
}

/* Series se's estimates by shape, without the sweeps in skip: a new array (NULL: no memory). */
static struct sb_drift_est (*own_without(const struct sb_hist_drift *d, const struct sb_hist_series *se,
					 const size_t *skip, size_t nskip))[2]
{
	struct sb_drift_sweep *all = malloc((se->n + 1) * sizeof(*all)), *buf = malloc((se->n + 1) * sizeof(*buf));
	struct sb_drift_est (*est)[2] = calloc(d->nshapes + 1, sizeof(*est));

	if (!all || !buf || !est || series_est(d, se, skip, nskip, all, buf, est) != 0) {
		free(est);
		est = NULL;
	}
	free(all);
	free(buf);
	return est;
}

/* Every series' sweeps, once: the estimates without a column pair's sweeps start from them. */
static int all_sweeps(struct sb_hist_drift *d)
{
	size_t n = 0;

	if (!(d->off = calloc(d->ns + 1, sizeof(*d->off))))
		return -1;
	for (size_t i = 0; i < d->ns; i++) {
		d->off[i] = n;
		n += d->s[i].n;
	}
	if (!(d->sweeps = calloc(n + 1, sizeof(*d->sweeps))))
		return -1;
	for (size_t i = 0; i < d->ns; i++)
		sb_hist_series_sweeps(d->h, &d->s[i], &d->sweeps[d->off[i]]);
	return 0;
}

/* The order of each series' and shape's differences (sb_drift_series_order), after all_sweeps. */
static int all_orders(struct sb_hist_drift *d)
{
	size_t m = d->nshapes, at = 0, most = 0;
	struct sb_drift_sweep *buf;
	size_t *order, *ooff, *on;

	for (size_t si = 0; si < d->ns; si++)
		most = d->s[si].n > most ? d->s[si].n : most;
	order = calloc(d->off[d->ns ? d->ns - 1 : 0] + (d->ns ? d->s[d->ns - 1].n : 0) + 1, sizeof(*order));
	ooff = calloc(d->ns * m + 1, sizeof(*ooff));
	on = calloc(d->ns * m + 1, sizeof(*on));
	buf = malloc((most + 1) * sizeof(*buf));
	for (size_t si = 0; order && ooff && on && buf && si < d->ns; si++)
		for (size_t sh = 0; sh < m; sh++) {
			const struct sb_hist_series *se = &d->s[si];
			size_t k = 0, n;

			for (size_t i = 0; i < se->n; i++)
				if (d->swshape[se->sw[i]] == sh)
					buf[k++] = d->sweeps[d->off[si] + i];
			if ((n = sb_drift_series_order(buf, k, &order[at])) == (size_t)-1)
				goto fail;
			ooff[si * m + sh] = at;
			on[si * m + sh] = n;
			at += n;
		}
	if (!order || !ooff || !on || !buf)
		goto fail;
	free(buf);
	d->order = order;
	d->ooff = ooff;
	d->on = on;
	return 0;
fail:
	free(order);
	free(ooff);
	free(on);
	free(buf);
	return -1;
}

/* Does series se have a sweep marked in mark (one flag a sweep of h)? */
static int has_marked(const struct sb_hist_series *se, const unsigned char *mark)
{
	for (size_t i = 0; i < se->n; i++)
		if (mark[se->sw[i]])
			return 1;
	return 0;
}

int sb_hist_drift_new(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
		      struct sb_hist_drift **out)
{
	struct sb_hist_drift *d = calloc(1, sizeof(*d));
	struct sb_drift_est (*e)[2] = NULL;
	size_t m;

	*out = NULL;
	if (!d)
		return -1;
	d->h = h;
	d->s = s;
	d->ns = ns;
	if (shape_slots(d) < 0)
		goto oom;
	m = d->nshapes ? d->nshapes : 1;
	d->est = calloc(ns * m + 1, sizeof(*d->est));
	d->bed = calloc(ns * m + 1, sizeof(*d->bed));
	d->slot = calloc(ns + 1, sizeof(*d->slot));
	d->bed_sweeps = calloc(ns * m + 1, sizeof(*d->bed_sweeps));
	if (!d->est || !d->bed || !d->slot || !d->bed_sweeps || testbed_slots(d) < 0 || all_sweeps(d) < 0 ||
	    all_orders(d) < 0)	/* each series' one sort: every estimate below walks its order */
		goto oom;
	for (size_t i = 0; i < ns; i++) {
		if ((e = own_without(d, &s[i], NULL, 0)) == NULL)
			goto oom;
		for (size_t sh = 0; sh < d->nshapes; sh++)
			for (int c = 0; c < 2; c++) {
				d->est[i * m + sh][c] = e[sh][c];
				sb_drift_pool(&d->bed[d->slot[i] * m + sh][c], &e[sh][c]);
			}
		free(e);
	}
	*out = d;
	return 0;
oom:
	sb_hist_drift_free(d);
	errno = ENOMEM;
	return -1;
}

/* pool less one of its members (the series itself: it is the data, not the prior) */
static struct sb_drift_est pool_without(const struct sb_drift_est *pool, const struct sb_drift_est *own)
{
	struct sb_drift_est r = *pool;

	if (own->df > 0) {
		r.df = pool->df - own->df;
		r.tau2 = r.df > 1e-9 ? (pool->df * pool->tau2 - own->df * own->tau2) / r.df : 0;
		if (r.df <= 1e-9)
			r.df = 0;
		if (r.tau2 < 0)
			r.tau2 = 0;
		r.pairs -= own->pairs;
	}
	return r;
}

/* What one verdict's drift is learned from: a series' own estimates and its testbed's pool, by shape. */
struct view {
	const struct sb_drift_est (*own)[2];	/* NULL: none (a point the history has not seen) */
	const struct sb_drift_est (*bed)[2];
	const size_t *sweeps;			/* the testbed's sweeps of each shape */
	const char *const *shapes;
	size_t nshapes;
};

/* The testbed's sweeps of shapes other than sh, pooled into o[2]; their sweeps into *n; the shapes it has into *nsh. */
static void other_shapes(const struct view *v, size_t sh, struct sb_drift_est o[2], size_t *n, size_t *nsh)
{
	memset(o, 0, 2 * sizeof(*o));
	*n = *nsh = 0;
	for (size_t k = 0; k < v->nshapes; k++) {
		if (v->sweeps[k] == 0)
			continue;
		++*nsh;
		if (k == sh)
			continue;
		*n += v->sweeps[k];
		for (int c = 0; c < 2; c++)
			sb_drift_pool(&o[c], &v->bed[k][c]);
	}
}

/* A pooled figure as a prior: counted as at most the df the sweeps behind it could give, and SB_DRIFT_PRIOR_MAXDF. */
static void as_prior(const struct sb_drift_est *e, size_t sweeps, struct sb_drift *p)
{
	p->tau2 = e->tau2;
	p->df = fmin(fmin(e->df, sb_drift_est_df(sweeps ? sweeps - 1 : 0)), SB_DRIFT_PRIOR_MAXDF);
	p->src = SB_DRIFT_LEARNED;
}

/*
 * Nothing of shape sh known on the testbed: its sweeps of other shapes, as a
 * prior only (the figure of pairs of kind across where known, else of the
 * other kind). Returns 0 when there are none either.
 */
static int from_other_shapes(const struct view *v, size_t sh, int across, const char *shape,
			     const struct sb_drift *base, struct sb_drift *out)
{
	struct sb_drift_est o[2];
	size_t n, nsh;
	int c = across;

	other_shapes(v, sh, o, &n, &nsh);
	if (!(o[c].df > 0))
		c = !c;
	if (!(o[c].df > 0))
		return 0;
	*out = *base;
	as_prior(&o[c], n, out);
	snprintf(out->what, sizeof(out->what), "none learned of its shape (%.100s): its testbed's sweeps of other "
		 "shapes %s, as the prior only, %.0f df", shape, c ? "across boots" : "within a boot", out->df);
	return 1;
}

/* The drift of shape sh (nshapes: one the history has not seen) from view v. */
static void drift_from(const struct view *v, size_t sh, const char *shape, int across, const struct sb_drift *base,
		       struct sb_drift *out)
{
	static const struct sb_drift_est none[2];
	const struct sb_drift_est *o = v->own && sh < v->nshapes ? v->own[sh] : none;
	const struct sb_drift_est *pool = sh < v->nshapes ? v->bed[sh] : none;
	const struct sb_drift_est *own = &o[across];
	struct sb_drift_est bed = pool_without(&pool[across], own), oth[2];
	struct sb_drift prior = *base;
	size_t shs = sh < v->nshapes ? v->sweeps[sh] : 0, nothers, nsh;
	const char *where = across ? "across boots" : "within a boot", *from = " and its testbed's other series";
	char what[300], named[120] = "";

	*out = *base;
	if (base->src != SB_DRIFT_DEFAULT)	/* --drift: taken as given */
		return;
	/* nothing of this kind of pair: the other kind (a figure within a boot understates one across) */
	if (!(own->df > 0) && !(bed.df > 0)) {
		own = &o[!across];
		bed = pool_without(&pool[!across], own);
		where = across ? "within a boot (none across boots known)" : "across boots";
	}
	if (!(own->df > 0) && !(bed.df > 0)) {
		from_other_shapes(v, sh, across, shape, base, out);
		sb_drift_runs_prior(&o[0], out);	/* the series' runs' figure, whatever the drift's source */
		return;
	}
	other_shapes(v, sh, oth, &nothers, &nsh);
	if (nsh > 1)	/* the shape matters: the testbed has sweeps of another */
		snprintf(named, sizeof(named), " (its shape: %.100s)", shape);
	if (bed.df > 0) {
		as_prior(&bed, shs, &prior);
	} else if (oth[across].df > 0 || oth[!across].df > 0) {
		as_prior(&oth[oth[across].df > 0 ? across : !across], nothers, &prior);
		from = " and its testbed's sweeps of other shapes as the prior";
	} else {
		from = " and the default's 2";
	}
	if (own->df > 0) {
		snprintf(what, sizeof(what), "%zu sweeps of this series %s%s%s", own->sweeps, where, named, from);
		sb_drift_moderate(&prior, own, what, out);
	} else {
		*out = prior;
		snprintf(out->what, sizeof(out->what), "its testbed's series %s%s, %.0f df", where, named, out->df);
	}
	out->src = SB_DRIFT_LEARNED;
	sb_drift_runs_prior(&o[0], out);	/* the series' runs' figure, whatever the drift's source */
}

/* Series si's view: its own estimates (own: NULL for the testbed's alone), its slot's pool (bed: NULL for d's). */
static struct view view_of(const struct sb_hist_drift *d, size_t si, const struct sb_drift_est (*own)[2],
			   const struct sb_drift_est (*bed)[2])
{
	size_t k = d->slot[si] * d->nshapes;

	return (struct view){ own, bed ? bed : (const struct sb_drift_est (*)[2])&d->bed[k], &d->bed_sweeps[k],
			      d->shapes, d->nshapes };
}

/* The shape a verdict asks for: given, else the newest sweep's of series si. */
static const char *shape_of(const struct sb_hist_drift *d, size_t si, const char *shape)
{
	const struct sb_hist_series *se = &d->s[si];

	if (shape)
		return shape;
	return se->n && d->h->sw[se->sw[se->n - 1]].shape ? d->h->sw[se->sw[se->n - 1]].shape : "";
}

void sb_hist_drift_of(const struct sb_hist_drift *d, size_t si, const char *shape, int across,
		      const struct sb_drift *base, struct sb_drift *out)
{
	struct view v = view_of(d, si, (const struct sb_drift_est (*)[2])&d->est[si * d->nshapes], NULL);

	shape = shape_of(d, si, shape);
	drift_from(&v, shape_index(d, shape), shape, across, base, out);
}

void sb_hist_drift_testbed(const struct sb_hist_drift *d, size_t si, const char *shape, int across,
			   const struct sb_drift *base, struct sb_drift *out)
{
	struct view v = view_of(d, si, NULL, NULL);

	shape = shape_of(d, si, shape);
	drift_from(&v, shape_index(d, shape), shape, across, base, out);
}

struct sb_drift_est (*sb_hist_drift_pool_without(const struct sb_hist_drift *d, size_t si, const size_t *skip,
						 size_t nskip))[2]
{
	/* the pool by shape, then every series' own estimates without the sweeps (_of_without reads them) */
	struct sb_drift_est (*pool)[2] = calloc(d->nshapes + 1 + d->ns * d->nshapes, sizeof(*pool)), (*e)[2];
	unsigned char *mark = calloc(d->h->nsw + 1, 1);

	for (size_t q = 0; mark && q < nskip; q++)
		if (skip[q] < d->h->nsw)
			mark[skip[q]] = 1;
	for (size_t i = 0; pool && mark && i < d->ns; i++) {
		int mine = has_marked(&d->s[i], mark);	/* a row's series may be another testbed's: its own, too */

		if (d->slot[i] != d->slot[si] && !mine) {
			memcpy(pool[d->nshapes + 1 + i * d->nshapes], d->est[i * d->nshapes], d->nshapes * sizeof(*pool));
			continue;
		}
		/* a series without the skipped sweeps: its estimate is the one made at the start */
		e = mine ? own_without(d, &d->s[i], skip, nskip) : &d->est[i * d->nshapes];
		if (!e) {
			free(pool);
			free(mark);
			return NULL;
		}
		for (size_t sh = 0; sh < d->nshapes; sh++)
			for (int c = 0; c < 2; c++) {
				if (d->slot[i] == d->slot[si])
					sb_drift_pool(&pool[sh][c], &e[sh][c]);
				pool[d->nshapes + 1 + i * d->nshapes + sh][c] = e[sh][c];
			}
		if (mine)
			free(e);
	}
	if (!mark) {
		free(pool);
		pool = NULL;
	}
	free(mark);
	return pool;
}

int sb_hist_drift_of_without(const struct sb_hist_drift *d, size_t si, const char *shape, int across,
			     const size_t *skip, size_t nskip, const struct sb_drift_est (*pool)[2],
			     const struct sb_drift *base, struct sb_drift *out)
{
	/* pool (made with this skip) has the series' own estimates without them: made once for all its rows */
	struct sb_drift_est (*own)[2] = pool ? NULL : own_without(d, &d->s[si], skip, nskip);
	struct view v;

	if (!pool && !own)
		return -1;
	v = view_of(d, si, pool ? &pool[d->nshapes + 1 + si * d->nshapes] : (const struct sb_drift_est (*)[2])own,
		    pool);
	shape = shape_of(d, si, shape);
	drift_from(&v, shape_index(d, shape), shape, across, base, out);
	free(own);
	return 0;
}
