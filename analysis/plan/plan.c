/* The sweep planner: the counts a sweep measures (--points auto refines them), each round's runs, when a point is done, the plan and the ETA. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg/msg.h"
#include "curve/peak.h"
#include "plan.h"
#include "stat/stats.h"

#define CONF 95.0

const char *const sb_points_mode_name[] = { "auto", "all", "topology", "list" };
#define ORIGIN_NAME(id, name) name,
const char *const sb_origin_name[] = { SB_POINTS_ORIGINS(ORIGIN_NAME) };
#undef ORIGIN_NAME

static int mode_rank(const struct sb_plan_conf *c, int mode)
{
	for (size_t i = 0; i < c->nmodes; i++)
		if (c->modes[i] == mode)
			return (int)i;
	return (int)c->nmodes;
}

static int before(const struct sb_plan *plan, const struct sb_plan_point *a, int mode,
		  unsigned long tasks)
{
	if (a->tasks != tasks)
		return a->tasks < tasks;
	return mode_rank(&plan->c, a->mode) < mode_rank(&plan->c, mode);
}

/* Insert (mode, tasks) in order; -1 when memory runs out, 0 when it is there already. */
static int add_point(struct sb_plan *plan, int mode, unsigned long tasks, enum sb_origin origin,
		     const char *reason)
{
	size_t at = 0;
	struct sb_plan_point *pt;

	if (sb_plan_find(plan, mode, tasks) >= 0)
		return 0;
	if (plan->np == plan->cap) {
		size_t cap = plan->cap ? plan->cap * 2 : 64;
		void *p = realloc(plan->p, cap * sizeof(*plan->p));

		if (!p)
			return -1;
		plan->p = p;
		plan->cap = cap;
	}
	while (at < plan->np && before(plan, &plan->p[at], mode, tasks))
		at++;
	memmove(&plan->p[at + 1], &plan->p[at], (plan->np - at) * sizeof(*plan->p));
	plan->np++;
	pt = &plan->p[at];
	memset(pt, 0, sizeof(*pt));
	pt->mode = mode;
	pt->tasks = tasks;
	pt->origin = origin;
	snprintf(pt->reason, sizeof(pt->reason), "%s", reason);
	return 1;
}

static int add_count(struct sb_plan *plan, unsigned long tasks, enum sb_origin origin,
		     const char *reason)
{
	for (size_t m = 0; m < plan->c.nmodes; m++)
		if (add_point(plan, plan->c.modes[m], tasks, origin, reason) < 0)
			return -1;
	return 0;
}

long sb_plan_find(const struct sb_plan *plan, int mode, unsigned long tasks)
{
	for (size_t i = 0; i < plan->np; i++)
		if (plan->p[i].mode == mode && plan->p[i].tasks == tasks)
			return (long)i;
	return -1;
}

/* What a topology count is: "NUMA node", "2 packages", "all cores" ... ("" when none). */
static void topo_label(const struct sb_plan_conf *c, unsigned long n, char *buf, size_t len)
{
	const char *unit = c->smt ? "PUs" : "cores";

	buf[0] = '\0';
	if (n == c->units)
		snprintf(buf, len, "all %s", unit);
	else if (c->per_package && n % c->per_package == 0 && n / c->per_package <= c->packages)
		snprintf(buf, len, n == c->per_package ? "package" : "%lu packages", n / c->per_package);
	else if (c->per_numa && n % c->per_numa == 0 && n / c->per_numa <= c->numa)
		snprintf(buf, len, n == c->per_numa ? "NUMA node" : "%lu NUMA nodes", n / c->per_numa);
	else if (n == c->per_llc)
		snprintf(buf, len, "last-level cache");
	else if (n == c->units * 3 / 4)
		snprintf(buf, len, "3/4 of the %s", unit);
}

/* The counts --profile names are seeds too (within the range): a profile needs its point measured. */
static int add_extra(struct sb_plan *plan)
{
	for (size_t i = 0; i < plan->c.nextra; i++)
		if (plan->c.extra[i] >= plan->c.min && plan->c.extra[i] <= plan->c.max &&
		    add_count(plan, plan->c.extra[i], SB_ORIGIN_SEED, "seed: --profile") < 0)
			return -1;
	return 0;
}

/*
 * --points auto's seeds: 1, 2, the topology points, the powers of two, the
 * largest (within --min-procs..--max-procs); a range of SB_PLAN_AUTO_ALL
 * counts or fewer is measured whole. The first reason a count gets is its own.
 */
