/* Comparing scalebench runs point by point: loading and checking the runs, the model built whole, then the report; sb_compare_runs. */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg/msg.h"
#include "compare_priv.h"

/*
 * The machine's meta keys: runs that differ in one measured different
 * hardware (or placement) and are refused unless --force. A key absent from
 * either meta (an older run) cannot differ. A VM run's host_* keys are the
 * machine QEMU ran on (every guest is host=scalebench-guest).
 */
static void machine_diff(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size)
{
	const char *const names[] = { "host", "cpu_model", "topology", "hwloc_version", "placement",
				      "host_name", "host_cpu", "host_topology" };
	const char *bv[] = { b->host, b->cpu_model, b->topology, b->hwloc_version, b->placement,
			     b->host_name, b->host_cpu, b->host_topology };
	const char *xv[] = { x->host, x->cpu_model, x->topology, x->hwloc_version, x->placement,
			     x->host_name, x->host_cpu, x->host_topology };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (*bv[k] && *xv[k] && strcmp(bv[k], xv[k]) != 0 && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", names[k]);
}

/* The value of word key in a system check's "k=v k=v" line into buf ("" when absent). */
static const char *system_word(const char *line, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);

	buf[0] = '\0';
	for (const char *p = line; *p; ) {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1), p + klen + 1);
			break;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	return buf;
}

/*
 * The settings of the system checks (meta's system) that differ between
 * base and x and move the numbers: "governor powersave/performance, vm
 * none/kvm". A note, not a refusal: the kernel is the same machine's, its
 * settings are not. A check absent from either meta (an older run) cannot differ.
 */
static void system_diff(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size)
{
	const char *const keys[] = { "governor", "turbo", "smt", "thp", "vm" };
	size_t len = 0;

	buf[0] = '\0';
	if (!*b->system || !*x->system)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && len < size; k++) {
		char bv[64], xv[64];

		system_word(b->system, keys[k], bv, sizeof(bv));
		system_word(x->system, keys[k], xv, sizeof(xv));
		if (*bv && *xv && strcmp(bv, xv) != 0)
			len += (size_t)snprintf(buf + len, size - len, "%s%s %s/%s", len ? ", " : "", keys[k], bv, xv);
	}
}

/* The half-width of the conf% interval of v's mean in % of the mean; NAN without one. */
static double precision(const struct sb_values *v, double conf)
{
	if (v == NULL || v->n < 2 || !(v->st.mean > 0))
		return NAN;
	return 100 * sb_ci_halfwidth(&v->st, conf) / v->st.mean;
}

/* The verdict module on a row's values (each side one set: a pooled side's sweeps are not known here). */
static int point_verdict(struct row *r, double conf)
{
	struct sb_vsweep b = { r->bv->v, r->bv->n, 0, 0, NULL, -1 }, x = { r->xv->v, r->xv->n, 0, 0, NULL, -1 };
	struct sb_vquery q = { { &b, 1 }, { &x, 1 }, SB_VT_RATIO, conf, 0, SB_DRIFT_NONE_INIT };

	return sb_verdict(&q, &r->vd);
}

static void compare_pair(struct pair *pr, const struct sb_cmp_opts *o)
{
	const struct sb_run *b = pr->base, *x = pr->x;

	for (size_t i = 0; i < b->npts; i++) {
		const struct sb_point *bp = &b->pts[i], *xp = sb_run_find(x, bp->mode, bp->tasks);
		struct row *r;

		if (xp == NULL)
			continue;
		r = &pr->rows[pr->nrows++];
		memset(r, 0, sizeof(*r));
		r->b = bp;
		r->x = xp;
		/* Means of runs against samples would mix two different spreads. */
		r->means = bp->means.n > 0 && xp->means.n > 0;
		r->bv = r->means ? &bp->means : &bp->samples;
		r->xv = r->means ? &xp->means : &xp->samples;
		if (!r->means)
			pr->correlated = 1;
		r->bprec = precision(r->means ? r->bv : NULL, o->conf);
		r->xprec = precision(r->means ? r->xv : NULL, o->conf);
		if (r->bv->n < needed(r) || r->xv->n < needed(r) || !(r->bv->st.mean > 0) ||
		    point_verdict(r, o->conf) != 0) {
			r->v = V_NA;
			pr->nna++;
			continue;
		}
		/* The verdict is the printed interval's: change +/- its half-width. */
		r->v = (enum verdict)r->vd.word;
		if (r->v == V_SAME) {
			pr->nsame++;
			continue;
		}
		r->beyond = fabs(r->vd.d.rel_pct) >= o->threshold;
		if (r->v == V_FASTER)
			pr->nfaster++;
		else
			pr->nslower++;
	}
}

