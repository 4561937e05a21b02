/* One step of git bisect run: the ends checked once, the commit built, runs added until the sequential test decides. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "bisect/child.h"
#include "bisect/decide_drift.h"
#include "bisect/drift_learn.h"
#include "bisect/steps.h"
#include "msg/exit.h"
#include "io/results.h"

#define BATCH 2		/* runs a sweep: SB_INDEPENDENT_RUNS, so each sweep has run means */

struct step_ctx {
	const struct sb_bisect_opts *o;
	struct sb_target t;
	struct sb_run good_run;
	struct sb_side good, bad;
	char sha[48], tstr[48];
	double *x;		/* the step's values so far */
	size_t k;
	char *log;		/* the step log's path */
	/* the sweeps model (--drift other than 0): each end and the step as sweeps, the drift */
	struct sb_drift drift;
	struct sb_rule rule;	/* the options', --max-runs the drift's default when not given */
	struct sb_drift_sweep ge[SB_BISECT_MAXENDS], be[SB_BISECT_MAXENDS], xs[128];
	size_t nge, nbe, nxs;
	char boot[3][64];	/* the good end's first sweep's, the bad end's, the last step sweep's */
	char eboot[2][SB_BISECT_MAXENDS][64];	/* each end sweep's */
};

/* The values of target t in the run directory dir (sb_bisect_values, against the good end). */
static int values_of(const struct step_ctx *c, const char *dir, int shape, double **v, size_t *n, char *err,
		     size_t errlen, char *boot)
{
	return sb_bisect_values(&c->good_run, &c->t, dir, shape, v, n, err, errlen, boot);
}

/* n values of one sweep appended to c->x (v freed), and the sweep to c->xs. 0, or an exit code. */
static int append(struct step_ctx *c, double *v, size_t n)
{
	if (c->nxs < sizeof(c->xs) / sizeof(c->xs[0])) {
		char *boot = strdup(c->boot[2]);

		if (sb_bisect_drift_sweep(v, n, boot, &c->xs[c->nxs]) == 0)
			c->nxs++;
		else
			free(boot);	/* a sweep the model cannot take keeps no boot id */
	}
	double *nx = realloc(c->x, (c->k + n + 1) * sizeof(*nx));

	if (!nx) {
		free(v);
		sb_bisect_say("out of memory");
		return SB_BISECT_ABORT;
	}
	c->x = nx;
	if (n)
		memcpy(c->x + c->k, v, n * sizeof(*v));
	c->k += n;
	free(v);
	return 0;
}

/* The values of target t in the run directory dir (checked as values_of does), appended to c->x. */
static int add_values(struct step_ctx *c, const char *dir, int shape)
{
	double *v;
	size_t n;
	char err[1024];

	if (values_of(c, dir, shape, &v, &n, err, sizeof(err), c->boot[2]) != 0) {
		sb_bisect_say("%s", err);
		free(v);
		return SB_BISECT_ABORT;
	}
	return append(c, v, n);
}

/*
 * An end, its sweeps dirs[0..n-1]: their values at the target pooled into s
 * (the rule on runs), each sweep into e[] (*ne of them, boot ids in boot[]).
 * 0, or an exit code.
 */
static int end_side(struct step_ctx *c, const char *const *dirs, size_t n, struct sb_side *s,
		    struct sb_drift_sweep *e, size_t *ne, char (*boot)[64])
{
	size_t k0 = c->k, n0 = c->nxs;
	int rc = 0;

	*ne = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if ((rc = add_values(c, dirs[i], 1)) == 0 && c->nxs > n0) {
			e[*ne] = c->xs[n0];
			snprintf(boot[*ne], 64, "%s", c->boot[2]);
			free((char *)c->xs[n0].boot);
			e[*ne].boot = boot[*ne];
			(*ne)++;
			c->nxs = n0;
		}
	if (rc == 0 && sb_side_of(c->x + k0, c->k - k0, s) < 0)
		rc = SB_BISECT_ABORT;
	c->k = k0;
	c->nxs = n0;
	return rc;
}

