/* The comparator of history_sim: E-divisive means (q-hat, exponent 1) on the sweep means, each split judged by Student's t on its two segments. */
#include <math.h>
#include <stdlib.h>

#include "history_edivisive.h"
#include "stat/stats.h"

/* q-hat of the split of m[lo, hi) at k: the energy distance between the two sides, scaled by their sizes */
static double qhat(const double *m, size_t lo, size_t k, size_t hi)
{
	double na = (double)(k - lo), nb = (double)(hi - k), between = 0, wa = 0, wb = 0;

	for (size_t i = lo; i < k; i++)
		for (size_t j = k; j < hi; j++)
			between += fabs(m[i] - m[j]);
	for (size_t i = lo; i < k; i++)
		for (size_t j = i + 1; j < k; j++)
			wa += fabs(m[i] - m[j]);
	for (size_t i = k; i < hi; i++)
		for (size_t j = i + 1; j < hi; j++)
			wb += fabs(m[i] - m[j]);
	return na * nb / (na + nb) *
	       (2 * between / (na * nb) - 2 * wa / (na * (na - 1)) - 2 * wb / (nb * (nb - 1)));
}

static void mean_var(const double *m, size_t lo, size_t hi, double *mean, double *var)
{
	struct sb_stats st;
	double v;

	sb_stats_compute_var(m + lo, hi - lo, &st, &v, NULL);
	*mean = st.mean;
	*var = v;
}

/* The best split of [lo, hi) by q-hat and the p-value of Student's t between its sides (1: none). */
static double split(const double *m, size_t lo, size_t hi, size_t min_seg, size_t *at, double *pct)
{
	double best = -INFINITY, ma, va, mb, vb;
	struct sb_ttest t;

	if (hi - lo < 2 * min_seg)
		return 1;
	for (size_t k = lo + min_seg; k + min_seg <= hi; k++) {
		double q = qhat(m, lo, k, hi);

		if (q > best) {
			best = q;
			*at = k;
		}
	}
	mean_var(m, lo, *at, &ma, &va);
	mean_var(m, *at, hi, &mb, &vb);
	if (sb_ttest2(*at - lo, ma, va, hi - *at, mb, vb, &t) != 0)
		return 1;
	*pct = 100 * expm1(mb - ma);
	return t.p;
}

struct acc {
	struct sb_cp_change *c;
	size_t n, cap;
};

static int add(struct acc *a, size_t series, size_t at, double pct, double p)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct sb_cp_change *c = realloc(a->c, cap * sizeof(*c));

		if (!c)
			return 3;
		a->c = c;
		a->cap = cap;
	}
	a->c[a->n++] = (struct sb_cp_change){ .series = series, .at = at, .pct = pct, .p = p };
	return 0;
}

static int segment(const double *m, size_t series, size_t lo, size_t hi, size_t min_seg,
		   double mult, double alpha, struct acc *a)
{
	size_t at = 0;
	double pct = 0, p = split(m, lo, hi, min_seg, &at, &pct) * mult;

	if (!(p <= alpha))
		return 0;
	if (add(a, series, at, pct, fmin(p, 1)) != 0)
		return 3;
	if (segment(m, series, lo, at, min_seg, mult, alpha, a) != 0)
		return 3;
	return segment(m, series, at, hi, min_seg, mult, alpha, a);
}

int ed_detect(const struct sb_cp_series *s, size_t ns, double alpha, size_t min_seg,
	      struct sb_cp_change **out, size_t *nout)
{
	struct acc a = { NULL, 0, 0 };
	size_t n = ns ? s[0].n : 0;
	double *m = malloc((ns * n + 1) * sizeof(*m)), *p0 = calloc(ns + 1, sizeof(*p0));
	double *pct = malloc((ns + 1) * sizeof(*pct)), *adj = malloc((ns + 1) * sizeof(*adj));
	size_t *at = malloc((ns + 1) * sizeof(*at));
	int *rej = malloc((ns + 1) * sizeof(*rej)), rc = 0;

	if (!m || !p0 || !pct || !adj || !at || !rej) {
		rc = 3;
		goto done;
	}
	for (size_t j = 0; j < ns; j++) {
		for (size_t k = 0; k < n; k++) {
			double l = 0;

			for (size_t r = 0; r < s[j].obs[k].nruns; r++)
				l += log(s[j].obs[k].runs[r]);
			m[j * n + k] = l / (double)s[j].obs[k].nruns;
		}
		p0[j] = split(m + j * n, 0, n, min_seg, &at[j], &pct[j]);
	}
	/* the same control as sb_cp_detect: Holm over the series, then Bonferroni within */
	if (sb_holm(p0, NULL, ns, alpha, rej, adj) < 0) {
		rc = 3;
		goto done;
	}
	for (size_t j = 0; j < ns && rc == 0; j++)
		if (rej[j])
			rc = add(&a, j, at[j], pct[j], adj[j]) ||
			     segment(m + j * n, j, 0, at[j], min_seg, (double)ns, alpha, &a) ||
			     segment(m + j * n, j, at[j], n, min_seg, (double)ns, alpha, &a);
done:
	free(m);
	free(p0);
	free(pct);
	free(adj);
	free(at);
	free(rej);
	*out = a.c;
	*nout = a.n;
	return rc ? 3 : 0;
}
