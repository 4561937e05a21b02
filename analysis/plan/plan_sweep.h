/* The sweep's clock and budget between sb-plan calls: the time runs took, the budget left, each testcase's share. */
#ifndef SCALEBENCH_PLAN_SWEEP_H
#define SCALEBENCH_PLAN_SWEEP_H

#include <stddef.h>

/* The sweep file (key=value lines, an end line last): sb-plan plan --sweep makes it, init and next keep it. */
struct sb_plan_sweep {
	long budget_ms;			/* the sweep's budget; -1: none (not adaptive) */
	long budget_points;		/* points a mode counts in the budget */
	long later;			/* budget points of the testcases not started yet */
	long elapsed_ms;		/* the time the sweep's runs took, so far */
	long runs;			/* the runs so far */
	long run_ms;			/* one run's estimate, before any has run */
};

/* Read or write FILE; 0, 2 (bad or cut short, message in err) or 3. */
int sb_plan_sweep_read(const char *path, struct sb_plan_sweep *s, char *err, size_t errlen);
int sb_plan_sweep_write(const char *path, const struct sb_plan_sweep *s, char *err, size_t errlen);

/* A time as runtest.sh gives it, seconds since the epoch with up to 6 decimals ($EPOCHREALTIME,
 * or `date +%s`): milliseconds; -1 when s is not one. */
long sb_plan_time_ms(const char *s);

/* A testcase of nmodes modes starts: its share of what is left of the budget (-1: no budget);
 * its points leave `later`. */
long sb_plan_sweep_start(struct sb_plan_sweep *s, size_t nmodes);

/* A run that took ms: counted. */
void sb_plan_sweep_ran(struct sb_plan_sweep *s, long ms);

/* The average run so far (run_ms before any), and the budget left (-1: no budget). */
long sb_plan_sweep_per_run(const struct sb_plan_sweep *s);
long sb_plan_sweep_left(const struct sb_plan_sweep *s);

#endif