/* What the step learns its drift from (drift_learn.h): the good end's first sweep, the other end sweeps (into ends). */
static struct sb_bisect_learn learn_in(const struct step_ctx *c, const char **ends)
{
	size_t n = 0;

	for (size_t i = 1; i < c->o->ngood + c->o->nbad; i++)
		ends[n++] = i < c->o->ngood ? c->o->goods[i] : c->o->bads[i - c->o->ngood];
	return (struct sb_bisect_learn){ c->o->drift_pct, &c->good_run, &c->t, c->tstr, ends, n,
		!*c->boot[0] || strcmp(c->boot[0], c->boot[1]) != 0 };
}

/*
 * The drift the step's tests use (sb_bisect_drift_start: --drift, $SB_HISTORY,
 * the default), said once on stderr. (The step's own sweeps, of one commit,
 * moderate it in sb_decide_drift.)
 */
static void learn_drift(struct step_ctx *c)
{
	const char *ends[2 * SB_BISECT_MAXENDS];
	struct sb_bisect_learn in = learn_in(c, ends);
	char words[400];

	sb_bisect_drift_start(&in, &c->drift);
	if (c->drift.src == SB_DRIFT_GIVEN || c->drift.src == SB_DRIFT_NONE)
		return;
	sb_drift_words(&c->drift, words, sizeof(words));
	sb_bisect_say("%s", words);
}

/* The ends checked with the drift: a gap beyond what a sweep a side detects, and a step able to decide. */
static int check_ends_drift(struct step_ctx *c)
{
	struct sb_drift_side g = { c->ge, c->nge }, b = { c->be, c->nbe };
	struct sb_gap gap;
	int ok;

	if (sb_gap_check_drift(&g, &b, &c->drift, &gap) < 0) {
		sb_bisect_say("%s: each end needs %d runs or more with a positive rate", c->tstr,
			      SB_INDEPENDENT_RUNS);
		return SB_BISECT_ABORT;
	}
	if (!gap.differ) {
		sb_bisect_say("no difference: at %s the bad end is %+.2f%% from the good end, not a clear difference "
			      "with the drift between sweeps (p = %.3g; %zu and %zu sweeps detect +/-%.2f%%): refusing "
			      "to bisect on noise (measure each end as more sweeps, or learn this machine's drift: "
			      "runtest.sh --calibrate)", c->tstr, gap.change_pct, gap.p, c->nge, c->nbe,
			      gap.detectable_pct);
		return SB_BISECT_ABORT;
	}
	ok = sb_ends_decidable(&g, &b, &c->drift, &c->rule, BATCH);
	if (ok != 1) {
		sb_bisect_say("at %s the ends (%+.2f%% apart) are too uncertain for any step to reach a verdict "
			      "within --max-runs %zu with the drift between sweeps: every step would be skipped; "
			      "measure each end as more sweeps, or raise --max-runs", c->tstr, gap.change_pct,
			      c->rule.max_runs);
		return SB_BISECT_ABORT;
	}
	return 0;
}

/*
 * The drift moderated by the bisect's earlier steps (sb_bisect_drift_steps):
 * the step log's sweeps between these ends at this target, by commit, this
 * commit's left out (its own sweeps moderate it in the step). 0, or an exit
 * code.
 */
static int past_drift(struct step_ctx *c)
{
	const char *ends[2 * SB_BISECT_MAXENDS];
	struct sb_bisect_learn in = learn_in(c, ends);
	struct sb_steplog log;
	char err[1024];
	int rc;

	if (sb_steplog_read(c->log, &log, err, sizeof(err)) != 0) {
		sb_bisect_say("%s", err);
		return SB_BISECT_ABORT;
	}
	rc = sb_bisect_drift_steps(&in, &log, c->o->good, c->o->bad, c->sha, "this bisect's earlier steps", &c->drift);
	sb_steplog_free(&log);
	if (rc < 0) {
		sb_bisect_say("out of memory");
		return SB_BISECT_ABORT;
	}
	if (rc == 1) {
		sb_drift_words(&c->drift, err, sizeof(err));
		sb_bisect_say("with %s", err);
	}
	return 0;
}

