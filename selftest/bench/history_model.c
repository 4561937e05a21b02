/* The history simulator's noise model: levels, cells, a sweep's offset and its runs' noise. */
#include <math.h>
#include <string.h>

#include "history_model.h"

const char *const hm_cell_name[HM_NCELLS] = { "aa", "broad", "local", "two", "spike", "drift" };

/* splitmix64: small, fast, and the same numbers on every machine */
static uint64_t next(struct hm_rng *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void hm_seed(struct hm_rng *g, uint64_t seed, const char *salt)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a of the salt, mixed with the seed */

	for (; salt && *salt; salt++)
		h = (h ^ (unsigned char)*salt) * 1099511628211ULL;
	g->s = seed ^ h;
	next(g);
}

double hm_gauss(struct hm_rng *g)
{
	double u, v;

	do
		u = (double)(next(g) >> 11) / 9007199254740992.0;
	while (u == 0);
	v = (double)(next(g) >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

int hm_cell_parse(const char *name)
{
	for (int c = 0; c < HM_NCELLS; c++)
		if (strcmp(name, hm_cell_name[c]) == 0)
			return c;
	return -1;
}

int hm_touched(const struct hm_shape *h, int m, int t)
{
	int n = HM_LOCAL_N < h->counts ? HM_LOCAL_N : h->counts;

	if (h->cell == HM_AA)
		return 0;
	if (h->cell != HM_LOCAL)
		return 1;
	if (m != 0)
		return 0;
	for (int j = 0; j < n; j++)
		if ((int)((j + 0.5) * h->counts / n) + 1 == t)
			return 1;
	return 0;
}

double hm_level(const struct hm_shape *h, int k, int m, int t)
{
	double mu = h->base * t / (1 + t / 8.0) * (m ? 0.9 : 1.0);	/* a curve that bends */

	if (!hm_touched(h, m, t))
		return mu;
	switch (h->cell) {
	case HM_BROAD:
		return k >= (h->step_at ? h->step_at : HM_STEP_AT) ? mu * (1 + (h->step_pct ? h->step_pct : -5) / 100) : mu;
	case HM_LOCAL:
		return k >= HM_STEP_AT ? mu * 0.80 : mu;
	case HM_TWO:
		return k >= HM_TWO_AT2 ? mu * 0.95 * 1.05 : k >= HM_TWO_AT1 ? mu * 0.95 : mu;
	case HM_SPIKE:
		return k == HM_SPIKE_AT ? mu * 0.90 : mu;
	case HM_DRIFT:
		return mu * pow(0.998, k - 1);
	default:
		return mu;
	}
}

void hm_sweep(const struct hm_shape *h, struct hm_rng *g, int k, double *out, double *smp)
{
	double off = 1 + h->sweep_sd / 100 * hm_gauss(g);

	for (int m = 0; m < h->modes; m++)
		for (int t = 1; t <= h->counts; t++) {
			size_t pt = (size_t)m * h->counts + t - 1;
			double mu;

			if (h->point_offsets)
				off = 1 + h->sweep_sd / 100 * hm_gauss(g);
			mu = hm_level(h, k, m, t) * off;

			for (int r = 0; r < h->runs; r++) {
				double rm = mu * (1 + h->run_sd / 100 * hm_gauss(g)), sum = 0;
				size_t i = pt * h->runs + r;

				for (int s = 0; smp && s < h->samples; s++) {
					double v = rm * (1 + 0.002 * hm_gauss(g));

					smp[i * h->samples + s] = v;
					sum += v;
				}
				out[i] = smp ? sum / h->samples : rm;
			}
		}
}