static int seed_auto(struct sb_plan *plan)
{
	const struct sb_plan_conf *c = &plan->c;
	char label[64], reason[SB_PLAN_REASON];
	unsigned long n;

	if (c->max - c->min + 1 <= SB_PLAN_AUTO_ALL) {
		snprintf(reason, sizeof(reason), "seed: every count (%lu to %lu)", c->min, c->max);
		for (n = c->min; n <= c->max; n++)
			if (add_count(plan, n, SB_ORIGIN_SEED, reason) < 0)
				return -1;
		return add_extra(plan);
	}
	for (n = 1; n <= 2; n++)
		if (n >= c->min && n <= c->max) {
			snprintf(reason, sizeof(reason), "seed: %lu", n);
			if (add_count(plan, n, SB_ORIGIN_SEED, reason) < 0)
				return -1;
		}
	if (add_count(plan, c->min, SB_ORIGIN_SEED, "seed: smallest") < 0)
		return -1;
	for (size_t i = 0; i < c->ntopo; i++) {
		n = c->topo[i];
		if (n < c->min || n > c->max)
			continue;
		topo_label(c, n, label, sizeof(label));
		snprintf(reason, sizeof(reason), "seed: %s", label[0] ? label : "topology");
		if (add_count(plan, n, SB_ORIGIN_SEED, reason) < 0)
			return -1;
	}
	for (n = 1; n <= c->max && n != 0; n <<= 1)
		if (n >= c->min && add_count(plan, n, SB_ORIGIN_SEED, "seed: power of two") < 0)
			return -1;
	if (add_count(plan, c->max, SB_ORIGIN_SEED, "seed: largest") < 0)
		return -1;
	return add_extra(plan);
}

