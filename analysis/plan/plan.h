/* The sweep planner: the counts a sweep measures (--points auto refines them), each round's runs, when a point is done, the plan and the ETA. */
#ifndef SCALEBENCH_PLAN_H
#define SCALEBENCH_PLAN_H

#include <stddef.h>

#include "format/points.h"
#include "io/results.h"

enum sb_points_mode { SB_POINTS_AUTO, SB_POINTS_ALL, SB_POINTS_TOPOLOGY, SB_POINTS_LIST };
extern const char *const sb_points_mode_name[];	/* "auto", "all", "topology", "list" */

/* Why a count is measured: points.csv's origin column (SB_ORIGIN_SEED, _ADDED, _GIVEN: format/points.h). */
#define SB_ORIGIN_X_ENUM(id, name) SB_ORIGIN_##id,
enum sb_origin { SB_POINTS_ORIGINS(SB_ORIGIN_X_ENUM) };
#undef SB_ORIGIN_X_ENUM
extern const char *const sb_origin_name[];	/* "seed", "added", "given" */

/* Auto measures every count of a range this short: the seeds would be most of it. */
#define SB_PLAN_AUTO_ALL 8
#define SB_PLAN_MAX_POINTS 24	/* --max-points: auto's counts a mode at most (seeds always run) */
#define SB_PLAN_MAX_COUNTS 8192	/* a range's counts at most (NR_CPUS): --points all, --step */
#define SB_PLAN_REASON 80

/* The sweep's options and the topology facts (runtest.sh writes them; sb-plan reads them). */
struct sb_plan_conf {
	int modes[SB_NMODES];		/* this testcase's modes, in run order */
	size_t nmodes;
	int modes_total;		/* modes summed over the sweep's testcases (the plan's totals) */
	enum sb_points_mode points_mode;
	unsigned long *given;		/* list: the counts as given (sorted, unique) */
	size_t ngiven;
	unsigned long min, max, step;	/* auto and all: the range (step 1 unless --step) */
	/* topology, in the sweep's unit (cores, or PUs with --smt); 0 when unknown */
	unsigned long per_llc, per_numa, per_package, numa, packages, units;
	unsigned long *topo;		/* sb-topology's topology_points (or _pus) */
	size_t ntopo;
	unsigned long *extra;		/* auto: more seeds (--profile's counts) */
	size_t nextra;
	int smt;			/* the unit is PUs */
	unsigned min_runs, max_runs;
	int adaptive;			/* 0: exactly min_runs runs a point */
	long precision;			/* the 95% interval's target half-width, 1/1000 % (0: none) */
	long point_budget_ms;		/* 0: none */
	long budget_ms;			/* the whole sweep's --budget, 0: the default (SB_PLAN_POINT_MS a point) */
	long seed;			/* --seed; -1: alternate the direction */
	long run_ms;			/* one run's estimate, start and stop included (auto: the warmup's cap) */
	long run_min_ms;		/* the same at the shortest warmup (auto: its window), 0: run_ms */
	unsigned max_points;		/* auto: counts a mode at most */
};

/* One planned (mode, task count) and its state. */
struct sb_plan_point {
	int mode;
	unsigned long tasks;
	enum sb_origin origin;
	char reason[SB_PLAN_REASON];	/* no comma, no newline */
	unsigned runs;			/* runs done */
	long ms;			/* their wall time */
	int done, met;			/* no more runs; met: it reached --precision */
	/* the values (sb_plan_set_values): run means' count, mean, variance (n - 1) */
	size_t n;
	double mean, var;
};

struct sb_plan {
	struct sb_plan_conf c;
	struct sb_plan_point *p;	/* sorted by tasks, then mode in run order */
	size_t np, cap;
	unsigned long round;		/* the current round, 1 from the first */
	size_t *queue;			/* the current round's indexes still to run */
	size_t nq;
	long elapsed_ms;		/* the testcase's time so far (runtest.sh's clock) */
	long start_ms;			/* when the testcase started (sb-plan init --now; -1: not given) */
	long allow_ms;			/* its share of --budget, 0: none */
	int refined[SB_NMODES];		/* auto: nothing left to add in this mode */
};

/*
 * The default budget in ms a point, times the points it counts: plans' totals. 4.375 s is three
 * quiet default runs (docs/RUNTEST.md), and puts --points auto on 96 cores (at most 48 points)
 * within 3.5 min, a tenth of will-it-scale's 192 counts of 11 s.
 */
#define SB_PLAN_POINT_MS 4375L

/*
 * The counts of conf before any run, into plan (with origin and reason);
 * the caller has zeroed plan and filled plan->c. Returns 0, 2 with a
 * message in err (an empty plan, a range of more than SB_PLAN_MAX_COUNTS
 * counts), 3 when memory runs out.
 */
int sb_plan_start(struct sb_plan *plan, char *err, size_t errlen);
void sb_plan_free(struct sb_plan *plan);

/* The point of (mode, tasks), or -1. */
long sb_plan_find(const struct sb_plan *plan, int mode, unsigned long tasks);

/* A point's run means (values from the run directory, or a simulation's). */
void sb_plan_set_values(struct sb_plan_point *pt, const double *means, size_t n);

/*
 * After a run of point i that took ms (its values already set): count it
 * and decide whether the point is done (--min-runs, --precision, --max-runs,
 * --point-budget).
 */
void sb_plan_record(struct sb_plan *plan, size_t i, long ms);

/*
 * The next run: its point's index in *i (it will be run plan->p[*i].runs + 1),
 * or 1 when the sweep is done. A new round starts when the last one is
 * over: --points auto first adds the counts its modes need (all of a mode's
 * points done), then the points not done run in round order. A point whose
 * next run would overrun allow_ms (beyond its --min-runs) is done instead.
 * Returns 0 (a run), 1 (done), 3 when memory runs out.
 */
int sb_plan_next(struct sb_plan *plan, size_t *i);

/*
 * Round `round`'s order of idx[0..n-1], in place: odd rounds as given, even
 * rounds backwards; with seed >= 0 a Fisher-Yates shuffle driven by
 * x <- (1103515245 x + 12345) mod 2^31 from x = seed * 1000 + round,
 * j = (x >> 16) mod (i + 1).
 */
void sb_plan_order(size_t *idx, size_t n, unsigned long round, long seed);

/* The half-width of point's 95% interval in % of its mean, as --values prints it (2 decimals); NAN below 2 runs. */
double sb_plan_half_pct(const struct sb_plan_point *pt);

/*
 * The ETA of the sweep, in ms: every remaining --min-runs run, then runs up
 * to --max-runs (and the counts auto may still add) within budget_left_ms
 * (negative: no budget), at per_run_ms a run; later_points: the points of
 * testcases still to come.
 */
long sb_plan_eta_ms(const struct sb_plan *plan, long per_run_ms, long later_points, long budget_left_ms);

/* The points not done yet / done. */
size_t sb_plan_done_count(const struct sb_plan *plan);

/* The plan's figures for --dry-run and the estimates: over conf.modes_total modes. */
struct sb_plan_estimate {
	size_t npoints;			/* counts a mode at the start */
	size_t budget_points;		/* points the default budget counts (auto: its ceiling) */
	unsigned long runs_min, runs_max;
	long budget_ms, min_ms, max_ms;	/* budget_ms 0 when not adaptive */
};
void sb_plan_estimate(const struct sb_plan *plan, struct sb_plan_estimate *e);

/* The points of mode in the plan (plan_eta.c counts a mode's share with it). */
size_t sb_plan_mode_count(const struct sb_plan *plan, int mode);

#endif
