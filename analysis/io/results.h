/* The readers of a run's files, one a format (analysis/io/): include this for all of them. */
#ifndef SCALEBENCH_RESULTS_H
#define SCALEBENCH_RESULTS_H

#include "meta.h"
#include "points.h"
#include "rundir/rundir.h"
#include "samples.h"
#include "summary.h"

#endif
