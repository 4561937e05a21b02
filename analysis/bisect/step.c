/* One step of git bisect run: the ends checked once, the commit built, runs added until the sequential test decides. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "bisect/child.h"
#include "bisect/steps.h"
#include "results.h"

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
};

/* a and b the same text (NULL as ""): 1 */
static int same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/*
 * The values of target t in the run directory dir into *v (*n of them): a
 * complete sweep of the good end's testcase; with shape, of its parameters and
 * run shape too. 0, or -1 with why in err.
 */
static int values_of(const struct step_ctx *c, const char *dir, int shape, double **v, size_t *n, char *err,
		     size_t errlen)
{
	const struct sb_run *g = &c->good_run;
	struct sb_run r;
	int rc = sb_run_load(dir, &r, err, errlen) != 0 ? -1 : 0;

	*v = NULL, *n = 0;
	if (rc == 0 && strcmp(r.status, "complete") != 0)
		rc = -1, snprintf(err, errlen, "%s: a %s sweep (meta's status), not a complete one", dir, r.status);
	else if (rc == 0 && strcmp(r.test, g->test) != 0)
		rc = -1, snprintf(err, errlen, "%s: a sweep of %s, not of %s (the good end's testcase)", dir, r.test, g->test);
	else if (rc == 0 && shape && !(same(r.params, g->params) && same(r.period_ms, g->period_ms) &&
				       same(r.duration, g->duration) && same(r.warmup, g->warmup) &&
				       same(r.placement, g->placement)))
		rc = -1, snprintf(err, errlen, "%s: its testcase parameters or run shape (period, duration, warmup, "
				  "placement) are not the good end's %s", dir, g->dir);
	if (rc == 0 && sb_target_values(&c->t, &r, v, n, err, errlen) != 0)
		rc = -1;
	sb_run_free(&r);
	return rc;
}

/* n values appended to c->x (v freed). 0, or an exit code. */
static int append(struct step_ctx *c, double *v, size_t n)
{
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

	if (values_of(c, dir, shape, &v, &n, err, sizeof(err)) != 0) {
		sb_bisect_say("%s", err);
		free(v);
		return SB_BISECT_ABORT;
	}
	return append(c, v, n);
}

/* An end's values at the target into s. 0, or an exit code. */
static int end_side(struct step_ctx *c, const char *dir, struct sb_side *s)
{
	size_t k0 = c->k;
	int rc = add_values(c, dir, 1);

	if (rc == 0 && sb_side_of(c->x + k0, c->k - k0, s) < 0)
		rc = SB_BISECT_ABORT;
	c->k = k0;
	return rc;
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
	if ((rc = end_side(c, c->o->good, &c->good)) || (rc = end_side(c, c->o->bad, &c->bad)))
		return rc;
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
		if (values_of(c, l->rundir, 1, &v, &n, err, sizeof(err)) != 0) {
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
	int rc;

	if (!args)
		return SB_BISECT_ABORT;
	rc = sb_sweep(c->o, c->sha, args, &dir);
	free(args);
	if (sb_child_interrupted())
		rc = SB_BISECT_INTERRUPTED;
	else if (rc == 1)
		sb_bisect_say("the measurement failed at %.12s: skip", c->sha), rc = SB_BISECT_SKIP;
	else if (rc != 0)
		sb_bisect_say("runtest.sh failed (exit %d): stopping the bisect", rc), rc = SB_BISECT_ABORT;
	/* the sweep checked before it goes into the log: a line there is reused by every later step */
	if (rc == 0 && values_of(c, dir, 0, &v, &n, err, sizeof(err)) != 0)
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
		if (sb_decide(&c->good, &c->bad, &c->o->rule, c->x, c->k, &s) < 0) {
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
	free(c.x);
	free(c.log);
	return rc;
}
