/* sb-sweepargs' own: what sweepargs_table.c reads from the arguments, for cmd_sweepargs.c's values. */
#ifndef SCALEBENCH_SWEEPARGS_H
#define SCALEBENCH_SWEEPARGS_H

#include <stddef.h>

#include "pairs.h"

#define NOTSET SB_PAIR_NONE

/* What the arguments say: NOTSET or NULL where they say nothing. */
struct args {
	long max, min, step, max_points, duration_ms, warmup_ms, period, repeat, precision;
	long min_runs, max_runs, point_budget_ms, budget_ms, seed, vm_cpus, warmup_min_ms, warmup_max_ms;
	const char *points, *mode, *placement, *label, *results, *profile, *commit;
	int help, list, smt, no_affinity, dry_run, quiet, plot, quick, profile_keep;
	int no_wait, no_lock, tune, no_history;
	int warmup_auto;	/* --warmup auto given (the default, said) */
};

extern struct args a;
extern size_t nkernels;		/* --kernel's images */
extern const char *me;		/* the command as the user runs it (--me) */

/* ARGV as runtest.sh's parse_args read it: in order, each error as met */
void parse(int argc, char **argv);
void check_tests(void);		/* a testcase given, each one's name */
void emit_lists(void);		/* the lists the arguments build, one pair an element */
void usage(void);		/* runtest.sh's --help */
/* A usage error: one line, runtest.sh's own, and exit 2. */
void bad(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
long count(const char *opt, const char *s, long lo);	/* a whole number >= lo */

#endif