/* Refuse what a CI job should not silently compare, unless --force. */
static int check_runs(struct ctx *c, char *err, size_t errlen)
{
	const struct sb_run *b = &c->runs[0];

	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];

		if (strcmp(r->status, "complete") != 0 && !c->o->force)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: the run's status is %s, not complete; "
				    "--force compares it anyway", r->dir, r->status);
		/* an emulated CPU measures the emulator, not the kernel (docs/VM.md) */
		if (strcmp(r->vm_accel, "tcg") == 0 && !c->o->force)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: measured in a VM under TCG emulation "
				    "(meta vm_accel=tcg): its numbers do not compare kernels; "
				    "--force compares it anyway", r->dir);
		if (i > 0 && strcmp(r->test, b->test) != 0 && !c->o->force)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "different testcases: %s is %s, %s is %s; "
				    "--force compares them anyway", b->dir, b->test, r->dir, r->test);
	}
	for (int i = 0; i < c->nruns - 1; i++) {
		const struct pair *pr = &c->pairs[i];

		if (pr->machine[0] && !c->o->force)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s and %s were measured on different machines: "
				    "%s differ; --force compares them anyway", b->dir, pr->x->dir, pr->machine);
		if (pr->nrows == 0 && !c->o->force)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s and %s have no point (mode, tasks) in common; "
				    "--force compares them anyway", b->dir, pr->x->dir);
		if (!c->o->force)
			for (size_t k = 0; k < pr->nrows; k++) {
				const struct row *r = &pr->rows[k];

				if (!r->means)
					return sb_fail(err, errlen, SB_EXIT_USAGE, "%s and %s: %s at %ld tasks has a single "
						    "run (base %zu, new %zu): one run's samples are "
						    "correlated and give no verdict; measure with runtest.sh's "
						    "default runs (3 or more a point), or --force compares "
						    "the samples anyway", b->dir, pr->x->dir, r->b->mode,
						    r->b->tasks, r->b->nruns, r->x->nruns);
			}
		if (pr->nrows > 0 && pr->nna == pr->nrows && !c->o->force)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s and %s: no common point has at least %d "
				    "values in both; --force compares them anyway", b->dir,
				    pr->x->dir, SB_MINISTAT_MINVALUES);
	}
	return 0;
}

/*
 * Runs are named by their label, but two runs of one kernel share the default
 * label (the release): then every run is named by its run id instead.
 */
static void unique_names(struct ctx *c)
{
	int clash = 0;

	for (int i = 0; i < c->nruns && !clash; i++)
		for (int k = i + 1; k < c->nruns; k++)
			if (strcmp(c->runs[i].name, c->runs[k].name) == 0)
				clash = 1;
	if (!clash)
		return;
	for (int i = 0; i < c->nruns; i++) {
		struct sb_run *r = &c->runs[i];
		const char *base = strrchr(r->dir, '/');
		char *id = strdup(*r->run_id ? r->run_id : base != NULL ? base + 1 : r->dir);

		if (id != NULL) {
			free(r->name);
			r->name = id;
		}
	}
}

/*
 * Every run measured the same thing the same way: the testcase's parameters and the run shape as
 * meta records them (a key an older meta lacks is not checked), unless --force. Two sweeps of
 * alloc_free1 at size=64 and size=65536 compared as a 49% regression.
 */
