/* sb-summary --format plot: a run directory's records for plot/plot.py, every file checked. */
#ifndef SCALEBENCH_PLOT_DATA_H
#define SCALEBENCH_PLOT_DATA_H

#include <stdio.h>

/*
 * sb_plot_data(out, RUNDIR): what plot/plot.py draws, checked here so that it reads
 * nothing itself. Tab-separated records: "meta KEY VALUE" a line of meta;
 * "row TASKS LINEAR" then per mode MEAN IDLE STDDEV CI N (empty when
 * unknown) from summary.csv; "peak MODE TASKS MEAN LO HI LABEL" the best
 * count, its plateau lo..hi (task counts) and sb_peak_label's words; "unmet
 * MODE TASKS PRECISION TARGET" a point that did not reach meta's precision
 * target (PRECISION empty without an interval), or that meta's unmet names;
 * "origin MODE TASKS ORIGIN REASON" a row of points.csv (seed, added or given,
 * and why), when the run has one; "empty REASON" when there is nothing to draw. samples.csv, when there, is
 * checked too. Bad input: sb_die with its message (exit 2, or 3).
 */
void sb_plot_data(FILE *out, const char *dir);

#endif
