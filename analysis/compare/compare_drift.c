/* compare with the machine's drift between sweeps in every point's and curve's test: the sweeps are the independent values. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "history.h"
#include "compare_priv.h"
#include "verdict_power.h"
#include "rank.h"

#define MAXSWEEPS 64

struct sb_cmp_drift {
	struct sb_drift base;		/* --drift, or the default */
	struct sb_drift_lookup *hist;	/* the testbed's history; NULL */
	char hist_note[320];		/* where the history is, or why none is used */
	struct sb_run *sw[2];		/* --vs: each side's sweeps, as loaded (not pooled) */
	int nsw[2];
	int paired;			/* --vs with the sides alternated a b a b ... */
	double lo_pct, hi_pct;		/* the smallest and largest drift used, % */
	int nused;
	struct sb_drift first;		/* the first figure used */
	char cross[1200];		/* the rank cross-check and flagged sweeps, for the Note */
};

/* A sweep's boot: meta sweep_start's part before '/'; "" unknown. */
static void boot_of(const struct sb_run *r, char *buf, size_t len)
{
	const char *s = r->sweep_start ? r->sweep_start : "", *e = strchr(s, '/');
	size_t n = e ? (size_t)(e - s) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

static int across(const struct sb_run *a, const struct sb_run *b)
{
	char x[64], y[64];

	boot_of(a, x, sizeof(x));
	boot_of(b, y, sizeof(y));
	return !*x || !*y || strcmp(x, y) != 0;
}

/* The history to learn from: --history, $SB_HISTORY, else history.db of the results directory
 * the base's run directory is in (RESULTS/<test>/<run-id>). */
static char *history_path(const struct sb_cmp_opts *o, const struct sb_run *r)
{
	const char *env = getenv("SB_HISTORY");
	size_t len = strlen(r->dir) + sizeof("/history.db");
	char *p, *slash;

	if (o->history)
		return strdup(o->history);
	if (env && *env)
		return strdup(env);
	if ((p = malloc(len + 8)) == NULL)
		return NULL;
	snprintf(p, len + 8, "%s", r->dir);
	for (int up = 0; up < 2; up++) {
		while ((slash = strrchr(p, '/')) != NULL && slash[1] == '\0' && slash != p)
			*slash = '\0';	/* a trailing slash */
		if ((slash = strrchr(p, '/')) == NULL) {
			snprintf(p, len + 8, ".");
			break;
		}
		*slash = '\0';
		if (*p == '\0')
			snprintf(p, len + 8, "/");
	}
	strcat(p, strcmp(p, "/") == 0 ? "history.db" : "/history.db");
	return p;
}

void sb_cmp_drift_free(struct sb_cmp_drift *d)
{
	if (!d)
		return;
	sb_drift_lookup_free(d->hist);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < d->nsw[s]; i++)
			sb_run_free(&d->sw[s][i]);
		free(d->sw[s]);
	}
	free(d);
}

/* --vs: the sweeps of each side again, one by one (pooling merges their runs) */
static int load_sides(struct sb_cmp_drift *d, int n, char **dirs, int k, char *err, size_t errlen)
{
	for (int s = 0; s < 2; s++) {
		int from = s ? k : 0, to = s ? n : k;

		d->sw[s] = calloc((size_t)(to - from) + 1, sizeof(struct sb_run));
		if (!d->sw[s])
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		for (int i = from; i < to; i++) {
			int rc = sb_run_load(dirs[i], &d->sw[s][d->nsw[s]], err, errlen);

			if (rc != 0)
				return rc;
			d->nsw[s]++;
		}
	}
	/* alternated: equal sides whose sweeps started a b a b ... (their run ids' stamps order them) */
	d->paired = d->nsw[0] == d->nsw[1] && d->nsw[0] >= 3;
	for (int i = 0; d->paired && i < d->nsw[0]; i++) {
		const char *a = d->sw[0][i].date, *b = d->sw[1][i].date;
		const char *next = i + 1 < d->nsw[0] ? d->sw[0][i + 1].date : NULL;

		d->paired = a && b && strcmp(a, b) < 0 && (!next || strcmp(b, next) < 0);
	}
	return 0;
}

