/* When a run's warmup ends: a fixed count of samples, or once the rate has settled (--warmup auto). */
#ifndef SCALEBENCH_WARMUP_H
#define SCALEBENCH_WARMUP_H

#include "options.h"

/* The settling rule looks at this many last warmup samples... */
#define SB_WARMUP_WINDOW 3
/* ...and ends the warmup when each is within this share of their mean. */
#define SB_WARMUP_TOLERANCE 0.02
/* --warmup auto judges on samples this short (or --period-ms, when shorter): a steady
 * testcase leaves its warmup after the window, 0.15 s, instead of 3 measured periods
 * (docs/RUNTEST.md "What a run costs": 100 ms left the cost of a point just short of half). */
#define SB_WARMUP_PERIOD_MS 50

struct sb_warmup {
	int automatic;
	unsigned long min, max;		/* warmup samples: at least, at most (fixed: min == max) */
	unsigned long period_ms;	/* a warmup sample's period (fixed: --period-ms) */
	unsigned long done;		/* warmup samples so far */
	double last[SB_WARMUP_WINDOW];	/* the rates of the last ones, a ring */
};

void sb_warmup_init(struct sb_warmup *w, const struct sb_options *o);
/* Is the run still warming up before its next sample? */
int sb_warmup_on(const struct sb_warmup *w);
/* One more warmup sample, with its rate in ops/s. */
void sb_warmup_add(struct sb_warmup *w, double rate);

#endif