/* The ends loaded and checked: they must differ by more than their runs can detect. */
static int check_ends(struct step_ctx *c)
{
	struct sb_gap g;
	char err[512];
	int rc;

	if (sb_run_load(c->o->good, &c->good_run, err, sizeof(err)) != 0 ||
	    sb_target_parse(c->o->point, &c->t, err, sizeof(err)) != 0 ||
	    sb_target_resolve(&c->t, &c->good_run, err, sizeof(err)) != 0) {
		sb_bisect_say("%s", err);
		return SB_BISECT_ABORT;
	}
	sb_target_str(&c->t, c->tstr, sizeof(c->tstr));
	if ((rc = end_side(c, c->o->goods, c->o->ngood, &c->good, c->ge, &c->nge, c->eboot[0])) ||
	    (rc = end_side(c, c->o->bads, c->o->nbad, &c->bad, c->be, &c->nbe, c->eboot[1])))
		return rc;
	snprintf(c->boot[0], sizeof(c->boot[0]), "%s", c->eboot[0][0]);
	snprintf(c->boot[1], sizeof(c->boot[1]), "%s", c->eboot[1][0]);
	learn_drift(c);
	c->rule = c->o->rule;
	if (c->drift.src != SB_DRIFT_NONE && !c->o->max_runs_given)
		c->rule.max_runs = SB_DRIFT_MAX_RUNS;
	if (c->drift.src != SB_DRIFT_NONE)
		return 0;	/* checked with the bisect's steps so far, once the commit is known */
	if (sb_gap_check(&c->good, &c->bad, &g) < 0) {
		sb_bisect_say("%s: each end needs %d runs or more with a positive rate", c->tstr,
			      SB_INDEPENDENT_RUNS);
		return SB_BISECT_ABORT;
	}
	if (!g.differ) {
		sb_bisect_say("no difference: at %s the bad end is %+.2f%% from the good end, and their runs "
			      "(%zu and %zu) detect only +/-%.2f%% (p = %.3g): refusing to bisect on noise "
			      "(measure the ends with more runs: sb-bisect measure ... --repeat N)", c->tstr,
			      g.change_pct, c->good.n, c->bad.n, g.detectable_pct, g.p);
		return SB_BISECT_ABORT;
	}
	return 0;
}

/*
 * The sweeps this commit already has at this target between these ends (a
 * bisect run again after an interruption): another bisect's are not this
 * one's; a kept sweep that no longer loads, or not of the good end's
 * testcase, parameters and shape, is left out with a line.
 */
static int reuse(struct step_ctx *c)
{
	struct sb_steplog log;
	char err[1024];
	int rc = sb_steplog_read(c->log, &log, err, sizeof(err));

	if (rc != 0) {
		sb_bisect_say("%s", err);
		return SB_BISECT_ABORT;
	}
	for (size_t i = 0; i < log.n && rc == 0; i++) {
		const struct sb_stepline *l = &log.l[i];
		double *v;
		size_t n;

		if (strcmp(l->kind, "sweep") != 0 || strcmp(l->sha, c->sha) != 0 || strcmp(l->target, c->tstr) != 0 ||
		    !l->good || strcmp(l->good, c->o->good) != 0 || strcmp(l->bad, c->o->bad) != 0)
			continue;
		if (values_of(c, l->rundir, 1, &v, &n, err, sizeof(err), c->boot[2]) != 0) {
			sb_bisect_say("not reusing a kept sweep: %s", err);
			free(v);
			continue;
		}
		sb_bisect_say("reusing %s", l->rundir);
		rc = append(c, v, n);
	}
	sb_steplog_free(&log);
	return rc;
}