int sb_plan_start(struct sb_plan *plan, char *err, size_t errlen)
{
	struct sb_plan_conf *c = &plan->c;
	char reason[SB_PLAN_REASON], label[64];
	int rc = 0;

	plan->round = 0;
	plan->nq = 0;
	plan->allow_ms = -1;
	if (c->nmodes == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no mode to run");
	switch (c->points_mode) {
	case SB_POINTS_AUTO:
		if (c->min < 1 || c->max < c->min)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "--min-procs %lu is larger than --max-procs %lu",
				       c->min, c->max);
		rc = seed_auto(plan);
		break;
	case SB_POINTS_ALL: {
		unsigned long step = c->step ? c->step : 1, n;

		if (c->min < 1 || c->max < c->min)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "--min-procs %lu is larger than --max-procs %lu",
				       c->min, c->max);
		n = c->max / step - c->min / step + 1;
		if (n > SB_PLAN_MAX_COUNTS)
			return sb_fail(err, errlen, SB_EXIT_USAGE,
				       "--min-procs %lu to --max-procs %lu in steps of %lu is %lu points, more than %d: use a larger --step or --points",
				       c->min, c->max, step, n, SB_PLAN_MAX_COUNTS);
		if (step > 1)
			snprintf(reason, sizeof(reason), "--step %lu", step);
		else
			snprintf(reason, sizeof(reason), "every count");
		rc = add_count(plan, c->min, SB_ORIGIN_GIVEN, reason);
		for (n = (c->min / step + 1) * step; rc == 0 && n < c->max; n += step)
			rc = add_count(plan, n, SB_ORIGIN_GIVEN, reason);
		if (rc == 0 && c->max > c->min)
			rc = add_count(plan, c->max, SB_ORIGIN_GIVEN, reason);
		break;
	}
	case SB_POINTS_TOPOLOGY:
		for (size_t i = 0; rc == 0 && i < c->ntopo; i++) {
			topo_label(c, c->topo[i], label, sizeof(label));
			snprintf(reason, sizeof(reason), "topology: %s",
				 c->topo[i] == 1 ? "1" : label[0] ? label : "point");
			rc = add_count(plan, c->topo[i], SB_ORIGIN_GIVEN, reason);
		}
		break;
	case SB_POINTS_LIST:
		for (size_t i = 0; rc == 0 && i < c->ngiven; i++)
			rc = add_count(plan, c->given[i], SB_ORIGIN_GIVEN, "--points");
		break;
	}
	if (rc < 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (plan->np == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no task count to measure");
	return 0;
}

void sb_plan_free(struct sb_plan *plan)
{
	free(plan->p);
	free(plan->queue);
	plan->p = NULL;
	plan->queue = NULL;
	plan->np = plan->cap = plan->nq = 0;
}

void sb_plan_set_values(struct sb_plan_point *pt, const double *means, size_t n)
{
	struct sb_stats s;
	double var = 0;

	pt->n = 0;
	pt->mean = pt->var = NAN;
	if (n == 0 || sb_stats_compute_var(means, n, &s, &var, NULL) != 0)
		return;
	pt->n = n;
	pt->mean = s.mean;
	pt->var = var;
}

double sb_plan_half_pct(const struct sb_plan_point *pt)
{
	char buf[64];
	double t;

	if (!sb_runs_independent(pt->n) || !(pt->mean > 0))
		return NAN;
	t = sb_student_t(CONF, pt->n - 1);
	/* as sb-summary --values prints it: the stopping rule reads that figure */
	snprintf(buf, sizeof(buf), "%.2f", 100 * t * sqrt(pt->var / (double)pt->n) / pt->mean);
	return strtod(buf, NULL);
}

void sb_plan_record(struct sb_plan *plan, size_t i, long ms)
{
	const struct sb_plan_conf *c = &plan->c;
	struct sb_plan_point *pt = &plan->p[i];
	double half;

	pt->runs++;
	pt->ms += ms;
	if (pt->runs < c->min_runs)
		return;
	half = sb_plan_half_pct(pt);
	if (c->adaptive && c->precision > 0 && !isnan(half) && half <= (double)c->precision / 1000) {
		pt->done = pt->met = 1;
	} else if (pt->runs >= c->max_runs) {
		pt->done = 1;
	} else if (c->adaptive && c->point_budget_ms > 0 &&
		   pt->ms + pt->ms / (long)pt->runs > c->point_budget_ms) {
		pt->done = 1;	/* the next run would not fit in the point's budget */
	}
}

void sb_plan_order(size_t *idx, size_t n, unsigned long round, long seed)
{
	size_t i, j, tmp;

	if (n < 2)
		return;
	if (seed >= 0) {
		unsigned long long x = ((unsigned long long)seed * 1000 + round) % 2147483648ULL;

		for (i = n - 1; i > 0; i--) {
			x = (x * 1103515245ULL + 12345) % 2147483648ULL;
			j = (size_t)((x >> 16) % (i + 1));
			tmp = idx[i], idx[i] = idx[j], idx[j] = tmp;
		}
	} else if (round % 2 == 0) {
		for (i = 0, j = n - 1; i < j; i++, j--)
			tmp = idx[i], idx[i] = idx[j], idx[j] = tmp;
	}
}

/* ---- --points auto: the counts a mode still needs ---- */

struct cand {
	unsigned long tasks;
	double score;		/* peak brackets first, then the larger bends */
	char reason[SB_PLAN_REASON];
};

/* A point's 95% half-width, absolute; below 2 runs the --precision target stands in for it. */
static double half_abs(const struct sb_plan_conf *c, const struct sb_plan_point *pt)
{
	if (sb_runs_independent(pt->n))
		return sb_student_t(CONF, pt->n - 1) * sqrt(pt->var / (double)pt->n);
	return fabs(pt->mean) * (double)(c->precision > 0 ? c->precision : 2000) / 100000;
}

/*
 * How far b lies off the straight line from a to c, in units of the three
 * intervals combined (the line's value at b is a weighted mean of a and c):
 * above 1, no straight line through the intervals explains the three.
 */
static double bend(const struct sb_plan_conf *cf, const struct sb_plan_point *a,
		   const struct sb_plan_point *b, const struct sb_plan_point *c)
{
	double w2 = (double)(b->tasks - a->tasks) / (double)(c->tasks - a->tasks), w0 = 1 - w2;
	double dev = b->mean - (w0 * a->mean + w2 * c->mean);
	double ha = half_abs(cf, a), hb = half_abs(cf, b), hc = half_abs(cf, c);
	double h = sqrt(hb * hb + w0 * w0 * ha * ha + w2 * w2 * hc * hc);

	if (h > 0)
		return fabs(dev) / h;
	return dev != 0 ? INFINITY : 0;
}

/*
 * The relative 95% half-width a point's interval may have and still vouch
 * for a straight line: 3 times the larger of the --precision target (2% when
 * none) and the median of the mode's intervals. A 3-run interval wider than
 * that is a disturbed run far more often than noise (its spread exceeds 2.5
 * times the typical one with a chance of 0.2%); and a line it "explains"
 * because its interval is wide explains nothing (peak6 threads at 32 tasks,
 * +-33%, once let 16..64 go unmeasured).
 */
static double wide_limit(const struct sb_plan_conf *c, const struct sb_plan_point *const *pts, size_t n)
{
	double *h = malloc((n ? n : 1) * sizeof(*h)), med = 0, floor_pct;
	size_t k = 0;

	floor_pct = (double)(c->precision > 0 ? c->precision : 2000) / 1000;
	if (!h)
		return 3 * floor_pct;
	for (size_t i = 0; i < n; i++)
		if (sb_runs_independent(pts[i]->n) && pts[i]->mean > 0)
			h[k++] = 100 * half_abs(c, pts[i]) / pts[i]->mean;
	for (size_t i = 1; i < k; i++)	/* insertion sort: a mode has at most a few dozen points */
		for (size_t j = i; j > 0 && h[j - 1] > h[j]; j--) {
			double t = h[j];

			h[j] = h[j - 1], h[j - 1] = t;
		}
	if (k)
		med = k % 2 ? h[k / 2] : (h[k / 2 - 1] + h[k / 2]) / 2;
	free(h);
	return 3 * (med > floor_pct ? med : floor_pct);
}

/* Mark in wide[] the points whose interval is wider than wide_limit: they vouch for no line. */
static void mark_wide(const struct sb_plan_conf *c, const struct sb_plan_point *const *pts, size_t n,
		      char *wide)
{
	double lim = wide_limit(c, pts, n);

	for (size_t i = 0; i < n; i++)
		wide[i] = sb_runs_independent(pts[i]->n) && pts[i]->mean > 0 &&
			  100 * half_abs(c, pts[i]) / pts[i]->mean > lim;
}

/*
 * The stretch pts[i]..pts[i + 1] continues the straight line of the stretch
 * before it or of the one after (within the intervals): the smaller bend of
 * the two; above 1 neither explains it. The lines are those of the points
 * that vouch (not wide): a stretch with a wide end is judged as part of the
 * stretch between the vouching points around it, so a wide point alone
 * cannot make a curve look straight. With only two points to judge by
 * there is nothing to compare with: 2 (look inside). A stretch with no
 * vouching point on one side (a wide first or last count) is judged on all
 * the points, as there is no better line to judge it by.
 */
static double stretch_bend(const struct sb_plan_conf *c, const struct sb_plan_point *const *pts,
			   size_t n, const char *wide, size_t i)
{
	double left = INFINITY, right = INFINITY;
	size_t lo = i, hi = i + 1, a, b;
	int vouch = 1;

	while (lo > 0 && wide[lo])
		lo--;
	while (hi + 1 < n && wide[hi])
		hi++;
	if (wide[lo] || wide[hi])
		vouch = 0;	/* no vouching point on one side: every point judges */
	else if (lo != i || hi != i + 1) {
		/* the vouching neighbours of lo and hi */
		for (a = lo; a > 0;)
			if (!wide[--a])
				break;
		for (b = hi; b + 1 < n;)
			if (!wide[++b])
				break;
		if (a != lo && !wide[a])
			left = bend(c, pts[a], pts[lo], pts[hi]);
		if (b != hi && !wide[b])
			right = bend(c, pts[lo], pts[hi], pts[b]);
		if ((a == lo || wide[a]) && (b == hi || wide[b]))
			return 2.0;
		return left < right ? left : right;
	}
	if (n == 2)
		return 2.0;
	if (i > 0) {
		for (a = i; a > 0;)
			if (!wide[--a] || !vouch)
				break;
		if (a < i && (!wide[a] || !vouch))
			left = bend(c, pts[a], pts[i], pts[i + 1]);
	}
	if (i + 2 < n) {
		for (b = i + 1; b + 1 < n;)
			if (!wide[++b] || !vouch)
				break;
		if (b > i + 1 && (!wide[b] || !vouch))
			right = bend(c, pts[i], pts[i + 1], pts[b]);
	}
	if (vouch && isinf(left) && isinf(right))
		return 2.0;	/* the stretch's neighbours are all wide: nothing to compare with */
	return left < right ? left : right;
}

static int straight(const struct sb_plan_conf *c, const struct sb_plan_point *const *pts, size_t n,
		    const char *wide, size_t i)
{
	return stretch_bend(c, pts, n, wide, i) <= 1;
}

static int add_cand(struct cand **cv, size_t *n, size_t *cap, unsigned long tasks, double score,
		    const char *reason)
{
	for (size_t i = 0; i < *n; i++)
		if ((*cv)[i].tasks == tasks) {
			if (score > (*cv)[i].score) {
				(*cv)[i].score = score;
				snprintf((*cv)[i].reason, sizeof((*cv)[i].reason), "%s", reason);
			}
			return 0;
		}
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		void *p = realloc(*cv, nc * sizeof(**cv));

		if (!p)
			return -1;
		*cv = p;
		*cap = nc;
	}
	(*cv)[*n].tasks = tasks;
	(*cv)[*n].score = score;
	snprintf((*cv)[*n].reason, sizeof((*cv)[*n].reason), "%s", reason);
	(*n)++;
	return 0;
}

