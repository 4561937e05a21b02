/* The history simulator in one process: synthetic histories through sb_cp_detect, a row of rates a cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/changepoint.h"
#include "history_edivisive.h"
#include "history_model.h"

/* The truth a cell's changes are judged against: the first kernel after it and its sign. */
struct truth {
	int at[2], sign[2], n;
};

static struct truth cell_truth(enum hm_cell c)
{
	struct truth t = { { 0, 0 }, { 0, 0 }, 0 };

	if (c == HM_BROAD || c == HM_LOCAL)
		t = (struct truth){ { HM_STEP_AT, 0 }, { -1, 0 }, 1 };
	else if (c == HM_TWO)
		t = (struct truth){ { HM_TWO_AT1, HM_TWO_AT2 }, { -1, 1 }, 2 };
	else if (c == HM_DRIFT)
		t = (struct truth){ { 0, 0 }, { -1, 0 }, 1 };	/* found: any fall; no place */
	return t;
}

/* The series of one history: each point's runs, then each mode's curve (per run, the geometric mean over the counts). */
struct hist {
	struct hm_shape h;
	int flat;			/* observations are runs: an index / runs is the kernel */
	int edivisive;			/* the comparator instead of sb_cp_detect */
	double *runs, *smp, *curve;	/* runs[k][pt][r]; curve[k][m][r] */
	struct sb_cp_obs *obs;		/* obs[series][k] */
	struct sb_cp_series *ser;
	size_t npts, ns;
};

/*
 * flat: the naive model, for comparison: every run its own observation (one
 * run a "sweep", min_seg a sweep's runs twice), as if a sweep's runs did not
 * share its offset.
 */
static int hist_alloc(struct hist *x, int flat)
{
	size_t K = x->h.kernels, R = x->h.runs, L = flat ? K * R : K;

	x->npts = (size_t)x->h.modes * x->h.counts;
	x->ns = x->npts + x->h.modes;
	x->runs = malloc(K * x->npts * R * sizeof(double));
	x->smp = malloc(x->npts * R * x->h.samples * sizeof(double));
	x->curve = malloc(K * x->h.modes * R * sizeof(double));
	x->obs = malloc(x->ns * L * sizeof(*x->obs));
	x->ser = malloc(x->ns * sizeof(*x->ser));
	if (!x->runs || !x->smp || !x->curve || !x->obs || !x->ser)
		return -1;
	for (size_t s = 0; s < x->ns; s++) {
		x->ser[s] = (struct sb_cp_series){ x->obs + s * L, L };
		for (size_t k = 0; k < K; k++) {
			double *v = s < x->npts ? x->runs + (k * x->npts + s) * R
						: x->curve + (k * x->h.modes + (s - x->npts)) * R;

			if (!flat)
				x->obs[s * L + k] = (struct sb_cp_obs){ v, R };
			for (size_t r = 0; flat && r < R; r++)
				x->obs[s * L + k * R + r] = (struct sb_cp_obs){ v + r, 1 };
		}
	}
	return 0;
}

static void hist_draw(struct hist *x, struct hm_rng *g)
{
	size_t R = x->h.runs, C = x->h.counts;

	for (int k = 1; k <= x->h.kernels; k++) {
		double *v = x->runs + (size_t)(k - 1) * x->npts * R;

		hm_sweep(&x->h, g, k, v, x->smp);
		for (int m = 0; m < x->h.modes; m++)
			for (size_t r = 0; r < R; r++) {
				double l = 0;

				for (size_t t = 0; t < C; t++)
					l += log(v[((size_t)m * C + t) * R + r]);
				x->curve[((size_t)(k - 1) * x->h.modes + m) * R + r] = exp(l / C);
			}
	}
}

/* 1 when series s is touched by the cell (a curve when any of its counts is). */
static int series_touched(const struct hist *x, size_t s)
{
	int m = s < x->npts ? (int)(s / x->h.counts) : (int)(s - x->npts);

	if (s < x->npts)
		return hm_touched(&x->h, m, (int)(s % x->h.counts) + 1);
	for (int t = 1; t <= x->h.counts; t++)
		if (hm_touched(&x->h, m, t))
			return 1;
	return 0;
}

/* The kernel (from 1) of the first sweep after change c (in flat mode, the run's; a run inside a sweep rounds up). */
static int kernel_of(const struct hist *x, const struct sb_cp_change *c)
{
	return x->flat ? (int)((c->at + x->h.runs - 1) / x->h.runs) + 1 : (int)c->at + 1;
}

struct tally {
	int any, found, exact, near;
};

/* Judge one history's changes against the truth. */
static void judge(const struct hist *x, const struct truth *tr, const struct sb_cp_change *c,
		  size_t n, struct tally *t)
{
	int found = 1, exact = 1, near = 1;

	t->any += n > 0;
	if (tr->n == 0)
		return;
	for (int j = 0; j < tr->n; j++) {
		const struct sb_cp_change *best = NULL;

		/* the strongest change of the right sign in a touched series (nearest the truth when two) */
		for (size_t i = 0; i < n; i++) {
			int at = kernel_of(x, &c[i]);

			if (!series_touched(x, c[i].series) || (c[i].pct < 0 ? -1 : 1) != tr->sign[j])
				continue;
			if (tr->n == 2 && abs(at - tr->at[j]) > abs(at - tr->at[1 - j]))
				continue;
			if (!best || c[i].p < best->p ||
			    (c[i].p == best->p && fabs(c[i].pct) > fabs(best->pct)))
				best = &c[i];
		}
		found &= best != NULL;
		exact &= best && kernel_of(x, best) == tr->at[j];
		near &= best && abs(kernel_of(x, best) - tr->at[j]) <= 1;
	}
	t->found += found;
	t->exact += found && exact;
	t->near += found && near;
}