/* runtest.sh's arguments for the target, with the good end's sweep shape. */
static char **shape_args(const struct step_ctx *c, char *buf, size_t len, char *params, size_t plen)
{
	const struct sb_run *g = &c->good_run;
	char **v = calloc(64, sizeof(*v)), *p, *save = NULL;
	size_t k = 0, off = 0;

	if (!v)
		return NULL;
	snprintf(params, plen, "%s", g->params ? g->params : "");
	v[k++] = (char *)g->test;
	v[k++] = "--mode";
	v[k++] = (char *)c->t.mode;
	v[k++] = "--points";
	for (size_t i = 0; i < g->npts && off < len; i++)
		if (strcmp(g->pts[i].mode, c->t.mode) == 0 && (c->t.kind == SB_T_CURVE || g->pts[i].tasks == c->t.tasks))
			off += (size_t)snprintf(buf + off, len - off, "%s%ld", off ? "," : "", g->pts[i].tasks);
	v[k++] = buf;
	v[k++] = "--repeat";
	v[k++] = "2";
#define SHAPE(key, opt) if (g->key && g->key[0]) { v[k++] = opt; v[k++] = (char *)g->key; }
	SHAPE(period_ms, "--period-ms");
	SHAPE(duration, "--duration");
	SHAPE(warmup, "--warmup");
	SHAPE(placement, "--placement");
#undef SHAPE
	for (p = strtok_r(params, " ", &save); p && k < 60;
	     p = strtok_r(NULL, " ", &save)) {
		v[k++] = "--param";
		v[k++] = p;
	}
	return v;
}

/* One more sweep of BATCH runs at the commit. 0, or an exit code. */
static int more_runs(struct step_ctx *c)
{
	char pts[4096], params[4096], *dir = NULL, err[1024];
	char **args = shape_args(c, pts, sizeof(pts), params, sizeof(params));
	const char *f[6];
	double *v = NULL;
	size_t n = 0;
	int rc, got = 0;

	if (!args)
		return SB_BISECT_ABORT;
	rc = sb_sweep(c->o, c->sha, args, &dir);
	free(args);
	if (sb_child_interrupted())
		rc = SB_BISECT_INTERRUPTED;
	else if (rc == SB_EXIT_FAIL)
		sb_bisect_say("the measurement failed at %.12s: skip", c->sha), rc = SB_BISECT_SKIP;
	else if (rc != 0)
		sb_bisect_say("runtest.sh failed (exit %d): stopping the bisect", rc), rc = SB_BISECT_ABORT;
	/* the sweep checked before it goes into the log: a line there is reused by every later step */
	if (rc == 0 && (got = values_of(c, dir, 0, &v, &n, err, sizeof(err), c->boot[2])) == SB_EXIT_FAIL)
		sb_bisect_say("%s: the measurement failed at %.12s: skip", err, c->sha), rc = SB_BISECT_SKIP;
	else if (rc == 0 && got != 0)
		sb_bisect_say("runtest.sh's sweep does not load: %s: stopping the bisect", err), rc = SB_BISECT_ABORT;
	if (rc == 0) {
		f[0] = "sweep", f[1] = c->sha, f[2] = c->tstr, f[3] = dir, f[4] = c->o->good, f[5] = c->o->bad;
		if (sb_steplog_append(c->log, f, 6, err, sizeof(err)) != 0)
			sb_bisect_say("%s", err), rc = SB_BISECT_ABORT;
		else
			rc = append(c, v, n), v = NULL;
	}
	free(v);
	free(dir);
	return rc;
}

