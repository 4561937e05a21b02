/* The reference loop's readings of the sweeps compared (meta's reference_start and reference_end): a note when the machine ran at another speed. */
#include <math.h>
#include <stdio.h>

#include "fmt/rate.h"
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

/* The note, when the levels lb and lx are further apart than within; "what" names the sweeps ("sweep", "3 sweeps"). */
static void note(const char *xname, const char *bname, const char *xwhat, const char *bwhat, double lb, double lx,
		 double within, const char *wwhat, char *buf, size_t size)
{
	double apart = apart_pct(lb, lx);
	char rb[32], rx[32];

	buf[0] = '\0';
	if (!(apart > within))
		return;
	snprintf(buf, size, "the reference loop ran %.1f%% %s during %s's %s than during %s's%s%s "
		 "(%s and %s iterations/s), more than it varied within either %s (at most %.1f%%): the machine "
		 "itself ran at another speed, and part of a difference may be the machine's. Shown, "
		 "not corrected for (docs/COMPARE.md)", apart, lx > lb ? "faster" : "slower", xname, xwhat,
		 bname, *bwhat ? " " : "", bwhat, sb_rate_human(lx, rx, sizeof(rx)), sb_rate_human(lb, rb, sizeof(rb)),
		 wwhat, within);
}

static void single_note(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size)
{
	double lb, lx, wb, wx;
	long loopb, loopx;

	buf[0] = '\0';
	if (!side(b, &lb, &wb, &loopb) || !side(x, &lx, &wx, &loopx) || loopb != loopx)
		return;
	note(x->name, b->name, "sweep", "", lb, lx, fmax(wb, wx), "sweep", buf, size);
}

/*
 * A pooled side: its level the geometric mean of its sweeps' levels, how much
 * the loop varied within it the most it varied within a sweep or between two
 * of them; 0 unless every sweep has a reading of one loop.
 */
static int pool_side(const struct sb_run *sw, int k, double *level, double *within, long *loop)
{
	double sum = 0, lo = INFINITY, hi = 0;

	*within = 0;
	for (int i = 0; i < k; i++) {
		double l, w;
		long lp;

		if (!side(&sw[i], &l, &w, &lp) || (i > 0 && lp != *loop))
			return 0;
		*loop = lp;
		sum += log(l);
		lo = fmin(lo, l);
		hi = fmax(hi, l);
		*within = fmax(*within, w);
	}
	if (k == 0)
		return 0;
	*within = fmax(*within, apart_pct(lo, hi));
	*level = exp(sum / k);
	return 1;
}

static void pool_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size)
{
	const struct sb_run *sb, *sx;
	int kb = sb_cmp_drift_sides(c, 0, &sb), kx = sb_cmp_drift_sides(c, 1, &sx);
	double lb, lx, wb, wx;
	long loopb = 0, loopx = 0;
	char wb_s[32], wx_s[32];

	buf[0] = '\0';
	if (!pool_side(sb, kb, &lb, &wb, &loopb) || !pool_side(sx, kx, &lx, &wx, &loopx) || loopb != loopx)
		return;
	snprintf(wx_s, sizeof(wx_s), "%d sweep%s", kx, kx == 1 ? "" : "s");
	snprintf(wb_s, sizeof(wb_s), "%d", kb);
	note(pr->x->name, pr->base->name, wx_s, wb_s, lb, lx, fmax(wb, wx), "side, in a sweep or between two", buf, size);
}

void sb_cmp_reference_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size)
{
	if (!c->o->pool)
		single_note(pr->base, pr->x, buf, size);
	else	/* a pool's meta is its first sweep's: the sweeps' own readings */
		pool_note(c, pr, buf, size);
}