int sb_cmp_drift_open(struct ctx *c, int n, char **dirs, char *err, size_t errlen)
{
	const struct sb_cmp_opts *o = c->o;
	struct sb_cmp_drift *d = calloc(1, sizeof(*d));
	char *path = NULL, herr[256];
	const struct sb_run *skip[MAXSWEEPS];
	size_t nskip = 0;
	int rc;

	if (!d)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	c->drift = d;
	if (o->drift_pct >= 0) {
		sb_drift_given(o->drift_pct, &d->base);
		snprintf(d->hist_note, sizeof(d->hist_note), "--drift");
	} else
		sb_drift_default(&d->base);
	if (o->pool > 0 && (rc = load_sides(d, n, dirs, o->pool, err, errlen)) != 0)
		return rc;
	if (o->drift_pct >= 0)
		return 0;
	for (int i = 0; i < c->nruns && nskip < MAXSWEEPS; i++)
		skip[nskip++] = &c->runs[i];
	if ((path = history_path(o, &c->runs[0])) == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (access(path, F_OK) != 0)
		snprintf(d->hist_note, sizeof(d->hist_note), "no history at %s (runtest.sh keeps one; "
			 "sb-history drift shows what it learned)", path);
	else if ((rc = sb_drift_lookup_open(path, &c->runs[0], skip, nskip, 5000, &d->hist, herr,
					    sizeof(herr))) != 0) {
		if (rc == SB_EXIT_ENV) {
			free(path);
			return sb_fail(err, errlen, rc, "%s", herr);
		}
		/* a history that cannot be read is said, not fatal: the default stands */
		snprintf(d->hist_note, sizeof(d->hist_note), "history not used: %s", herr);
	} else
		snprintf(d->hist_note, sizeof(d->hist_note), "learned from the history %s", path);
	free(path);
	return 0;
}

/* One sweep's values at a point, in logs. */
static int sweep_of(const struct sb_values *v, const char *boot, struct sb_drift_sweep *out)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < v->n; i++) {
		if (!(v->v[i] > 0))
			return -1;
		sum += log(v->v[i]);
	}
	if (v->n == 0)
		return -1;
	out->n = v->n;
	out->mean = sum / (double)v->n;
	for (size_t i = 0; i < v->n; i++)
		ss += (log(v->v[i]) - out->mean) * (log(v->v[i]) - out->mean);
	out->var = v->n > 1 ? ss / (double)(v->n - 1) : 0;
	out->boot = boot;
	return 0;
}

/* Side s's sweeps at (mode, tasks): the pooled sweeps one by one, or the pair's own run. */
static int side_sweeps(const struct sb_cmp_drift *d, int s, const struct sb_values *own, const char *mode,
		       long tasks, char boots[][64], struct sb_drift_sweep *out, size_t *k)
{
	*k = 0;
	if (d->nsw[s] == 0)
		return sweep_of(own, boots[0], &out[(*k)++]);
	for (int i = 0; i < d->nsw[s] && i < MAXSWEEPS; i++) {
		const struct sb_point *p = sb_run_find(&d->sw[s][i], mode, tasks);

		if (!p || p->means.n == 0 || sweep_of(&p->means, boots[i], &out[(*k)++]) != 0)
			return -1;
	}
	return 0;
}

static void note_used(struct sb_cmp_drift *d, const struct sb_drift *in, const struct sb_drift_test *t,
		      size_t sweeps)
{
	struct sb_drift eff = *in, *used = &eff;
	double pct;

	/* the sides' own replicate sweeps moderated the figure: say so */
	if (sweeps > 2 && (in->src == SB_DRIFT_DEFAULT || in->src == SB_DRIFT_LEARNED)) {
		eff.tau2 = t->tau2;
		eff.df = t->tau_df;
		eff.src = SB_DRIFT_LEARNED;
		snprintf(eff.what, sizeof(eff.what), "the sides' own %zu sweeps, %.0f df, with %.160s", sweeps,
			 t->tau_df, in->src == SB_DRIFT_DEFAULT ? "the default's 2" : in->what);
	}
	pct = sb_drift_pct(used);

	if (d->nused++ == 0) {
		d->lo_pct = d->hi_pct = pct;
		d->first = *used;
	}
	d->lo_pct = fmin(d->lo_pct, pct);
	d->hi_pct = fmax(d->hi_pct, pct);
}

/* A row's test redone on sweeps with the drift in it. */
static void drift_row(struct sb_cmp_drift *d, const struct ctx *c, const struct pair *pr, struct row *r,
		      char boots[2][MAXSWEEPS][64], int acr)
{
	struct sb_drift_sweep a[MAXSWEEPS], b[MAXSWEEPS];
	struct sb_drift_side sa = { a, 0 }, sb = { b, 0 };
	struct sb_drift used;
	struct sb_drift_test t;

	if (side_sweeps(d, 0, r->bv, r->b->mode, r->b->tasks, boots[0], a, &sa.k) != 0 ||
	    side_sweeps(d, 1, r->xv, r->b->mode, r->b->tasks, boots[1], b, &sb.k) != 0)
		return;
	sb_drift_lookup_point(d->hist, r->b->mode, r->b->tasks, acr, &d->base, &used);
	if (sb_drift_compare(&sa, &sb, &used, d->paired, c->o->conf, SB_POWER, &t) != 0)
		return;
	note_used(d, &used, &t, sa.k + sb.k);
	(void)pr;
	r->d.rel_pct = t.est_pct;
	r->d.rel_halfwidth_pct = (t.hi_pct - t.lo_pct) / 2;
	r->d.rel_significant = t.lo_pct > 0 || t.hi_pct < 0;
	r->d.significant = r->d.rel_significant;
	r->d.p = t.p;
	r->d.df = t.df >= 1 ? (unsigned long)floor(t.df) : 1;
	r->d.rel_se_pct = r->d.null_se_pct = 100 * t.se;
	r->d.diff = t.diff * r->bv->st.mean;
	r->d.halfwidth = r->d.rel_halfwidth_pct / 100 * r->bv->st.mean;
}

