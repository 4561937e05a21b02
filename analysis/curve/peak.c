/* The honest peak of a curve: the best task count and the plateau of counts indistinguishable from it. */
#include <math.h>

#include "peak.h"
#include "stat/stats.h"

int sb_peak_same(const struct sb_peak_point *a, const struct sb_peak_point *b, double conf)
{
	struct sb_tdiff d;

	/* Fewer than 2 runs: no interval, so nothing can be shown equal to it. */
	if (a->n < 2 || b->n < 2)
		return 0;
	if (sb_tdiff(a->n, a->mean, a->var, b->n, b->mean, b->var, conf, &d) != 0)
		return 0;
	return !d.significant;
}

int sb_peak_find(const struct sb_peak_point *p, size_t np, double conf, struct sb_peak *out)
{
	size_t i, best = np;

	if (sb_student_t(conf, 1) < 0)
		return -1;
	for (i = 0; i < np; i++) {
		if (i > 0 && p[i].tasks <= p[i - 1].tasks)
			return -1;
		if (p[i].n == 0 || !isfinite(p[i].mean))
			continue;
		if (best == np || p[i].mean > p[best].mean)
			best = i;
	}
	if (best == np)
		return -1;
	out->best = out->lo = out->hi = best;
	while (out->lo > 0 && sb_peak_same(&p[best], &p[out->lo - 1], conf))
		out->lo--;
	while (out->hi + 1 < np && sb_peak_same(&p[best], &p[out->hi + 1], conf))
		out->hi++;
	return 0;
}
