/* sb-bisect report: the first bad commit and its parent side by side in words, the steps, monotonicity, how to reproduce. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect.h"
#include "bisect/child.h"
#include "bisect/decide_drift.h"
#include "bisect/drift_learn.h"
#include "bisect/steps.h"
#include "msg/exit.h"
#include "io/csv.h"
#include "io/results.h"
#include "stat/stats.h"
#include "stat/verdict.h"

/* What the report knows from git bisect log. */
struct blog {
	char *text;
	char first_bad[48], subject[256];
	char start_good[48], start_bad[48];	/* the ends, as the log's start names them */
	char parent[48];
};

static int in_log(const struct blog *b, const char *sha)
{
	char pat[64];

	snprintf(pat, sizeof(pat), " %s\n", sha);
	return strstr(b->text, pat) != NULL;
}

/* "# first bad commit: [SHA] subject", and the "# good: [SHA]" / "# bad: [SHA]" before "git bisect start". */
static void parse_log(struct blog *b)
{
	int started = 0;
	char *save = NULL, *copy = strdup(b->text);

	for (char *l = copy ? strtok_r(copy, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		if (sscanf(l, "# first bad commit: [%47[0-9a-f]] %255[^\n]", b->first_bad, b->subject) >= 1)
			continue;
		if (strncmp(l, "git bisect start", 16) == 0)
			started = 1;
		if (!started && !b->start_bad[0] && sscanf(l, "# bad: [%47[0-9a-f]]", b->start_bad) == 1)
			continue;
		if (!started && !b->start_good[0])
			sscanf(l, "# good: [%47[0-9a-f]]", b->start_good);
	}
	free(copy);
}

/* The log's text: the file given, or git bisect log's output. 0, or SB_EXIT_USAGE with a message. */
static int read_log(const struct sb_bisect_opts *o, struct blog *b)
{
	char *argv[] = { "git", "bisect", "log", NULL }, *pargv[] = { "git", "rev-parse", "-q", "--verify", NULL, NULL };
	char arg[64], *out = NULL;

	memset(b, 0, sizeof(*b));
	if (o->log) {
		/* a file or a pipe (<(git bisect log)); a FIFO nobody writes to stalled the report for good */
		size_t cap = 0;
		int e = 0;
		FILE *f = sb_file_stream(o->log, &e);
		ssize_t n = f ? getdelim(&b->text, &cap, '\0', f) : -1;	/* up to a NUL byte: one is damage */

		if (n <= 0 || b->text[n - 1] == '\0') {
			e = e != 0 ? e : f && ferror(f) ? errno : 0;
			sb_bisect_say("%s: cannot read the bisect log: %s", o->log,
				      e == SB_E_NOTREG ? "a device or socket, not a file or a pipe" :
				      e != 0 ? sb_file_strerror(e) : n <= 0 ? "empty" : "a NUL byte (not a git bisect log)");
			if (f)
				fclose(f);
			return e == ENOMEM ? SB_EXIT_ENV : SB_EXIT_USAGE;
		}
		fclose(f);
	} else if (sb_child_run(argv, NULL, &b->text, 5) != 0) {
		sb_bisect_say("git bisect log failed: no bisect here (give --log FILE)");
		return SB_EXIT_USAGE;
	}
	parse_log(b);
	if (b->first_bad[0]) {
		snprintf(arg, sizeof(arg), "%s^", b->first_bad);
		pargv[4] = arg;
		if (sb_child_run(pargv, NULL, &out, 5) == 0)
			sscanf(out, "%47[0-9a-f]", b->parent);
		free(out);
	}
	return 0;
}

/* Is sweep line l this bisect's (v: its last verdict)? A step's sweep between v's ends, or measure's. */
static int ours(const struct sb_stepline *l, const struct sb_stepline *v)
{
	if (strcmp(l->kind, "sweep") != 0)
		return 0;
	if (strcmp(l->target, "-") == 0)
		return 1;	/* sb-measure's: its testcase checked on loading (side_run) */
	return v && l->good && strcmp(l->good, v->good) == 0 && strcmp(l->bad, v->bad) == 0;
}

/* A commit's sweeps one by one (the drift model's unit): at most MAXSW. */
#define MAXSW 64
struct each {
	struct sb_run r[MAXSW];
	size_t k;
};

/* Every sweep of commit sha pooled into r (the ends' directories count for the ends' commits): this
 * bisect's, of the good end's testcase; with e, each also loaded on its own into e. */
static int side_run(const struct sb_steplog *log, const struct blog *b, const char *sha,
		    const struct sb_stepline *v, struct sb_run *r, struct each *e)
{
	char err[512], test[256] = "";
	int have = 0;

	if (v && sb_run_load(v->good, r, err, sizeof(err)) == 0)
		snprintf(test, sizeof(test), "%s", r->test);
	if (v)
		sb_run_free(r);
	for (size_t i = 0; i <= log->n; i++) {
		const char *dir = NULL;
		struct sb_run x;

		if (i < log->n && ours(&log->l[i], v) && strcmp(log->l[i].sha, sha) == 0)
			dir = log->l[i].rundir;
		else if (i == log->n && v && strcmp(sha, b->start_good) == 0)
			dir = v->good;
		else if (i == log->n && v && strcmp(sha, b->start_bad) == 0)
			dir = v->bad;
		if (!dir)
			continue;
		if (sb_run_load(dir, have ? &x : r, err, sizeof(err)) != 0) {
			sb_bisect_say("%s", err);
			sb_run_free(have ? &x : r);
			continue;
		}
		if (strcmp((have ? &x : r)->test, test) != 0) {	/* another testcase's measure */
			sb_run_free(have ? &x : r);
			continue;
		}
		if (have) {
			sb_run_pool(r, &x);
			sb_run_free(&x);
		}
		have = 1;
		if (e && e->k < MAXSW && sb_run_load(dir, &e->r[e->k], err, sizeof(err)) == 0)
			e->k++;
		else if (e && e->k < MAXSW)
			sb_run_free(&e->r[e->k]);
	}
	return have ? 0 : -1;
}

/* "4.10% worse", "2.00% better" or "no significant change" (ops/s: higher is better). */
static const char *words(const struct sb_vresult *v, char *buf, size_t len)
{
	if (v->word == SB_VW_SAME)
		snprintf(buf, len, "no significant change");
	else
		snprintf(buf, len, "%.2f%% %s", fabs(v->estimate), v->estimate < 0 ? "worse" : "better");
	return buf;
}

/* The verdict module on two sets of values, each one sweep (a pooled side's sweeps are not kept). */
static int verdict_of(const double *v0, size_t n0, const double *v, size_t n, enum sb_vtest test,
		      double alpha, struct sb_vresult *out)
{
	struct sb_vsweep b = { v0, n0, 0, 0, NULL, -1 }, x = { v, n, 0, 0, NULL, -1 };
	struct sb_vquery q = { { &b, 1 }, { &x, 1 }, test, 95, alpha, SB_DRIFT_NONE_INIT };

	return sb_verdict(&q, out);
}

/* Side s's sweeps at (mode, tasks) as the verdict module's: each sweep's run means; their count. */
static size_t point_sweeps(const struct each *s, const char *mode, long tasks, struct sb_vsweep *sw)
{
	size_t k = 0, n;

	for (size_t i = 0; i < s->k; i++) {
		const struct sb_point *pt = sb_run_find(&s->r[i], mode, tasks);
		const double *v = pt ? sb_point_run_means(pt, &n) : NULL;

		if (v && n > 0)
			sw[k++] = (struct sb_vsweep){ v, n, 0, 0, NULL, -1 };
	}
	return k;
}

/* The first bad commit against its parent at one point with the drift: each commit's sweeps a side. */
static int drift_point(const struct each *pe, const struct each *xe, const char *mode, long tasks,
		       const struct sb_drift *drift, struct sb_vresult *d)
{
	struct sb_vsweep a[MAXSW], b[MAXSW];
	struct sb_vquery q = { { a, 0 }, { b, 0 }, SB_VT_RATIO, 95, 0.05, *drift };

	q.base.nsw = point_sweeps(pe, mode, tasks, a);
	q.x.nsw = point_sweeps(xe, mode, tasks, b);
	if (q.base.nsw == 0 || q.x.nsw == 0)
		return -1;
	return sb_verdict(&q, d);
}

/* Every count and mode both sides have: parent against the first bad commit (the drift: each's sweeps). */
static void side_by_side(const struct sb_run *p, const struct sb_run *x, const struct each *pe, const struct each *xe,
			 const struct sb_drift *drift, int md, FILE *out)
{
	fputs(md ? "| mode | tasks | parent ops/s | first bad ops/s | change | ±95% | detectable | in words |\n"
		   "|---|---:|---:|---:|---:|---:|---:|---|\n"
		 : "  mode       tasks    parent ops/s  first bad ops/s   change   +/-95%  detectable  in words\n", out);
	for (size_t i = 0; i < p->npts; i++) {
		const struct sb_point *a = &p->pts[i], *b = sb_run_find(x, a->mode, a->tasks);
		const struct sb_values *av = sb_point_values(a), *bv = b ? sb_point_values(b) : NULL;
		struct sb_vresult d;
		char w[64];

		if (!bv || av->n < 2 || bv->n < 2 ||
		    (drift->src == SB_DRIFT_NONE ? verdict_of(av->v, av->n, bv->v, bv->n, SB_VT_RATIO, 0.05, &d) :
		     drift_point(pe, xe, a->mode, a->tasks, drift, &d)) < 0)
			continue;
		fprintf(out, md ? "| %s | %ld | %.6g | %.6g | %+.2f%% | %.2f%% | ±%.2f%% | %s |\n"
				: "  %-9s %6ld %15.6g %16.6g %+7.2f%% %7.2f%%   +/-%.2f%%  %s\n",
			a->mode, a->tasks, d.drifted ? d.mean0 : av->st.mean, d.drifted ? d.mean : bv->st.mean,
			d.estimate, d.d.rel_halfwidth_pct, d.detectable, words(&d, w, sizeof(w)));
	}
}

/* The target's values in dir appended to *all (n of them); 0 when it had them. */
static int gather(const struct sb_target *t, const char *dir, double **all, size_t *n)
{
	struct sb_run r;
	char err[512];
	double *x = NULL, *na;
	size_t k = 0;
	int rc = -1;

	if (sb_run_load(dir, &r, err, sizeof(err)) != 0)
		return -1;
	if (sb_target_values(t, &r, &x, &k, err, sizeof(err)) == 0 &&
	    (na = realloc(*all, (*n + k) * sizeof(*na)))) {
		*all = na;
		memcpy(na + *n, x, k * sizeof(*x));
		*n += k;
		rc = 0;
	}
	free(x);
	sb_run_free(&r);
	return rc;
}

/* Sweeps of a side at a target, each its own values (the drift model's unit). */
struct sweeps {
	struct sb_vsweep sw[MAXSW];
	size_t k, n;		/* sweeps, values */
};

/* The target's values in dir as one more sweep of s. */
static void add_sweep(struct sweeps *s, const struct sb_target *t, const char *dir)
{
	double *x = NULL;
	size_t n = 0;

	if (s->k < MAXSW && gather(t, dir, &x, &n) == 0 && n > 0) {
		s->sw[s->k++] = (struct sb_vsweep){ x, n, 0, 0, NULL, -1 };
		s->n += n;
	} else
		free(x);
}

static void free_sweeps(struct sweeps *s)
{
	for (size_t i = 0; i < s->k; i++)
		free((double *)s->sw[i].v);
}

/* A step's sweeps against the end's, the drift in the test (off_level's). */
static int off_level_drift(const struct sb_steplog *log, const struct sb_stepline *v, const struct sb_target *t,
			   const struct sb_drift *drift, double *p)
{
	struct sweeps step = { .k = 0 }, end = { .k = 0 };
	struct sb_vquery q = { { end.sw, 0 }, { step.sw, 0 }, SB_VT_DIFF, 95, 0.05, *drift };
	struct sb_vresult vd;
	int rc = -1;

	for (size_t i = 0; i < log->n; i++)
		if (ours(&log->l[i], v) && strcmp(log->l[i].sha, v->sha) == 0 &&
		    strcmp(log->l[i].target, v->target) == 0)
			add_sweep(&step, t, log->l[i].rundir);
	add_sweep(&end, t, strcmp(v->verdict, "good") == 0 ? v->good : v->bad);
	q.base.nsw = end.k;
	q.x.nsw = step.k;
	if (step.n >= 2 && end.k == 1 && sb_verdict(&q, &vd) == 0) {
		*p = vd.p;
		rc = vd.p < 0.01;
	}
	free_sweeps(&step);
	free_sweeps(&end);
	return rc;
}

/*
 * A step's runs against the end it was called: 1 when they differ (p < 0.01), 0, -1: cannot tell.
 * With the drift, its sweeps against the end's sweep (the sweep the unit).
 */
static int off_level(const struct sb_steplog *log, const struct sb_stepline *v, const struct sb_drift *drift,
		     double *p)
{
	struct sb_target t;
	struct sb_vresult vd;
	char err[512];
	double *step = NULL, *end = NULL;
	size_t n = 0, ne = 0;
	int rc = -1;

	if (strcmp(v->verdict, "skip") == 0 || sb_target_parse(v->target, &t, err, sizeof(err)) != 0)
		return -1;
	if (drift->src != SB_DRIFT_NONE)
		return off_level_drift(log, v, &t, drift, p);
	for (size_t i = 0; i < log->n; i++)
		if (ours(&log->l[i], v) && strcmp(log->l[i].sha, v->sha) == 0 &&
		    strcmp(log->l[i].target, v->target) == 0)
			gather(&t, log->l[i].rundir, &step, &n);
	if (n >= 2 && gather(&t, strcmp(v->verdict, "good") == 0 ? v->good : v->bad, &end, &ne) == 0 &&
	    verdict_of(end, ne, step, n, SB_VT_DIFF, 0.05, &vd) == 0) {
		*p = vd.p;
		rc = vd.p < 0.01;
	}
	free(step);
	free(end);
	return rc;
}

/* The steps in the order tested, and whether each sits at the level of the end it was called. */
static int steps(const struct sb_steplog *log, const struct blog *b, const struct sb_drift *drift, int md,
		 FILE *out)
{
	int mono = 1;

	fputs(md ? "\n## Steps\n\n| commit | verdict | runs | mean ops/s | position | at its end's level |\n"
		   "|---|---|---:|---:|---:|---|\n" : "\nSteps (position: 0 at the good end's mean, 1 at the bad end's):\n", out);
	for (size_t i = 0; i < log->n; i++) {
		const struct sb_stepline *v = &log->l[i];
		char lvl[64] = "-";
		double p = NAN;
		int off;

		if (strcmp(v->kind, "verdict") != 0 || !in_log(b, v->sha))
			continue;
		off = off_level(log, v, drift, &p);
		if (off >= 0)
			snprintf(lvl, sizeof(lvl), "%s (p = %.2g)", off ? "NO" : "yes", p);
		mono &= off != 1;
		fprintf(out, md ? "| %.12s | %s | %ld | %.6g | %.2f | %s |\n"
				: "  %.12s  %-5s %3ld runs  %12.6g ops/s  position %5.2f  at its end's level: %s\n",
			v->sha, v->verdict, v->runs, v->mean, v->position, lvl);
	}
	return mono;
}

/* How to do it again. */
static void reproduce(const struct blog *b, const struct sb_stepline *v, int md, FILE *out)
{
	const char *pre = md ? "    " : "  ";

	fprintf(out, md ? "\n## Reproduce\n\n" : "\nReproduce:\n");
	fprintf(out, "%sgit bisect start %s %s\n", pre, b->start_bad[0] ? b->start_bad : "BAD",
		b->start_good[0] ? b->start_good : "GOOD");
	fprintf(out, "%sgit bisect run %s\n", pre, v ? v->command : "sb-bisect ...");
	if (b->first_bad[0])
		fprintf(out, "%s# the two commits alone: git checkout %.12s (then %.12s) and sb-bisect measure ... -- TEST\n",
			pre, b->parent[0] ? b->parent : "FIRST_BAD^", b->first_bad);
}

/* The ends' first sweeps with the drift: sb_gap_check_drift, as a step checks them. */
static void ends_line_drift(const struct sb_stepline *v, const struct sb_target *t, const struct sb_drift *drift,
			    int md, FILE *out)
{
	struct sb_drift_sweep gs, bs;
	struct sb_drift_side g = { &gs, 1 }, bd = { &bs, 1 };
	struct sb_gap gap;
	double *gv = NULL, *bv = NULL;
	size_t ng = 0, nb = 0;

	if (gather(t, v->good, &gv, &ng) == 0 && gather(t, v->bad, &bv, &nb) == 0 &&
	    sb_bisect_drift_sweep(gv, ng, NULL, &gs) == 0 && sb_bisect_drift_sweep(bv, nb, NULL, &bs) == 0 &&
	    sb_gap_check_drift(&g, &bd, drift, &gap) == 0)
		fprintf(out, "%sAt %s the ends differ by %+.2f%% (%s, p = %.2g), and a sweep each (%zu and %zu runs) "
			"detects %.2f%% with the drift between sweeps.\n", md ? "\n" : "", v->target, gap.change_pct,
			gap.change_pct < 0 ? "worse" : "better", gap.p, ng, nb, gap.detectable_pct);
	free(gv);
	free(bv);
}

static void ends_line(const struct sb_stepline *v, const struct sb_drift *drift, int md, FILE *out)
{
	struct sb_target t;
	struct sb_side g, bd;
	struct sb_gap gap;
	double *gv = NULL, *bv = NULL;
	size_t ng = 0, nb = 0;
	char err[256];

	if (!v || sb_target_parse(v->target, &t, err, sizeof(err)) != 0)
		return;
	if (drift->src != SB_DRIFT_NONE) {
		ends_line_drift(v, &t, drift, md, out);
		return;
	}
	if (gather(&t, v->good, &gv, &ng) == 0 && gather(&t, v->bad, &bv, &nb) == 0 &&
	    sb_side_of(gv, ng, &g) == 0 && sb_side_of(bv, nb, &bd) == 0 && sb_gap_check(&g, &bd, &gap) == 0)
		fprintf(out, "%sAt %s the ends differ by %+.2f%% (%s), and their runs (%zu and %zu) detect %.2f%%.\n",
			md ? "\n" : "", v->target, gap.change_pct, gap.change_pct < 0 ? "worse" : "better", ng, nb,
			gap.detectable_pct);
	free(gv);
	free(bv);
}

/* The first bad commit against its parent, side by side (e: each commit's sweeps, with the drift). */
static void first_bad(const struct sb_steplog *log, const struct blog *b, const struct sb_stepline *last,
		      const struct sb_drift *drift, struct each *e, int md, FILE *out)
{
	struct sb_run pr, fr;

	if (side_run(log, b, b->parent, last, &pr, e) != 0)
		return;
	if (side_run(log, b, b->first_bad, last, &fr, e ? e + 1 : NULL) == 0) {
		fprintf(out, md ? "\n## %.12s against its parent %.12s\n\n" : "\n%.12s against its parent %.12s:\n",
			b->first_bad, b->parent);
		side_by_side(&pr, &fr, e, e ? e + 1 : NULL, drift, md, out);
		sb_run_free(&fr);
	}
	sb_run_free(&pr);
}

/* The last step of this bisect in the log (its ends and target are the report's), NULL: none. */
static const struct sb_stepline *last_step(const struct sb_steplog *log, const struct blog *b)
{
	const struct sb_stepline *last = NULL;

	for (size_t i = 0; i < log->n; i++)
		if (strcmp(log->l[i].kind, "verdict") == 0 && in_log(b, log->l[i].sha))
			last = &log->l[i];
	return last;
}

/*
 * The drift the report's verdicts use, learned as a step learns it
 * (drift_learn.h): --drift; else $SB_HISTORY's figure for the good end's
 * testcase and testbed at the target (the ends' sweeps left out: the last
 * step's ends, and measure's sweeps of the ends' commits); else the default;
 * then moderated by every commit's sweeps of this bisect. None without a step.
 */
static void learn(const struct sb_bisect_opts *o, const struct sb_steplog *log, const struct blog *b,
		  const struct sb_stepline *v, struct sb_drift *d)
{
	struct sb_run g, bad;
	struct sb_target t;
	const char *ends[2 * SB_BISECT_MAXENDS];
	struct sb_bisect_learn in = { o->drift_pct, &g, &t, v ? v->target : "", ends, 0, 1 };
	char err[512];

	sb_drift_given(0, d);
	if (!v || o->drift_pct == 0 || sb_target_parse(v->target, &t, err, sizeof(err)) != 0)
		return;
	if (sb_run_load(v->good, &g, err, sizeof(err)) != 0) {
		sb_run_free(&g);	/* the good end gone: no history, no moderation */
		if (o->drift_pct > 0)
			sb_drift_given(o->drift_pct, d);
		else
			sb_drift_default(d);
		return;
	}
	if (sb_run_meta(v->bad, &bad, err, sizeof(err)) == 0)
		in.across = sb_run_across(&g, &bad);
	sb_run_free(&bad);
	ends[in.nends++] = v->bad;
	for (size_t i = 0; i < log->n && in.nends < 2 * SB_BISECT_MAXENDS; i++)
		if (strcmp(log->l[i].kind, "sweep") == 0 && strcmp(log->l[i].target, "-") == 0 &&
		    (strcmp(log->l[i].sha, b->start_good) == 0 || strcmp(log->l[i].sha, b->start_bad) == 0) &&
		    strcmp(log->l[i].rundir, v->good) != 0 && strcmp(log->l[i].rundir, v->bad) != 0)
			ends[in.nends++] = log->l[i].rundir;
	sb_bisect_drift_start(&in, d);
	if (sb_bisect_drift_steps(&in, log, v->good, v->bad, NULL, "this bisect's steps", d) < 0)
		sb_bisect_say("out of memory: the drift not moderated by this bisect's sweeps");
	sb_run_free(&g);
}

/* The drift named once, for every verdict below (none with --drift 0: the report as before). */
static void drift_line(const struct sb_drift *d, int md, FILE *out)
{
	static const char head[] = "machine drift between sweeps: ";
	char w[600];

	if (d->src == SB_DRIFT_NONE)
		return;
	sb_drift_words(d, w, sizeof(w));
	fprintf(out, md ? "\n**Machine drift between sweeps:** %s (every verdict below takes the sweep as the unit)\n"
		: "Machine drift between sweeps: %s (every verdict below takes the sweep as the unit)\n",
		strncmp(w, head, sizeof(head) - 1) == 0 ? w + sizeof(head) - 1 : w);
}

int sb_bisect_report(const struct sb_bisect_opts *o, FILE *out)
{
	struct blog b;
	struct sb_steplog log;
	const struct sb_stepline *last;
	struct sb_drift drift;
	char *path = sb_steplog_path(o), err[512];
	int md = o->format_md, rc = read_log(o, &b), mono;

	if (rc == 0 && (rc = sb_steplog_read(path, &log, err, sizeof(err))) != 0)
		sb_bisect_say("%s", err);
	free(path);
	if (rc != 0) {
		free(b.text);
		return rc;
	}
	fputs(md ? "# sb-bisect report\n\n" : "sb-bisect report\n\n", out);
	if (b.first_bad[0])
		fprintf(out, "First bad commit: %s %s\nIts parent:       %s\n", b.first_bad, b.subject,
			b.parent[0] ? b.parent : "(unknown: not in this repository)");
	else
		fputs("The bisect has not ended: no first bad commit in the log yet.\n", out);
	last = last_step(&log, &b);
	learn(o, &log, &b, last, &drift);
	drift_line(&drift, md, out);
	mono = steps(&log, &b, &drift, md, out);
	ends_line(last, &drift, md, out);
	fprintf(out, md ? "\n**Monotonic:** %s\n" : "\nMonotonic: %s\n", !last ? "- (no step of this bisect in the log)" :
		drift.src != SB_DRIFT_NONE ? (mono ?
		"yes: every step's sweeps sit at the level of the end it was called, the drift between sweeps "
		"allowed (two levels, one change)" :
		"NO: a step's sweeps differ from the end it was called by more than the drift between sweeps "
		"explains (p < 0.01): the change may be spread over several commits or not monotonic, and the "
		"bisect may have followed one of them (asv's warning)") : mono ?
		"yes: every step's runs sit at the level of the end it was called (two levels, one change)" :
		"NO: a step's runs differ from the end it was called (p < 0.01): the change may be spread over "
		"several commits or not monotonic, and the bisect may have followed one of them (asv's warning)");
	if (b.first_bad[0] && b.parent[0]) {
		struct each *e = drift.src == SB_DRIFT_NONE ? NULL : calloc(2, sizeof(*e));

		if (drift.src != SB_DRIFT_NONE && !e)
			sb_bisect_say("out of memory");
		else
			first_bad(&log, &b, last, &drift, e, md, out);
		for (size_t i = 0; e && i < 2; i++)
			for (size_t j = 0; j < e[i].k; j++)
				sb_run_free(&e[i].r[j]);
		free(e);
	}
	reproduce(&b, last, md, out);
	sb_steplog_free(&log);
	free(b.text);
	return 0;
}
