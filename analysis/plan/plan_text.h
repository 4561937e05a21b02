/* sb-plan's words for runtest.sh: --dry-run's texts and the ETA of the progress line. */
#ifndef SCALEBENCH_PLAN_TEXT_H
#define SCALEBENCH_PLAN_TEXT_H

#include <stddef.h>

#include "plan.h"

/* s seconds as "42s", "5m" or "1h05m" into buf. */
void sb_plan_fmt_eta(char *buf, size_t len, long s);

/* text_runs=, text_order=, text_estimated= and auto's text_seeds= lines on stdout. */
void sb_plan_print_texts(const struct sb_plan *plan, const struct sb_plan_estimate *e);

#endif
