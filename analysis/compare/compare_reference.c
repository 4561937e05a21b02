/* The reference loop's readings of two sweeps (meta's reference_start and reference_end): a note when the machine ran at another speed. */
#include <math.h>
#include <stdio.h>

#include "rate.h"
#include "compare_priv.h"

/* 100 x (larger / smaller - 1): how far apart two rates are, in %, whichever is larger. */
static double apart_pct(double a, double b)
{
	return 100.0 * (a > b ? a / b - 1 : b / a - 1);
}

/*
 * A sweep's level (the geometric mean of its readings), how much the loop
 * varied within the sweep (each reading's span, and its start against its
 * end) into *within, and its loop's version; 0 when it has no reading.
 */
static int side(const struct sb_run *r, double *level, double *within, long *loop)
{
	const struct sb_reference_reading *s = &r->ref_start, *e = &r->ref_end;

	if (s->ok && e->ok && s->loop == e->loop) {
		*level = sqrt(s->rate * e->rate);
		*within = fmax(fmax(s->span_pct, e->span_pct), apart_pct(s->rate, e->rate));
		*loop = s->loop;
		return 1;
	}
	if (s->ok || e->ok) {
		*level = s->ok ? s->rate : e->rate;
		*within = s->ok ? s->span_pct : e->span_pct;
		*loop = s->ok ? s->loop : e->loop;
		return 1;
	}
	return 0;
}

void sb_cmp_reference_note(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size)
{
	double lb, lx, wb, wx, apart, within;
	long loopb, loopx;
	char rb[32], rx[32];

	buf[0] = '\0';
	if (!side(b, &lb, &wb, &loopb) || !side(x, &lx, &wx, &loopx) || loopb != loopx)
		return;
	apart = apart_pct(lb, lx);
	within = fmax(wb, wx);
	if (!(apart > within))
		return;
	snprintf(buf, size, "the reference loop ran %.1f%% %s during %s's sweep than during %s's "
		 "(%s and %s iterations/s), more than it varied within either sweep (at most %.1f%%): the machine "
		 "itself ran at another speed, and part of a difference may be the machine's. Shown, "
		 "not corrected for (docs/COMPARE.md)", apart, lx > lb ? "faster" : "slower", x->name,
		 b->name, sb_rate_human(lx, rx, sizeof(rx)), sb_rate_human(lb, rb, sizeof(rb)), within);
}