static void usage(void)
{
	fprintf(stderr, "usage: history_sim [--histories N] [--seed N] [--cells \"aa broad ...\"] "
			"[--kernels K] [--runs R] [--run-sd PCT] [--sweep-sd PCT] [--counts C] "
			"[--alpha A] [--min-seg M] [--flat 1] [--edivisive 1] [--point-offsets 1]\n");
	exit(2);
}

static int run_cell(struct hist *x, int nh, unsigned long seed, const struct sb_cp_opts *o)
{
	struct truth tr = cell_truth(x->h.cell);
	struct tally t = { 0, 0, 0, 0 };
	struct hm_rng g;

	for (int i = 0; i < nh; i++) {
		struct sb_cp_change *c;
		size_t n;
		int rc;

		/* history i: history_gen --seed SEED*10000+i --testcase histsim1 draws the same numbers */
		hm_seed(&g, seed * 10000 + (unsigned long)i, "histsim1");
		hist_draw(x, &g);
		rc = x->edivisive ? ed_detect(x->ser, x->ns, o->alpha, o->min_seg ? o->min_seg : 2, &c, &n)
				  : sb_cp_detect(x->ser, x->ns, o, &c, &n);
		if (rc != 0) {
			fprintf(stderr, "history_sim: sb_cp_detect returned %d\n", rc);
			return rc;
		}
		for (size_t q = 0; getenv("HISTORY_SIM_DEBUG") && q < n; q++)
			fprintf(stderr, "h%d s%zu at%zu %.2f%% [%.2f,%.2f] p%.2g holds%d\n", i,
				c[q].series, c[q].at + 1, c[q].pct, c[q].lo, c[q].hi, c[q].p, c[q].holds);
		judge(x, &tr, c, n, &t);
		free(c);
	}
	printf("%-6s %6.1f%%", hm_cell_name[x->h.cell], 100.0 * t.any / nh);
	if (tr.n)
		printf(" %6.1f%%", 100.0 * t.found / nh);
	else
		printf(" %7s", "-");
	if (tr.n && x->h.cell != HM_DRIFT)
		printf(" %6.1f%% %6.1f%%\n", 100.0 * t.exact / nh, 100.0 * t.near / nh);
	else
		printf(" %7s %7s\n", "-", "-");
	return 0;
}

int main(int argc, char **argv)
{
	struct hist x = { .h = { .kernels = 30, .runs = 3, .counts = 24, .modes = 2, .samples = 2,
				 .run_sd = 2.0, .sweep_sd = 1.0, .base = 1e6, .cell = HM_AA } };
	struct sb_cp_opts o = { 0.05, 0 };
	const char *cells = "aa broad local two spike drift";
	unsigned long seed = 1;
	int nh = 200;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--histories")) nh = atoi(v);
		else if (!strcmp(a, "--seed")) seed = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--cells")) cells = v;
		else if (!strcmp(a, "--kernels")) x.h.kernels = atoi(v);
		else if (!strcmp(a, "--runs")) x.h.runs = atoi(v);
		else if (!strcmp(a, "--run-sd")) x.h.run_sd = atof(v);
		else if (!strcmp(a, "--sweep-sd")) x.h.sweep_sd = atof(v);
		else if (!strcmp(a, "--counts")) x.h.counts = atoi(v);
		else if (!strcmp(a, "--alpha")) o.alpha = atof(v);
		else if (!strcmp(a, "--min-seg")) o.min_seg = (size_t)atoi(v);
		else if (!strcmp(a, "--flat")) x.flat = atoi(v);
		else if (!strcmp(a, "--point-offsets")) x.h.point_offsets = atoi(v);
		else if (!strcmp(a, "--edivisive")) x.edivisive = atoi(v);
		else usage();
	}
	if (nh < 1 || x.h.kernels < 4 || x.h.runs < 1 || x.h.counts < 1)
		usage();
	if (x.flat && !o.min_seg)
		o.min_seg = 2 * (size_t)x.h.runs;
	if (hist_alloc(&x, x.flat) != 0) {
		fprintf(stderr, "history_sim: out of memory\n");
		return 3;
	}
	printf("# %d histories a cell, %d kernels x %d runs, run sd %g%%, sweep sd %g%%, "
	       "%d counts x %d modes, alpha %g, seed %lu%s\n",
	       nh, x.h.kernels, x.h.runs, x.h.run_sd, x.h.sweep_sd, x.h.counts, x.h.modes, o.alpha, seed,
	       x.flat ? ", runs as independent observations (flat)" : "");
	if (x.h.point_offsets)
		printf("# each point of a sweep its own offset\n");
	if (x.edivisive)
		printf("# E-divisive means (q-hat) on the sweep means, Student's t on the split's segments\n");
	printf("%-6s %7s %7s %7s %7s\n", "cell", "any", "found", "exact", "+-1");
	for (const char *p = cells; *p;) {
		size_t len = strcspn(p, " ,");
		char name[16];
		int c;

		if (len && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = 0;
			if ((c = hm_cell_parse(name)) < 0) {
				fprintf(stderr, "history_sim: unknown cell '%s'\n", name);
				return 2;
			}
			x.h.cell = (enum hm_cell)c;
			if (run_cell(&x, nh, seed, &o) != 0)
				return 1;
		}
		p += len + (p[len] != 0);
	}
	free(x.runs);
	free(x.smp);
	free(x.curve);
	free(x.obs);
	free(x.ser);
	return 0;
}
