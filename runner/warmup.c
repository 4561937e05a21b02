/* When a run's warmup ends: a fixed count of samples, or once the rate has settled (--warmup auto). */
#include <math.h>

#include "warmup.h"

static unsigned long samples_in(unsigned long ms, unsigned long period_ms)
{
	return (ms + period_ms - 1) / period_ms;
}

void sb_warmup_init(struct sb_warmup *w, const struct sb_options *o)
{
	*w = (struct sb_warmup){ .automatic = o->warmup == SB_WARMUP_AUTO, .period_ms = o->period_ms };
	if (!w->automatic) {
		w->min = w->max = o->warmup;
		return;
	}
	/* Short samples see a settled rate sooner; never longer than the measured ones by default. */
	if (o->warmup_period_ms)
		w->period_ms = o->warmup_period_ms;
	else if (o->period_ms > SB_WARMUP_PERIOD_MS)
		w->period_ms = SB_WARMUP_PERIOD_MS;
	/* The rule needs a full window; the cap wins over both minimums. */
	w->max = samples_in(o->warmup_max_ms, w->period_ms);
	w->min = samples_in(o->warmup_min_ms, w->period_ms);
	if (w->min < SB_WARMUP_WINDOW)
		w->min = SB_WARMUP_WINDOW;
	if (w->min > w->max)
		w->min = w->max;
}

/* The last SB_WARMUP_WINDOW rates all lie within SB_WARMUP_TOLERANCE of their mean, which is not 0. */
static int settled(const struct sb_warmup *w)
{
	double mean = 0;

	if (w->done < SB_WARMUP_WINDOW)
		return 0;
	for (int i = 0; i < SB_WARMUP_WINDOW; i++)
		mean += w->last[i] / SB_WARMUP_WINDOW;
	/* Nothing counted yet is not a settled rate (a stall is the stall timeout's business). */
	if (!(mean > 0))
		return 0;
	for (int i = 0; i < SB_WARMUP_WINDOW; i++)
		if (fabs(w->last[i] - mean) > SB_WARMUP_TOLERANCE * mean)
			return 0;
	return 1;
}

int sb_warmup_on(const struct sb_warmup *w)
{
	if (w->done < w->min)
		return 1;
	if (w->done >= w->max)
		return 0;
	return !settled(w);
}

void sb_warmup_add(struct sb_warmup *w, double rate)
{
	w->last[w->done % SB_WARMUP_WINDOW] = rate;
	w->done++;
}
