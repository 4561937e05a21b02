/* The words for a peak and its plateau, the same in every table, plot and report. */
#ifndef SCALEBENCH_PEAK_LABEL_H
#define SCALEBENCH_PEAK_LABEL_H

#include <stddef.h>

/*
 * "peak 6 tasks (5-7 within the 95% interval)" into buf: best the count with
 * the highest mean, lo..hi the plateau of counts indistinguishable from it,
 * runs the best count's runs. A plateau of one count says "(no other count
 * within the 95% interval)", a best of one run "(one run: no interval)".
 * Returns buf.
 */
char *sb_peak_label(char *buf, size_t len, unsigned long best, unsigned long lo, unsigned long hi,
		    size_t runs, double conf);

#endif
