/* sb-history changes: the change points of every series of a selection, found at once, and the CI gate on them, built whole, then printed (changes_print.c). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg/exit.h"
#include "history_priv.h"
#include "msg/msg.h"

/* Shaped like a date (it starts YYYY-): then it must be a whole, real one. */
static int date_shaped(const char *s)
{
	return isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
	       isdigit((unsigned char)s[3]) && s[4] == '-';
}

static int kernel_is(const struct sb_hist_sweep *s, const char *k)
{
	size_t n = strlen(k);

	return strcmp(s->column, k) == 0 || strcmp(s->label, k) == 0 || strcmp(s->release, k) == 0 ||
	       (n >= 7 && *s->commit && strncasecmp(s->commit, k, n) == 0);
}

/*
 * The first place in the order --since names: a kernel's first sweep, or the
 * first sweep on or after a date. Returns 0, or 2 for a kernel no sweep has,
 * a date that is no calendar date (2026-02-30: a typo must not turn the gate
 * off) or one after the newest sweep (the gate would judge nothing).
 */
static int since_place(const struct sb_hist *h, const char *since, size_t *ord, char *err,
		       size_t errlen)
{
	const char *newest = "";
	int kernel = 0;

	*ord = 0;
	if (since == NULL)
		return 0;
	*ord = (size_t)-1;
	for (size_t i = 0; i < h->nsw; i++)
		kernel |= kernel_is(&h->sw[i], since);
	if (!kernel && date_shaped(since) && sb_hist_date(since) != 1)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: not a calendar date (YYYY-MM-DD)", since);
	for (size_t i = 0; i < h->nsw; i++) {
		const struct sb_hist_sweep *s = &h->sw[i];
		int hit = kernel ? kernel_is(s, since) : strncmp(s->date, since, 10) >= 0;

		if (strcmp(s->date, newest) > 0)
			newest = s->date;
		if (hit && s->ord < *ord)
			*ord = s->ord;
	}
	if (*ord != (size_t)-1)
		return 0;
	if (!kernel && date_shaped(since))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: after the newest sweep of the selection (%.10s): "
			       "the gate would judge nothing", since, newest);
	return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: no sweep of that kernel (label, release or commit) "
		       "in the selection", since);
}

/* The series' name; a change across params (--any-params) names both sides' params. */
static void series_name(const struct sb_hist *h, const struct found *f, char *buf, size_t len)
{
	const struct sb_hist_sweep *s = f->last, *a = f->at;
	int two = strcmp(s->params, a->params) != 0;
	char pt[64];

	sb_hist_point_name(h, f->se->mode, f->se->tasks, pt, sizeof(pt));
	snprintf(buf, len, "%s%s%s%s%s%s %s on %s", s->test, *s->params || two ? " [" : "", s->params,
		 two ? " -> " : "", two ? a->params : "", *s->params || two ? "]" : "", pt, s->tb_name);
}

/* A point of a sweep whose run measured no progress (a mean not above 0): a failed measurement. */
static int point_failed(const struct sb_hist *h, const struct sb_hist_point *p)
{
	for (size_t k = 0; k < p->n; k++)
		if (!(h->obs[p->off + k] > 0) || !isfinite(h->obs[p->off + k]))
			return 1;
	return 0;
}

/* The failed points of every sweep, in order, named; how many gate (at or after since) into m->nfail. 0 or -1. */
static int collect_failed(const struct sb_hist *h, size_t since, struct changes_model *m)
{
	size_t cap = 0;

	for (size_t i = 0; i < h->nsw; i++) {
		const struct sb_hist_sweep *s = &h->sw[i];

		for (size_t j = 0; j < s->npts; j++) {
			struct failed_point *fp;

			if (!point_failed(h, &s->pts[j]))
				continue;
			if (m->nfailed == cap) {
				struct failed_point *nv = realloc(m->failed, (cap = 2 * cap + 8) * sizeof(*nv));

				if (nv == NULL)
					return -1;
				m->failed = nv;
			}
			fp = &m->failed[m->nfailed++];
			fp->s = s;
			fp->gates = s->ord >= since;
			sb_hist_point_name(h, s->pts[j].mode, s->pts[j].tasks, fp->pt, sizeof(fp->pt));
			m->nfail += (size_t)fp->gates;
		}
	}
	return 0;
}

