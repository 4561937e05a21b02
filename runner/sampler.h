/* The sampler: absolute-deadline samples, rates over real elapsed time, idle, stalls. */
#ifndef SCALEBENCH_SAMPLER_H
#define SCALEBENCH_SAMPLER_H

#include "options.h"
#include "topology.h"

/* Run warmup + measured samples from the moment the gate opened; returns the mean measured ops/s. */
double sb_sampler_run(const struct sb_options *o, const struct sb_placement *pl);

#endif