static int check_shape(const struct ctx *c, char *err, size_t errlen)
{
	const struct sb_run *f = &c->runs[0];

	for (int i = 1; i < c->nruns && !c->o->force; i++) {
		const struct sb_run *r = &c->runs[i];
		const char *const names[] = { "params", "period_ms", "duration", "warmup" };
		const char *fv[] = { f->params, f->period_ms, f->duration, f->warmup };
		const char *rv[] = { r->params, r->period_ms, r->duration, r->warmup };

		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (fv[k] != NULL && rv[k] != NULL && strcmp(fv[k], rv[k]) != 0)
				return sb_fail(err, errlen, SB_EXIT_USAGE, "%s differ: '%s' (%s) and '%s' (%s): "
					    "the runs measured different things; --force compares "
					    "them anyway", names[k], fv[k], f->dir, rv[k], r->dir);
	}
	return 0;
}

/* Whether a and b are one sweep: one real path, or one testcase's same run id (a copy). */
static int same_sweep(const struct sb_run *a, const struct sb_run *b)
{
	char *pa = realpath(a->dir, NULL), *pb = realpath(b->dir, NULL);
	int same = pa != NULL && pb != NULL && strcmp(pa, pb) == 0;

	free(pa);
	free(pb);
	return same || (*a->run_id && strcmp(a->run_id, b->run_id) == 0 && strcmp(a->test, b->test) == 0);
}

/*
 * A sweep on both sides (or a copy of it, same run id) compares a sweep with itself
 * and hides any change: refused, --force or not (issue 31, item 4). --vs: runs[0..k-1]
 * against runs[k..]; without it (k = 1) BASE against each NEW (issue 45).
 */
static int check_across(const struct ctx *c, int k, char *err, size_t errlen)
{
	for (int i = 0; i < k; i++)
		for (int j = k; j < c->nruns; j++)
			if (same_sweep(&c->runs[i], &c->runs[j]))
				return sb_fail(err, errlen, SB_EXIT_USAGE, "%s and %s: the same sweep (%s %s) %s: "
					       "a sweep compared with itself hides any change", c->runs[i].arg,
					       c->runs[j].arg, c->runs[i].test,
					       *c->runs[i].run_id ? c->runs[i].run_id : c->runs[i].dir,
					       c->o->pool > 0 ? "on both sides of --vs" : "as both BASE and NEW");
	return 0;
}

/* The same sweep twice on one side (by its real path or its run id) would be pooled twice. */
static int check_twice(const struct ctx *c, int from, int to, char *err, size_t errlen)
{
	for (int i = from; i < to && !c->o->force; i++)
		for (int k = i + 1; k < to; k++) {
			const struct sb_run *a = &c->runs[i], *b = &c->runs[k];

			if (same_sweep(a, b))
				return sb_fail(err, errlen, SB_EXIT_USAGE, "%s and %s: the same sweep (%s %s) given "
					    "twice on one side would be pooled twice; --force pools "
					    "it anyway", a->arg, b->arg, a->test,
					    *a->run_id ? a->run_id : a->dir);
		}
	return 0;
}

/* A compared row whose change or interval is not finite: an input error, never "+inf%". */
static int check_finite(const struct ctx *c, char *err, size_t errlen)
{
	for (int i = 0; i < c->nruns - 1; i++)
		for (size_t k = 0; k < c->pairs[i].nrows; k++) {
			const struct row *r = &c->pairs[i].rows[k];

			if (r->v != V_NA && (!isfinite(r->vd.d.rel_pct) || !isfinite(r->vd.d.rel_halfwidth_pct)))
				return sb_fail(err, errlen, SB_EXIT_USAGE, "%s against %s: %s at %ld tasks: the "
					    "change is not a finite number (values out of range)",
					    c->pairs[i].x->dir, c->runs[0].dir, r->b->mode, r->b->tasks);
		}
	return 0;
}