static int cmp_cand(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return (a->tasks > b->tasks) - (a->tasks < b->tasks);
}

/*
 * The counts mode m needs, judged on its measured points pts[0..n-1] (all
 * done, tasks rising): (a) the peak's neighbours until they are 1 task away
 * or indistinguishable from it; (b) the midpoint of a stretch longer than 1
 * that neither neighbouring straight line explains (a knee, a slope change,
 * a collapse), the lines drawn through the points whose interval is not
 * wide (mark_wide). Returns the number of candidates in *out, -1 without memory.
 */
static long needs(const struct sb_plan_conf *c, const struct sb_plan_point *const *pts, size_t n,
		  struct cand **out)
{
	struct sb_peak_point *pp;
	struct sb_peak pk;
	struct cand *cv = NULL;
	size_t ncv = 0, cap = 0;
	char reason[SB_PLAN_REASON], *wide;

	*out = NULL;
	if (n == 0)
		return 0;
	pp = calloc(n, sizeof(*pp));
	wide = calloc(n, 1);
	if (!pp || !wide) {
		free(pp);
		free(wide);
		return -1;
	}
	mark_wide(c, pts, n, wide);
	for (size_t i = 0; i < n; i++)
		pp[i] = (struct sb_peak_point){ pts[i]->tasks, pts[i]->n, pts[i]->mean, pts[i]->var };
	if (sb_peak_find(pp, n, CONF, &pk) == 0) {
		size_t b = pk.best;

		/*
		 * A neighbour further than 1 task, distinguishable from the best, and
		 * the stretch between them not a straight line (whose highest point
		 * would be the best itself): the peak may lie inside.
		 */
		if (b > 0 && pts[b]->tasks - pts[b - 1]->tasks > 1 && !sb_peak_same(&pp[b], &pp[b - 1], CONF) &&
		    !straight(c, pts, n, wide, b - 1)) {
			snprintf(reason, sizeof(reason), "peak bracket (%lu to %lu)", pts[b - 1]->tasks, pts[b]->tasks);
			if (add_cand(&cv, &ncv, &cap, (pts[b - 1]->tasks + pts[b]->tasks) / 2, INFINITY, reason) < 0)
				goto oom;
		}
		if (b + 1 < n && pts[b + 1]->tasks - pts[b]->tasks > 1 && !sb_peak_same(&pp[b], &pp[b + 1], CONF) &&
		    !straight(c, pts, n, wide, b)) {
			snprintf(reason, sizeof(reason), "peak bracket (%lu to %lu)", pts[b]->tasks, pts[b + 1]->tasks);
			if (add_cand(&cv, &ncv, &cap, (pts[b]->tasks + pts[b + 1]->tasks) / 2, INFINITY, reason) < 0)
				goto oom;
		}
	}
	for (size_t i = 0; i + 1 < n; i++) {
		double score;

		if (pts[i + 1]->tasks - pts[i]->tasks < 2)
			continue;
		score = stretch_bend(c, pts, n, wide, i);
		if (score <= 1)
			continue;
		if (wide[i] || wide[i + 1])
			snprintf(reason, sizeof(reason), "wide interval at %lu (%lu to %lu)",
				 pts[wide[i] ? i : i + 1]->tasks, pts[i]->tasks, pts[i + 1]->tasks);
		else
			snprintf(reason, sizeof(reason), "slope change between %lu and %lu", pts[i]->tasks,
				 pts[i + 1]->tasks);
		if (add_cand(&cv, &ncv, &cap, (pts[i]->tasks + pts[i + 1]->tasks) / 2,
			     isinf(score) ? 1e300 : score, reason) < 0)
			goto oom;
	}
	free(pp);
	free(wide);
	if (ncv)
		qsort(cv, ncv, sizeof(*cv), cmp_cand);
	*out = cv;
	return (long)ncv;
oom:
	free(pp);
	free(wide);
	free(cv);
	return -1;
}

