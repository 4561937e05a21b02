/* The history simulator's noise model: one synthetic history of sweeps, shared by history_gen and history_sim. */
#ifndef SCALEBENCH_HISTORY_MODEL_H
#define SCALEBENCH_HISTORY_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* The cells of the simulator: what happens to the history. */
enum hm_cell { HM_AA, HM_BROAD, HM_LOCAL, HM_TWO, HM_SPIKE, HM_DRIFT, HM_NCELLS };
extern const char *const hm_cell_name[HM_NCELLS];

/* The shape of a history and its noise. */
struct hm_shape {
	int kernels, runs, counts, modes, samples;	/* samples a run (2 by default) */
	double run_sd, sweep_sd;	/* % of the level: a run's own noise, a sweep's offset */
	double base;			/* ops/s of one task */
	int point_offsets;		/* 1: each point of a sweep its own offset (default: one a sweep) */
	enum hm_cell cell;
	int step_at;			/* broad's first kernel after the step (0: HM_STEP_AT) */
	double step_pct;		/* broad's step, % (0: -5) */
};

/* Where the cells put their changes (kernels numbered from 1). */
#define HM_STEP_AT 20		/* broad and local: the first kernel after the step */
#define HM_TWO_AT1 10		/* two: -5% from here ... */
#define HM_TWO_AT2 22		/* ... and +5% from here */
#define HM_SPIKE_AT 15		/* spike: this kernel alone -10% */
#define HM_LOCAL_N 5		/* local: the counts touched, processes mode only */

struct hm_rng {
	uint64_t s;
};

void hm_seed(struct hm_rng *g, uint64_t seed, const char *salt);
double hm_gauss(struct hm_rng *g);

/* Parse a cell name; -1 when unknown. */
int hm_cell_parse(const char *name);

/* 1 when count t (1-based) of mode m is touched by the cell's change. */
int hm_touched(const struct hm_shape *h, int m, int t);

/* The noiseless level of count t of mode m at kernel k (1-based), ops/s. */
double hm_level(const struct hm_shape *h, int k, int m, int t);

/*
 * Kernel k's sweep: out[((m * counts) + t - 1) * runs + r] = run r's mean ops/s,
 * and, when smp is not NULL, smp[... * samples + s] its samples (their mean is
 * the run's mean). Draws the sweep's offset (shared by every point of the
 * sweep), then each run's noise.
 */
void hm_sweep(const struct hm_shape *h, struct hm_rng *g, int k, double *out, double *smp);

#endif
