/* How a bisect learns the drift between sweeps (--drift, $SB_HISTORY, the default; its own sweeps by commit): a step's and the report's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "bisect/decide_drift.h"
#include "bisect/drift_learn.h"
#include "history/history.h"
#include "io/results.h"
#include "stat/verdict.h"

int sb_bisect_drift_sweep(const double *v, size_t n, const char *boot, struct sb_drift_sweep *out)
{
	return sb_verdict_log_sweep(&(struct sb_vsweep){ v, n, 0, 0, boot, -1 }, 0, out);
}

/* a and b the same text (NULL as ""): 1 */
static int same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

int sb_bisect_values(const struct sb_run *g, const struct sb_target *t, const char *dir, int shape,
		     double **v, size_t *n, char *err, size_t errlen, char *boot)
{
	struct sb_run r;
	int rc = sb_run_load(dir, &r, err, errlen) != 0 ? -1 : 0;

	*v = NULL;
	*n = 0;
	if (rc == 0 && strcmp(r.status, "complete") != 0) {
		rc = -1;
		snprintf(err, errlen, "%s: a %s sweep (meta's status), not a complete one", dir, r.status);
	} else if (rc == 0 && strcmp(r.test, g->test) != 0) {
		rc = -1;
		snprintf(err, errlen, "%s: a sweep of %s, not of %s (the good end's testcase)", dir, r.test, g->test);
	} else if (rc == 0 && shape && !(same(r.params, g->params) && same(r.period_ms, g->period_ms) &&
					 same(r.duration, g->duration) && same(r.warmup, g->warmup) &&
					 same(r.placement, g->placement))) {
		rc = -1;
		snprintf(err, errlen, "%s: its testcase parameters or run shape (period, duration, warmup, "
			 "placement) are not the good end's %s", dir, g->dir);
	}
	/* a run without a curve value left out: said for a step's and the ends' sweeps (boot given) */
	if (rc == 0 && (rc = sb_target_values(t, &r, v, n, err, errlen)) == 0 && *err && boot)
		sb_bisect_say("%s", err);
	if (rc == 0 && boot)
		sb_run_boot(&r, boot, 64);
	sb_run_free(&r);
	return rc;
}

void sb_bisect_drift_start(const struct sb_bisect_learn *in, struct sb_drift *d)
{
	const char *env = getenv("SB_HISTORY");
	char err[512];
	struct sb_drift_lookup *l = NULL;
	struct sb_run *more;
	const struct sb_run **skip;
	size_t ns = 1;

	if (in->drift_pct >= 0) {
		sb_drift_given(in->drift_pct, d);
		return;
	}
	sb_drift_default(d);
	if (!env || !*env || access(env, F_OK) != 0)
		return;
	more = calloc(in->nends + 1, sizeof(*more));
	skip = calloc(in->nends + 1, sizeof(*skip));
	if (more && skip) {
		skip[0] = in->good;
		for (size_t i = 0; i < in->nends; i++)
			if (sb_run_load(in->ends[i], &more[ns - 1], err, sizeof(err)) == 0) {
				skip[ns] = &more[ns - 1];
				ns++;
			} else
				sb_run_free(&more[ns - 1]);
		if (sb_drift_lookup_open(env, in->good, skip, ns, 5000, &l, err, sizeof(err)) == 0)
			sb_drift_lookup_point(l, in->t->mode, in->t->kind == SB_T_CURVE ? 0 : in->t->tasks, in->across,
					      d, d);
		else	/* said, not dropped: the figure below is then not the testbed's */
			sb_bisect_say("$SB_HISTORY %s: the drift between sweeps not learned from it", err);
		sb_drift_lookup_free(l);
		for (size_t i = 1; i < ns; i++)
			sb_run_free(&more[i - 1]);
	}
	free(more);
	free(skip);
}

/* The step log's sweeps that count (sb_bisect_drift_steps), each with its commit, in log order. */
static size_t our_sweeps(const struct sb_bisect_learn *in, const struct sb_steplog *log, const char *good_dir,
			 const char *bad_dir, const char *except, struct sb_drift_sweep *sw, const char **sha)
{
	char err[1024];
	size_t n = 0;

	for (size_t i = 0; i < log->n; i++) {
		const struct sb_stepline *l = &log->l[i];
		double *v = NULL;
		size_t nv;

		if (strcmp(l->kind, "sweep") != 0 || (except && strcmp(l->sha, except) == 0) ||
		    strcmp(l->target, in->tstr) != 0 || !l->good || strcmp(l->good, good_dir) != 0 ||
		    strcmp(l->bad, bad_dir) != 0)
			continue;
		if (sb_bisect_values(in->good, in->t, l->rundir, 1, &v, &nv, err, sizeof(err), NULL) == 0 &&
		    sb_bisect_drift_sweep(v, nv, NULL, &sw[n]) == 0)
			sha[n++] = l->sha;
		free(v);
	}
	return n;
}

int sb_bisect_drift_steps(const struct sb_bisect_learn *in, const struct sb_steplog *log, const char *good_dir,
			  const char *bad_dir, const char *except, const char *whose, struct sb_drift *d)
{
	struct sb_drift_sweep *sw = NULL, *by = NULL;
	struct sb_drift_side *g = NULL;
	const char **sha = NULL;
	struct sb_drift_est e;
	char what[sizeof(d->what) + 64];
	size_t n, ng = 0, k = 0;
	int rc = 0;

	if (d->src != SB_DRIFT_DEFAULT && d->src != SB_DRIFT_LEARNED)
		return 0;
	if (log->n && (!(sw = calloc(log->n, sizeof(*sw))) || !(by = calloc(log->n, sizeof(*by))) ||
		       !(g = calloc(log->n, sizeof(*g))) || !(sha = calloc(log->n, sizeof(*sha))))) {
		free(sw);
		free(by);
		free(g);
		free(sha);
		return -1;
	}
	n = log->n ? our_sweeps(in, log, good_dir, bad_dir, except, sw, sha) : 0;
	/* one group a commit (one level), its sweeps in log order */
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && strcmp(sha[j], sha[i]) != 0)
			j++;
		if (j < i)
			continue;	/* this commit's group is made */
		g[ng] = (struct sb_drift_side){ by + k, 0 };
		for (j = i; j < n; j++)
			if (strcmp(sha[j], sha[i]) == 0)
				by[k++] = sw[j], g[ng].k++;
		ng++;
	}
	if (sb_bisect_drift_est(g, ng, &e) == 0) {
		if (d->src == SB_DRIFT_DEFAULT)
			snprintf(what, sizeof(what), "the default's 2 and %zu sweeps of %s", e.sweeps, whose);
		else
			snprintf(what, sizeof(what), "%s; and %zu sweeps of %s", d->what, e.sweeps, whose);
		sb_drift_moderate(d, &e, what, d);
		rc = 1;
	}
	free(sw);
	free(by);
	free(g);
	free(sha);
	return rc;
}