/* The mean time of a run so far (the estimate before any). */
static long per_run(const struct sb_plan *plan)
{
	long ms = 0, runs = 0;

	for (size_t i = 0; i < plan->np; i++) {
		ms += plan->p[i].ms;
		runs += plan->p[i].runs;
	}
	return runs ? ms / runs : plan->c.run_ms;
}

size_t sb_plan_mode_count(const struct sb_plan *plan, int mode)
{
	size_t k = 0;

	for (size_t i = 0; i < plan->np; i++)
		k += plan->p[i].mode == mode;
	return k;
}

/* --points auto: a mode whose points are all done gets the counts it needs -> -1 without memory. */
static int refine(struct sb_plan *plan)
{
	const struct sb_plan_conf *c = &plan->c;

	for (size_t mi = 0; mi < c->nmodes; mi++) {
		int m = c->modes[mi], pending = 0;
		const struct sb_plan_point **pts;
		struct cand *cv;
		size_t n = 0, have, room;
		long k;

		/* one run a point (--repeat 1; several --kernel's boots): no interval to judge a curve by */
		if (c->max_runs < SB_INDEPENDENT_RUNS)
			plan->refined[m] = 1;
		if (plan->refined[m])
			continue;
		for (size_t i = 0; i < plan->np; i++)
			if (plan->p[i].mode == m && !plan->p[i].done)
				pending = 1;
		if (pending)
			continue;	/* a count is judged once its interval is what it will be */
		pts = calloc(plan->np ? plan->np : 1, sizeof(*pts));
		if (!pts)
			return -1;
		for (size_t i = 0; i < plan->np; i++)
			if (plan->p[i].mode == m && plan->p[i].n > 0)
				pts[n++] = &plan->p[i];
		k = needs(c, pts, n, &cv);
		free(pts);
		if (k < 0)
			return -1;
		have = sb_plan_mode_count(plan, m);
		room = c->max_points > have ? c->max_points - have : 0;
		if (plan->allow_ms >= 0) {	/* what --budget still holds, at --min-runs each */
			long cost = (long)c->min_runs * per_run(plan), left = plan->allow_ms - plan->elapsed_ms;
			size_t fit = cost > 0 && left > 0 ? (size_t)(left / cost) : 0;

			if (fit < room)
				room = fit;
		}
		if (k == 0 || room == 0) {
			plan->refined[m] = 1;
			free(cv);
			continue;
		}
		for (size_t j = 0; j < (size_t)k && j < room; j++)
			if (add_point(plan, m, cv[j].tasks, SB_ORIGIN_ADDED, cv[j].reason) < 0) {
				free(cv);
				return -1;
			}
		free(cv);
	}
	return 0;
}