static int detect(const struct sb_hist *h, const struct sb_hist_series *se, size_t ns,
		  const struct sb_changes_opts *o, size_t since, struct found **fp, size_t *nfp,
		  struct sb_cp_change **cp, char *err, size_t errlen)
{
	struct sb_cp_series *in = calloc(ns + 1, sizeof(*in));
	size_t nc = 0;
	int rc;

	*cp = NULL;
	*fp = NULL;
	*nfp = 0;
	if (in == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < ns; i++)
		in[i] = (struct sb_cp_series){ se[i].obs, se[i].n };
	rc = sb_cp_detect(in, ns, &o->cp, cp, &nc);
	free(in);
	if (rc != 0)
		return sb_fail(err, errlen, rc, rc == SB_EXIT_ENV ? "out of memory" :
			       "the change-point method refused the series (a sweep without runs, or a value not finite)");
	if ((*fp = calloc(nc + 1, sizeof(**fp))) == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < nc; i++) {
		const struct sb_cp_change *c = &(*cp)[i];
		struct found *f = &(*fp)[(*nfp)++];

		if (c->series >= ns || c->at == 0 || c->at >= se[c->series].n)
			return sb_fail(err, errlen, SB_EXIT_ENV, "the change-point method gave a change outside its series");
		f->c = c;
		f->se = &se[c->series];
		f->last = &h->sw[f->se->sw[c->at - 1]];
		f->at = &h->sw[f->se->sw[c->at]];
		f->newest = &h->sw[f->se->sw[f->se->n - 1]];
		f->regression = c->pct < 0;	/* ops/s: higher is better */
		f->counts = f->regression && c->holds && f->at->ord >= since;
		series_name(h, f, f->name, sizeof(f->name));
	}
	return 0;
}

/* Some series can hold a change: two segments of min_seg sweeps, and 3 sweeps at least. */
static int long_enough(const struct sb_hist_series *se, size_t ns, size_t min_seg)
{
	for (size_t i = 0; i < ns; i++)
		if (se[i].n >= 2 * min_seg && se[i].n >= 3)
			return 1;
	return 0;
}

int sb_hist_changes(FILE *out, const struct sb_hist *h, const struct sb_changes_opts *o,
		    char *err, size_t errlen)
{
	struct changes_model m = { 0 };
	struct sb_hist_series *se;
	struct sb_cp_change *cp = NULL;
	size_t since;
	int rc;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep of the selection in the history");
	if ((rc = since_place(h, o->since, &since, err, errlen)) != 0)
		return rc;
	if (sb_hist_series(h, &se, &m.ns) != 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (o->min_seg_given && !long_enough(se, m.ns, o->cp.min_seg)) {
		sb_hist_series_free(se, m.ns);
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--min-segment %zu: no series of the selection has the %zu "
			       "sweeps two segments need: the gate would judge nothing", o->cp.min_seg, 2 * o->cp.min_seg);
	}
	rc = detect(h, se, m.ns, o, since, &m.f, &m.nf, &cp, err, errlen);
	if (rc == 0 && (sb_hist_detectable_range(h, se, m.ns, m.det) != 0 || collect_failed(h, since, &m) != 0))
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; rc == 0 && i < m.nf; i++)
		m.nreg += (size_t)m.f[i].counts;
	/* computed whole: now printed */
	if (rc == 0)
		sb_changes_print(out, h, &m, o);
	free(m.f);
	free(m.failed);
	free(cp);
	sb_hist_series_free(se, m.ns);
	return rc != 0 ? rc : m.nreg > 0 || m.nfail > 0;
}
