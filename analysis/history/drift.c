/* The drift a series' verdicts use, learned from the history: its testbed's other series as the prior, its own sweeps as the data. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

struct sb_hist_drift {
	const struct sb_hist *h;
	const struct sb_hist_series *s;
	size_t ns;
	struct sb_drift_est (*est)[2];		/* each series' own, within and across boots */
	struct sb_drift_est (*bed)[2];		/* each testbed's pool over its series (index: testbed slot) */
	size_t *slot;				/* series -> its testbed's slot */
	size_t *bed_sweeps;			/* sweeps of each testbed slot */
	size_t nbeds;
};

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
	free(d->est);
	free(d->bed);
	free(d->slot);
	free(d->bed_sweeps);
	free(d);
}

/* The testbed slot of each series, and how many sweeps each testbed has. */
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
				d->bed_sweeps[k]++;
	free(ids);
	return 0;
}

int sb_hist_drift_new(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
		      struct sb_hist_drift **out)
{
	struct sb_hist_drift *d = calloc(1, sizeof(*d));
	struct sb_drift_sweep *buf = NULL;
	size_t most = 1;

	*out = NULL;
	if (!d)
		return -1;
	d->h = h;
	d->s = s;
	d->ns = ns;
	for (size_t i = 0; i < ns; i++)
		most = s[i].n > most ? s[i].n : most;
	d->est = calloc(ns + 1, sizeof(*d->est));
	d->bed = calloc(ns + 1, sizeof(*d->bed));
	d->slot = calloc(ns + 1, sizeof(*d->slot));
	d->bed_sweeps = calloc(ns + 1, sizeof(*d->bed_sweeps));
	buf = malloc(most * sizeof(*buf));
	if (!d->est || !d->bed || !d->slot || !d->bed_sweeps || !buf || testbed_slots(d) < 0)
		goto oom;
	for (size_t i = 0; i < ns; i++) {
		sb_hist_series_sweeps(h, &s[i], buf);
		if (sb_drift_series(buf, s[i].n, d->est[i]) < 0)
			goto oom;
		for (int c = 0; c < 2; c++)
			sb_drift_pool(&d->bed[d->slot[i]][c], &d->est[i][c]);
	}
	free(buf);
	*out = d;
	return 0;
oom:
	free(buf);
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

/* The drift from own (this series' estimates, or none) and testbed slot k's pool less own. */
static void drift_from(const struct sb_hist_drift *d, const struct sb_drift_est own2[2], size_t k,
		       int across, const struct sb_drift *base, struct sb_drift *out)
{
	static const struct sb_drift_est none[2];
	const struct sb_drift_est *o = own2 ? own2 : none;
	const struct sb_drift_est *own = &o[across];
	struct sb_drift_est bed = pool_without(&d->bed[k][across], own);
	struct sb_drift prior = *base;
	double cap = sb_drift_est_df(d->bed_sweeps[k] ? d->bed_sweeps[k] - 1 : 0);
	const char *where = across ? "across boots" : "within a boot";
	char what[160];

	*out = *base;
	if (base->src != SB_DRIFT_DEFAULT)	/* --drift: taken as given */
		return;
	/* nothing of this kind of pair: the other kind (a figure within a boot understates one across) */
	if (!(own->df > 0) && !(bed.df > 0)) {
		own = &o[!across];
		bed = pool_without(&d->bed[k][!across], own);
		where = across ? "within a boot (none across boots known)" : "across boots";
	}
	if (!(own->df > 0) && !(bed.df > 0))
		return;
	if (bed.df > 0) {
		prior.tau2 = bed.tau2;
		prior.df = fmin(fmin(bed.df, cap), SB_DRIFT_PRIOR_MAXDF);
		prior.src = SB_DRIFT_LEARNED;
	}
	if (own->df > 0) {
		snprintf(what, sizeof(what), "%zu sweeps of this series %s%s", own->sweeps, where,
			 bed.df > 0 ? " and its testbed's other series" : " and the default's 2");
		sb_drift_moderate(&prior, own, what, out);
	} else {
		*out = prior;
		snprintf(out->what, sizeof(out->what), "its testbed's series %s, %.0f df", where, out->df);
	}
	out->src = SB_DRIFT_LEARNED;
}

void sb_hist_drift_of(const struct sb_hist_drift *d, size_t si, int across,
		      const struct sb_drift *base, struct sb_drift *out)
{
	drift_from(d, d->est[si], d->slot[si], across, base, out);
}

void sb_hist_drift_testbed(const struct sb_hist_drift *d, size_t si, int across,
			   const struct sb_drift *base, struct sb_drift *out)
{
	drift_from(d, NULL, d->slot[si], across, base, out);
}

/* Series se's sweeps without those in skip (sweep indexes into h->sw), into out; how many. */
static size_t sweeps_without(const struct sb_hist *h, const struct sb_hist_series *se, const size_t *skip,
			     size_t nskip, struct sb_drift_sweep *all, struct sb_drift_sweep *out)
{
	size_t k = 0;

	/* a skipped sweep stays in the order with no runs: no pair across it (sb_drift_series skips
	 * pairs with an empty sweep), so its neighbours are not read as consecutive */
	sb_hist_series_sweeps(h, se, all);
	for (size_t i = 0; i < se->n; i++) {
		int drop = 0;

		for (size_t q = 0; q < nskip && !drop; q++)
			drop = se->sw[i] == skip[q];
		out[k] = all[i];
		if (drop)
			out[k].n = 0;
		k++;
	}
	return k;
}

/* Series si's own estimates without the skipped sweeps. 0, or -1 (memory). */
static int own_without(const struct sb_hist_drift *d, size_t si, const size_t *skip, size_t nskip,
		       struct sb_drift_est est[2])
{
	const struct sb_hist_series *se = &d->s[si];
	struct sb_drift_sweep *all = malloc((se->n + 1) * sizeof(*all)), *kept = malloc((se->n + 1) * sizeof(*kept));
	int rc = -1;

	if (all && kept)
		rc = sb_drift_series(kept, sweeps_without(d->h, se, skip, nskip, all, kept), est);
	free(all);
	free(kept);
	return rc;
}

int sb_hist_drift_pool_without(const struct sb_hist_drift *d, size_t si, const size_t *skip, size_t nskip,
			       struct sb_drift_est pool[2])
{
	memset(pool, 0, 2 * sizeof(*pool));
	for (size_t i = 0; i < d->ns; i++) {
		struct sb_drift_est e[2];

		if (d->slot[i] != d->slot[si])
			continue;
		if (own_without(d, i, skip, nskip, e) != 0)
			return -1;
		for (int c = 0; c < 2; c++)
			sb_drift_pool(&pool[c], &e[c]);
	}
	return 0;
}

int sb_hist_drift_of_without(const struct sb_hist_drift *d, size_t si, int across, const size_t *skip,
			     size_t nskip, const struct sb_drift_est pool[2], const struct sb_drift *base,
			     struct sb_drift *out)
{
	struct sb_hist_drift view = *d;
	struct sb_drift_est own[2], bed[2] = { pool[0], pool[1] };

	if (own_without(d, si, skip, nskip, own) != 0)
		return -1;
	/* drift_from reads the pool of the series' slot: a view whose slot holds this pool */
	view.bed = &bed;
	view.bed_sweeps = &d->bed_sweeps[d->slot[si]];
	drift_from(&view, own, 0, across, base, out);
	return 0;
}
