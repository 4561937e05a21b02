/* sb-summary --format plot: a run directory's records for plot/plot.py, printed from export/plot_model.h's model. */
#ifndef SCALEBENCH_PLOT_DATA_H
#define SCALEBENCH_PLOT_DATA_H

#include <stdio.h>

struct sb_plot;

/*
 * What plot/plot.py draws, checked by sb_plot_build so that it reads nothing
 * itself, as tab-separated records: "meta KEY VALUE" a line of meta (status
 * last, as it is now); "empty REASON" when there is nothing to draw; "row TASKS
 * LINEAR" then per mode MEAN IDLE STDDEV CI N (empty when unknown) from
 * summary.csv; "peak MODE TASKS MEAN LO HI LABEL" the best count, its plateau
 * lo..hi (task counts) and sb_peak_label's words; "unmet MODE TASKS PRECISION
 * TARGET" a point that did not reach meta's precision target (PRECISION empty
 * without an interval), or that meta's unmet names; "origin MODE TASKS ORIGIN
 * REASON" a row of points.csv (seed, added or given, and why), when the run has
 * one. The records p holds: those before a failed check (p->rc), which the
 * caller then reports.
 */
void sb_plot_print(FILE *out, const struct sb_plot *p);

#endif
