/* The sweep's progress and time: points done, the ETA, and the plan's estimate (--dry-run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

size_t sb_plan_done_count(const struct sb_plan *plan)
{
	size_t k = 0;

	for (size_t i = 0; i < plan->np; i++)
		k += plan->p[i].done != 0;
	return k;
}

long sb_plan_eta_ms(const struct sb_plan *plan, long per_run_ms, long later_points, long budget_left_ms)
{
	const struct sb_plan_conf *c = &plan->c;
	long must = later_points * (long)c->min_runs, most = later_points * (long)c->max_runs, left, est;

	for (size_t i = 0; i < plan->np; i++) {
		const struct sb_plan_point *pt = &plan->p[i];

		if (pt->done)
			continue;
		if (pt->runs < c->min_runs)
			must += (long)(c->min_runs - pt->runs);
		if (pt->runs < c->max_runs)
			most += (long)(c->max_runs - pt->runs);
	}
	if (c->points_mode == SB_POINTS_AUTO)	/* the counts auto may still add */
		for (size_t mi = 0; mi < c->nmodes; mi++) {
			size_t have = sb_plan_mode_count(plan, c->modes[mi]);

			if (!plan->refined[c->modes[mi]] && c->max_points > have)
				most += (long)(c->max_points - have) * (long)c->max_runs;
		}
	left = must * per_run_ms;
	est = most * per_run_ms;
	if (c->adaptive && budget_left_ms >= 0 && budget_left_ms < est)
		est = budget_left_ms;
	return est > left ? est : left;
}

void sb_plan_estimate(const struct sb_plan *plan, struct sb_plan_estimate *e)
{
	const struct sb_plan_conf *c = &plan->c;
	unsigned long modes = (unsigned long)(c->modes_total > 0 ? c->modes_total : (int)c->nmodes);
	size_t most;
	long per_point;

	e->npoints = c->nmodes ? plan->np / c->nmodes : 0;
	e->budget_points = e->npoints;
	if (c->points_mode == SB_POINTS_AUTO && c->max_points > e->npoints)
		e->budget_points = c->max_points;
	most = e->budget_points;
	e->runs_min = e->npoints * modes * c->min_runs;
	e->runs_max = most * modes * c->max_runs;
	e->min_ms = (long)e->runs_min * (c->run_min_ms > 0 ? c->run_min_ms : c->run_ms);
	e->max_ms = e->min_ms;
	e->budget_ms = 0;
	if (!c->adaptive) {
		e->runs_max = e->runs_min;
		return;
	}
	e->budget_ms = c->budget_ms > 0 ? c->budget_ms : SB_PLAN_POINT_MS * (long)(e->budget_points * modes);
	per_point = (long)c->max_runs * c->run_ms;
	if (c->point_budget_ms > 0 && per_point > c->point_budget_ms)
		per_point = c->point_budget_ms > (long)c->min_runs * c->run_ms ?
			c->point_budget_ms : (long)c->min_runs * c->run_ms;
	e->max_ms = per_point * (long)(most * modes);
	if (e->max_ms > e->budget_ms)
		e->max_ms = e->budget_ms > e->min_ms ? e->budget_ms : e->min_ms;
}
