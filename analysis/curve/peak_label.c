/* The words for a peak and its plateau, the same in every table, plot and report. */
#include <stdio.h>

#include "peak_label.h"
#include "stat/stats.h"

char *sb_peak_label(char *buf, size_t len, unsigned long best, unsigned long lo, unsigned long hi,
		    size_t runs, double conf)
{
	const char *s = best == 1 ? "" : "s";

	if (!sb_runs_independent(runs))
		snprintf(buf, len, "peak %lu task%s (one run: no interval)", best, s);
	else if (lo == hi)
		snprintf(buf, len, "peak %lu task%s (no other count within the %g%% interval)", best, s, conf);
	else
		snprintf(buf, len, "peak %lu task%s (%lu-%lu within the %g%% interval)", best, s, lo, hi, conf);
	return buf;
}