static int budget_over(const struct sb_plan *plan, size_t i)
{
	const struct sb_plan_point *pt = &plan->p[i];

	if (!plan->c.adaptive || plan->allow_ms < 0 || pt->runs < plan->c.min_runs || pt->runs == 0)
		return 0;
	return plan->elapsed_ms + pt->ms / (long)pt->runs > plan->allow_ms;
}

int sb_plan_next(struct sb_plan *plan, size_t *out)
{
	for (;;) {
		size_t n = 0;

		while (plan->nq > 0) {
			size_t i = plan->queue[0];

			memmove(plan->queue, plan->queue + 1, --plan->nq * sizeof(*plan->queue));
			if (i >= plan->np || plan->p[i].done)
				continue;
			if (budget_over(plan, i)) {
				plan->p[i].done = 1;
				continue;
			}
			*out = i;
			return 0;
		}
		if (plan->c.points_mode == SB_POINTS_AUTO && refine(plan) < 0)
			return SB_EXIT_ENV;
		free(plan->queue);
		plan->queue = malloc((plan->np ? plan->np : 1) * sizeof(*plan->queue));
		if (!plan->queue)
			return SB_EXIT_ENV;
		for (size_t i = 0; i < plan->np; i++)
			if (!plan->p[i].done)
				plan->queue[n++] = i;
		if (n == 0)
			return 1;
		plan->round++;
		sb_plan_order(plan->queue, n, plan->round, plan->c.seed);
		plan->nq = n;
	}
}