/* Side s's curve values a sweep: per run, the mean over the curve's points of log(run mean). */
static int curve_sweeps(const struct sb_cmp_drift *d, int s, const struct pair *pr, const struct curve_test *ct,
			char boots[][64], struct sb_drift_sweep *out, size_t *k)
{
	int nsw = d->nsw[s] ? d->nsw[s] : 1;

	*k = 0;
	for (int i = 0; i < nsw && i < MAXSWEEPS; i++) {
		double g[1024] = { 0 }, sum = 0, ss = 0;
		size_t runs = SIZE_MAX, npts = 0;

		for (size_t j = 0; j < pr->nrows; j++) {
			const struct row *r = &pr->rows[j];
			const struct sb_values *v;
			const struct sb_point *p;

			if (strcmp(r->b->mode, ct->mode) != 0 || r->v == V_NA || !r->means)
				continue;
			p = d->nsw[s] ? sb_run_find(&d->sw[s][i], r->b->mode, r->b->tasks) : NULL;
			v = d->nsw[s] ? (p ? &p->means : NULL) : s ? r->xv : r->bv;
			if (!v || v->n == 0)
				return -1;
			runs = v->n < runs ? v->n : runs;
			npts++;
		}
		if (npts == 0 || runs == SIZE_MAX || runs > 1024)
			return -1;
		for (size_t j = 0; j < pr->nrows; j++) {
			const struct row *r = &pr->rows[j];
			const struct sb_point *p;
			const struct sb_values *v;

			if (strcmp(r->b->mode, ct->mode) != 0 || r->v == V_NA || !r->means)
				continue;
			p = d->nsw[s] ? sb_run_find(&d->sw[s][i], r->b->mode, r->b->tasks) : NULL;
			v = d->nsw[s] ? &p->means : s ? r->xv : r->bv;
			for (size_t q = 0; q < runs; q++) {
				if (!(v->v[q] > 0))
					return -1;
				g[q] += log(v->v[q]) / (double)npts;
			}
		}
		for (size_t q = 0; q < runs; q++)
			sum += g[q];
		out[*k] = (struct sb_drift_sweep){ .mean = sum / (double)runs, .n = runs, .boot = boots[i] };
		for (size_t q = 0; q < runs; q++)
			ss += (g[q] - out[*k].mean) * (g[q] - out[*k].mean);
		out[*k].var = runs > 1 ? ss / (double)(runs - 1) : 0;
		(*k)++;
	}
	return 0;
}

/*
 * Beside a pooled curve's t: a sweep that stands more than 4 sd (of a sweep's
 * mean: tau^2 + sigma^2 / n) from its side is named (never dropped); with 5
 * sweeps or more a side, Mann-Whitney on the sweep means and the
 * Hodges-Lehmann shift, as a cross-check (a rank test over 3 against 3 sweeps
 * cannot go below p 0.10: not offered there).
 */
static void cross_check(struct sb_cmp_drift *d, const char *mode, const struct sb_drift_side *a,
			const struct sb_drift_side *b, const struct sb_drift_test *t)
{
	size_t len = strlen(d->cross);
	double ma[MAXSWEEPS], mb[MAXSWEEPS], u, p;

	for (int s = 0; s < 2 && d->nsw[0] > 0; s++) {
		const struct sb_drift_side *sd = s ? b : a;
		double m = 0;

		for (size_t i = 0; i < sd->k; i++)
			m += sd->sw[i].mean / (double)sd->k;
		for (size_t i = 0; i < sd->k && sd->k >= 3; i++) {
			double z = (sd->sw[i].mean - m) / sqrt(t->tau2 + t->sigma2 / (double)sd->sw[i].n);

			if (fabs(z) > 4 && len < sizeof(d->cross) - 300)
				len += (size_t)snprintf(d->cross + len, sizeof(d->cross) - len, "%s%s's %s curve "
							"stands %.1f sd from its side (kept)", len ? "; " : "",
							d->sw[s][i].name, mode, z);
		}
	}
	if (a->k < 5 || b->k < 5 || len >= sizeof(d->cross) - 120)
		return;
	for (size_t i = 0; i < a->k; i++)
		ma[i] = a->sw[i].mean;
	for (size_t i = 0; i < b->k; i++)
		mb[i] = b->sw[i].mean;
	if (sb_mann_whitney(ma, a->k, mb, b->k, &u, &p) == 0)
		snprintf(d->cross + len, sizeof(d->cross) - len, "%s%s curve, ranks of the sweeps "
			 "(Mann-Whitney): p %.2g, Hodges-Lehmann %+.2f%%", len ? "; " : "", mode, p,
			 100 * expm1(sb_hodges_lehmann(ma, a->k, mb, b->k)));
}

