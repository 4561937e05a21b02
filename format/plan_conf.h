/* plan.conf's keys, declared once: the sweep writes them (sweep/plan.sh), sb-plan reads them and refuses any other. */
#ifndef SCALEBENCH_FORMAT_PLAN_CONF_H
#define SCALEBENCH_FORMAT_PLAN_CONF_H

/*
 * X(key, kind, empty, dflt, member): plan.conf's keys (key=value lines, the
 * sweep's options and topology facts; one sweep writes the file and reads it,
 * so a key not here is an error). kind: how the value is read and where it goes
 * (struct sb_plan_conf's member, analysis/plan/plan.h):
 *   MODES        a comma-separated list of modes
 *   POINTS_MODE  auto, all, topology or list
 *   LIST         comma-separated whole numbers into member and n<member>
 *   ULONG, UINT, INT   a whole number
 *   LONG         a number
 *   SHAPE        a number of one run's shape (its estimate), member its index
 * empty: 1 when an empty value means dflt. A key absent keeps the planner's default.
 * Adding a key: its row here, sweep/plan.sh's plan_conf writing it, its use.
 */
#define SB_PLAN_CONF_KEYS(X) \
	X("modes",		MODES,		0, 0,	modes) \
	X("modes_total",	INT,		0, 0,	modes_total) \
	X("points_mode",	POINTS_MODE,	0, 0,	points_mode) \
	X("points",		LIST,		0, 0,	given) \
	X("extra",		LIST,		0, 0,	extra) \
	X("topology_points",	LIST,		0, 0,	topo) \
	X("min",		ULONG,		0, 0,	min) \
	X("max",		ULONG,		0, 0,	max) \
	X("step",		ULONG,		0, 0,	step) \
	X("per_llc",		ULONG,		0, 0,	per_llc) \
	X("per_numa",		ULONG,		0, 0,	per_numa) \
	X("per_package",	ULONG,		0, 0,	per_package) \
	X("numa",		ULONG,		0, 0,	numa) \
	X("packages",		ULONG,		0, 0,	packages) \
	X("units",		ULONG,		0, 0,	units) \
	X("smt",		INT,		0, 0,	smt) \
	X("min_runs",		UINT,		0, 0,	min_runs) \
	X("max_runs",		UINT,		0, 0,	max_runs) \
	X("adaptive",		INT,		0, 0,	adaptive) \
	X("precision",		LONG,		1, 0,	precision) \
	X("point_budget_ms",	LONG,		1, 0,	point_budget_ms) \
	X("budget_ms",		LONG,		1, 0,	budget_ms) \
	X("seed",		LONG,		1, -1,	seed) \
	X("run_ms",		LONG,		1, 0,	run_ms) \
	X("max_points",		UINT,		1, SB_PLAN_MAX_POINTS, max_points) \
	X("warmup_samples",	SHAPE,		1, -1,	SB_PLAN_SHAPE_WARMUP_SAMPLES) \
	X("samples",		SHAPE,		1, -1,	SB_PLAN_SHAPE_SAMPLES) \
	X("period_ms",		SHAPE,		1, -1,	SB_PLAN_SHAPE_PERIOD_MS) \
	X("warmup_max_ms",	SHAPE,		1, -1,	SB_PLAN_SHAPE_WARMUP_MAX_MS) \
	X("overhead_ms",	SHAPE,		1, -1,	SB_PLAN_SHAPE_OVERHEAD_MS) \
	X("warmup_min_ms",	SHAPE,		1, -1,	SB_PLAN_SHAPE_WARMUP_MIN_MS)

/* The shape keys' indexes (SHAPE's member) */
enum { SB_PLAN_SHAPE_WARMUP_SAMPLES, SB_PLAN_SHAPE_SAMPLES, SB_PLAN_SHAPE_PERIOD_MS, SB_PLAN_SHAPE_WARMUP_MAX_MS,
       SB_PLAN_SHAPE_OVERHEAD_MS, SB_PLAN_SHAPE_WARMUP_MIN_MS, SB_PLAN_NSHAPE };

#endif