/* The verdict into the step log and on stderr; the exit code for git. */
static int record(struct step_ctx *c, const struct sb_step *s)
{
	static const int code[] = { SB_BISECT_ABORT, SB_BISECT_GOOD, SB_BISECT_BAD, SB_BISECT_SKIP };
	static const char *const word[] = { "?", "good", "bad", "skip" };
	char runs[32], mean[32], pos[32], err[512];
	const char *f[10] = { "verdict", c->sha, c->tstr, word[s->v], runs, mean, pos, c->o->good,
			      c->o->bad, c->o->command };

	snprintf(runs, sizeof(runs), "%zu", s->k);
	snprintf(mean, sizeof(mean), "%.6g", s->mean);
	snprintf(pos, sizeof(pos), "%.4f", s->position);
	sb_bisect_say("%.12s at %s: %s after %zu runs: mean %.6g ops/s, %.2f of the way from the good end "
		      "to the bad (log likelihood ratio %.2f, bounds %.2f and %.2f)", c->sha, c->tstr,
		      sb_verdict_name[s->v], s->k, s->mean, s->position, s->llr, s->lo, s->hi);
	if (sb_steplog_append(c->log, f, 10, err, sizeof(err)) != 0) {
		sb_bisect_say("%s", err);
		return SB_BISECT_ABORT;
	}
	return code[s->v];
}

/* Runs until the rule decides: the exit code. */
static int decide_loop(struct step_ctx *c)
{
	struct sb_step s;
	int rc;

	if ((rc = reuse(c)) != 0)
		return rc;
	for (;;) {
		struct sb_drift_side g = { c->ge, c->nge }, b = { c->be, c->nbe }, x = { c->xs, c->nxs };

		if (c->drift.src == SB_DRIFT_NONE ? sb_decide(&c->good, &c->bad, &c->rule, c->x, c->k, &s) < 0 :
		    sb_decide_drift(&g, &b, &c->drift, &c->rule, &x, &s) < 0) {
			sb_bisect_say("the sequential test cannot use these ends or options");
			return SB_BISECT_ABORT;
		}
		if (s.v != SB_V_MORE)
			return record(c, &s);
		if ((rc = more_runs(c)) != 0)
			return rc;
	}
}

static void interrupted_line(const struct step_ctx *c)
{
	sb_bisect_say("interrupted at %.12s: nothing was marked, the sweeps finished so far are kept (%s) and "
		      "reused. 'git bisect run' stops here (an exit code of 128 or more); the bisect itself "
		      "stays where it was: 'git bisect log' shows it, 'git bisect run %s' resumes it, "
		      "'git bisect reset' ends it", c->sha[0] ? c->sha : "(no commit)", c->o->results,
		      c->o->command);
}

int sb_bisect_step(const struct sb_bisect_opts *o)
{
	struct step_ctx c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.o = o;
	if (!(c.log = sb_steplog_path(o)))
		return SB_BISECT_ABORT;
	rc = check_ends(&c);
	if (rc == 0 && sb_tree_head(c.sha) < 0)
		rc = SB_BISECT_ABORT;
	if (rc == 0 && c.drift.src != SB_DRIFT_NONE && (rc = past_drift(&c)) == 0)
		rc = check_ends_drift(&c);
	if (rc == 0 && (rc = sb_tree_build(o)) != 0) {
		if (sb_child_interrupted())
			rc = SB_BISECT_INTERRUPTED;
		else
			sb_bisect_say("the build failed at %.12s (exit %d): skip", c.sha, rc), rc = SB_BISECT_SKIP;
	}
	if (rc == 0 && o->kernel && access(o->kernel, R_OK) != 0)
		sb_bisect_say("the build made no %s at %.12s: skip", o->kernel, c.sha), rc = SB_BISECT_SKIP;
	if (rc == 0)
		rc = decide_loop(&c);
	if (rc == SB_BISECT_INTERRUPTED || sb_child_interrupted()) {
		interrupted_line(&c);
		rc = SB_BISECT_INTERRUPTED;
	}
	if (c.good_run.dir)
		sb_run_free(&c.good_run);
	for (size_t i = 0; i < c.nxs; i++)
		free((char *)c.xs[i].boot);
	free(c.x);
	free(c.log);
	return rc;
}