/* One side's sweeps: the same testcase, complete, and one machine, unless --force. */
static int check_side(const struct ctx *c, int from, int to, char *err, size_t errlen)
{
	const struct sb_run *f = &c->runs[from];
	char diff[192];

	for (int i = from; i < to && !c->o->force; i++) {
		const struct sb_run *r = &c->runs[i];

		if (strcmp(r->status, "complete") != 0)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: the run's status is %s, not complete; "
				    "--force compares it anyway", r->dir, r->status);
		if (strcmp(r->test, f->test) != 0)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "--vs: one side mixes testcases: %s is %s, %s is %s",
				    f->dir, f->test, r->dir, r->test);
		machine_diff(f, r, diff, sizeof(diff));
		if (diff[0])
			return sb_fail(err, errlen, SB_EXIT_USAGE, "--vs: %s and %s, one side, were measured on "
				    "different machines: %s differ; --force pools them anyway",
				    f->dir, r->dir, diff);
	}
	return 0;
}

/* Runs from..to-1 pooled into runs[from], named by their shared label or "FIRST+N". */
static int pool_side(struct ctx *c, int from, int to, char *err, size_t errlen)
{
	struct sb_run *f = &c->runs[from];
	int same = 1;
	char *name, *dir;

	for (int i = from + 1; i < to; i++) {
		if (sb_run_pool(f, &c->runs[i]) != 0)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		same &= strcmp(c->runs[i].name, f->name) == 0;
		/* the side is as complete as its worst sweep (only with --force) */
		if (strcmp(c->runs[i].status, "complete") != 0)
			f->status = "incomplete";	/* runs[i]'s meta is freed below */
	}
	if (to - from == 1)
		return 0;
	if (same ? asprintf(&name, "%s", f->name) < 0 : asprintf(&name, "%s+%d", f->name, to - from - 1) < 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (asprintf(&dir, "%s and %d more", f->dir, to - from - 1) < 0) {
		free(name);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	free(f->name);
	free(f->dir);
	f->name = name;
	f->dir = dir;
	return 0;
}

/* --vs: runs[0..k-1] become base, runs[k..] new, each one pooled run. */
static int pool_sides(struct ctx *c, int k, char *err, size_t errlen)
{
	int rc = check_across(c, k, err, errlen);

	if (rc == 0)
		rc = check_side(c, 0, k, err, errlen);
	if (rc == 0)
		rc = check_side(c, k, c->nruns, err, errlen);
	if (rc == 0)
		rc = check_twice(c, 0, k, err, errlen);
	if (rc == 0)
		rc = check_twice(c, k, c->nruns, err, errlen);
	if (rc == 0)
		rc = pool_side(c, 0, k, err, errlen);
	if (rc == 0)
		rc = pool_side(c, k, c->nruns, err, errlen);
	if (rc != 0)
		return rc;
	for (int i = 1; i < c->nruns; i++)
		if (i != k)
			sb_run_free(&c->runs[i]);
	if (k != 1) {
		c->runs[1] = c->runs[k];
		memset(&c->runs[k], 0, sizeof(c->runs[k]));
	}
	c->nruns = 2;
	return 0;
}

/* The points a has and b lacks: the first 12 into only[], how many into *n. */
static void only_in(const struct sb_run *a, const struct sb_run *b, const struct sb_point **only, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < a->npts; i++)
		if (sb_run_find(b, a->pts[i].mode, a->pts[i].tasks) == NULL) {
			if (*n < 12)
				only[*n] = &a->pts[i];
			++*n;
		}
}

/* Each NEW against BASE (runs 1..n-1 against run 0): rows, curves, the machine and system notes. */
static int compare_pairs(struct ctx *c, int n, char *err, size_t errlen)
{
	for (int i = 1; i < n; i++) {
		struct pair *pr = &c->pairs[i - 1];

		pr->base = &c->runs[0];
		pr->x = &c->runs[i];
		pr->rows = calloc(c->runs[0].npts + 1, sizeof(*pr->rows));
		if (pr->rows == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		compare_pair(pr, c->o);
		if (sb_cmp_curve_tests(pr, c->o) != 0)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		sb_cmp_drift_pair(c, pr);
		only_in(pr->base, pr->x, pr->only[0], &pr->nonly[0]);
		only_in(pr->x, pr->base, pr->only[1], &pr->nonly[1]);
		machine_diff(pr->base, pr->x, pr->machine, sizeof(pr->machine));
		system_diff(pr->base, pr->x, pr->system, sizeof(pr->system));
		sb_cmp_reference_note(c, pr, pr->reference, sizeof(pr->reference));
		sb_cmp_bimodal_note(c, pr, pr->bimodal, sizeof(pr->bimodal));
		c->correlated |= pr->correlated;
	}
	return 0;
}

/*
 * What the report needs beyond the rows and the gate: --point's block, or
 * each run's peaks (text, markdown), the drift's Note; then the exit code.
 */
static int finish_model(struct ctx *c, char *err, size_t errlen)
{
	const struct sb_cmp_opts *o = c->o;
	int rc = 0;

	if (o->point != NULL)
		rc = sb_cmp_point(c, err, errlen);
	else if ((o->format == SB_CMP_TEXT || o->format == SB_CMP_MARKDOWN) && sb_cmp_curves(c) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (rc == 0 && o->point == NULL)
		sb_cmp_drift_words(c, c->drift_words, sizeof(c->drift_words));
	c->failing = sb_cmp_failing(c);
	return rc;
}

/* The whole model of the comparison of dirs[0..n-1] (o) into c: compute, before anything prints. 0, 2 or 3. */
static int build(struct ctx *c, int n, char **dirs, char *err, size_t errlen)
{
	const struct sb_cmp_opts *o = c->o;
	int rc = 0;

	c->runs = calloc((size_t)n, sizeof(*c->runs));
	c->pairs = calloc((size_t)n, sizeof(*c->pairs));
	if (c->runs == NULL || c->pairs == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (; c->nruns < n; c->nruns++) {
		rc = sb_run_load(dirs[c->nruns], &c->runs[c->nruns], err, errlen);
		if (rc != 0) {
			sb_run_free(&c->runs[c->nruns]);
			return rc;
		}
	}
	rc = check_shape(c, err, errlen);
	if (rc == 0 && o->pool == 0)
		rc = check_across(c, 1, err, errlen);
	if (rc == 0)
		rc = sb_cmp_drift_open(c, n, dirs, err, errlen);
	if (rc == 0 && o->pool > 0)
		rc = pool_sides(c, o->pool, err, errlen);
	if (rc != 0)
		return rc;
	unique_names(c);
	rc = compare_pairs(c, c->nruns, err, errlen);
	if (rc == 0 && sb_cmp_gate(c) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (rc == 0)
		rc = check_runs(c, err, errlen);
	if (rc == 0)
		rc = check_finite(c, err, errlen);
	return rc == 0 ? finish_model(c, err, errlen) : rc;
}

int sb_compare_runs(int n, char **dirs, const struct sb_cmp_opts *o, FILE *out,
		    char *err, size_t errlen)
{
	struct ctx c = { .o = o, .out = out, .nruns = 0 };
	int rc = build(&c, n, dirs, err, errlen);

	if (rc == 0) {
		sb_cmp_report(&c);
		rc = c.failing;
	}
	for (int i = 0; i < n - 1 && c.pairs != NULL; i++) {
		free(c.pairs[i].rows);
		free(c.pairs[i].curves);
	}
	for (int i = 0; i < c.nruns; i++)
		sb_run_free(&c.runs[i]);
	free(c.runs);
	free(c.pairs);
	sb_cmp_drift_free(c.drift);
	sb_cmp_curves_free(&c);
	sb_cmp_point_free(&c);
	return rc;
}