static void drift_curve(struct sb_cmp_drift *d, const struct ctx *c, const struct pair *pr,
			struct curve_test *ct, char boots[2][MAXSWEEPS][64], int acr)
{
	struct sb_drift_sweep a[MAXSWEEPS], b[MAXSWEEPS];
	struct sb_drift_side sa = { a, 0 }, sb = { b, 0 };
	struct sb_drift used;
	struct sb_drift_test t;

	if (curve_sweeps(d, 0, pr, ct, boots[0], a, &sa.k) != 0 ||
	    curve_sweeps(d, 1, pr, ct, boots[1], b, &sb.k) != 0)
		return;
	sb_drift_lookup_point(d->hist, ct->mode, 0, acr, &d->base, &used);
	if (sb_drift_compare(&sa, &sb, &used, d->paired, c->o->conf, SB_POWER, &t) != 0)
		return;
	note_used(d, &used, &t, sa.k + sb.k);
	ct->tt.diff = t.diff;
	ct->tt.se = t.se;
	ct->tt.df = t.df;
	ct->tt.t = t.t;
	ct->tt.p = t.p;
	ct->change = t.est_pct;
	ct->lo = t.lo_pct;
	ct->hi = t.hi_pct;
	ct->v = ct->lo > 0 ? V_FASTER : ct->hi < 0 ? V_SLOWER : V_SAME;
	cross_check(d, ct->mode, &sa, &sb, &t);
}

void sb_cmp_drift_pair(const struct ctx *c, struct pair *pr)
{
	struct sb_cmp_drift *d = c->drift;
	static char boots[2][MAXSWEEPS][64];
	int acr = 0;

	if (!d || d->base.src == SB_DRIFT_NONE)
		return;
	for (int s = 0; s < 2; s++) {
		int nsw = d->nsw[s] ? d->nsw[s] : 1;

		for (int i = 0; i < nsw && i < MAXSWEEPS; i++)
			boot_of(d->nsw[s] ? &d->sw[s][i] : s ? pr->x : pr->base, boots[s][i], 64);
	}
	acr = across(d->nsw[0] ? &d->sw[0][0] : pr->base, d->nsw[1] ? &d->sw[1][0] : pr->x);
	pr->nfaster = pr->nslower = pr->nsame = 0;
	for (size_t k = 0; k < pr->nrows; k++) {
		struct row *r = &pr->rows[k];

		if (r->v == V_NA)
			continue;
		if (r->means)
			drift_row(d, c, pr, r, boots, acr);
		r->v = !r->d.rel_significant ? V_SAME : r->d.rel_pct > 0 ? V_FASTER : V_SLOWER;
		r->beyond = r->v != V_SAME && fabs(r->d.rel_pct) >= c->o->threshold;
		pr->nfaster += r->v == V_FASTER;
		pr->nslower += r->v == V_SLOWER;
		pr->nsame += r->v == V_SAME;
	}
	for (size_t k = 0; k < pr->ncurves; k++)
		drift_curve(d, c, pr, &pr->curves[k], boots, acr);
}

/* The Note under a report: the drift figure used and where it came from. */
void sb_cmp_drift_words(const struct ctx *c, char *buf, size_t len)
{
	const struct sb_cmp_drift *d = c->drift;
	char w[1800];

	if (!d)
		return (void)snprintf(buf, len, "%s", "");
	sb_drift_words(d->nused ? &d->first : &d->base, w, sizeof(w));
	if (*d->cross) {
		size_t n = strlen(w);

		snprintf(w + n, sizeof(w) - n, " (%s)", d->cross);
	}
	if (d->base.src == SB_DRIFT_NONE || d->base.src == SB_DRIFT_GIVEN)
		snprintf(buf, len, "%s, in every interval", w);
	else if (d->hi_pct - d->lo_pct >= 0.05)
		snprintf(buf, len, "%s (the first point's: +/-%.1f%% to +/-%.1f%% by point), in every "
			 "interval; %s%s", w, d->lo_pct, d->hi_pct, d->hist_note, d->paired ?
			 "; the sides alternated: tested as pairs of sweeps" : "");
	else
		snprintf(buf, len, "%s, in every interval; %s%s", w, d->hist_note, d->paired ?
			 "; the sides alternated: tested as pairs of sweeps" : "");
}
