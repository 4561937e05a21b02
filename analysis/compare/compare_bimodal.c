/* A note when a side's values fall in two groups (analysis/stat/bimodal.c): the runs of a point in one sweep, or a pool's sweep means. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stat/bimodal.h"
#include "fmt/rate.h"
#include "compare_priv.h"

#define MAXV 256	/* sb_bimodal's own limit */
#define SHOWN 3		/* findings named; the rest counted */

struct found {
	char *buf;
	size_t size, len;
	int n;
};

/* One finding: "new's runs at processes:2 (3 near 980K and 2 near 700K ops/s, 40.0% apart)". */
static void say(struct found *f, const char *who, const char *what, const struct row *r, const struct sb_bimodal *b)
{
	char lo[32], hi[32];

	if (f->n++ >= SHOWN || f->len >= f->size)
		return;
	f->len += (size_t)snprintf(f->buf + f->len, f->size - f->len, "%s%s's %s at %s:%ld (%zu near %s and %zu "
				   "near %s ops/s, %.1f%% apart)", f->n > 1 ? "; " : "", who, what, r->b->mode,
				   r->b->tasks, b->nlo, sb_rate_human(exp(b->lo), lo, sizeof(lo)), b->nhi,
				   sb_rate_human(exp(b->hi), hi, sizeof(hi)), 100 * expm1(b->hi - b->lo));
	if (f->len >= f->size)
		f->len = f->size - 1;
}

/* The logs of v[0..n-1] into x; 0 when a value is not positive (no test then). */
static size_t logs(const double *v, size_t n, double *x)
{
	if (n > MAXV)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return 0;
		x[i] = log(v[i]);
	}
	return n;
}

/* Side s of row r: each sweep's runs, then (4 sweeps or more) the sweeps' mean logs. */
static void side(const struct ctx *c, const struct pair *pr, const struct row *r, int s, struct found *f)
{
	const struct sb_run *sw;
	int k = sb_cmp_drift_sides(c, s, &sw);
	const struct sb_values *own = s ? r->xv : r->bv;
	const char *who = (s ? pr->x : pr->base)->name;
	double x[MAXV], m[MAXV];
	size_t nm = 0, n;
	struct sb_bimodal b;

	if (k == 0) {	/* one sweep: its runs */
		if ((n = logs(own->v, own->n, x)) > 0 && sb_bimodal(x, n, &b))
			say(f, who, "runs", r, &b);
		return;
	}
	for (int i = 0; i < k && i < MAXV; i++) {
		const struct sb_point *p = sb_run_find(&sw[i], r->b->mode, r->b->tasks);
		char what[96];

		if (!p || (n = logs(p->means.v, p->means.n, x)) == 0)
			return;	/* a sweep without runs here: no sweep means either */
		snprintf(what, sizeof(what), "runs in sweep %s", sb_cmp_sweep_id(&sw[i]));
		if (sb_bimodal(x, n, &b))
			say(f, who, what, r, &b);
		m[nm] = 0;
		for (size_t j = 0; j < n; j++)
			m[nm] += x[j] / (double)n;
		nm++;
	}
	if (sb_bimodal(m, nm, &b))
		say(f, who, "sweeps' means", r, &b);
}

void sb_cmp_bimodal_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size)
{
	static const char head[] = "values fall in two groups (the gap test, docs/COMPARE.md): ";
	struct found f = { buf, size, 0, 0 };

	snprintf(buf, size, "%s", head);
	f.len = strlen(buf);
	for (size_t k = 0; k < pr->nrows; k++) {
		const struct row *r = &pr->rows[k];

		if (!r->means)
			continue;
		if (pr == &c->pairs[0])	/* base is every pair's: named once */
			side(c, pr, r, 0, &f);
		side(c, pr, r, 1, &f);
	}
	if (f.n == 0) {
		buf[0] = '\0';
		return;
	}
	if (f.n > SHOWN && f.len < size)
		snprintf(buf + f.len, size - f.len, "; and %d more", f.n - SHOWN);
	f.len = strlen(buf);
	snprintf(buf + f.len, size - f.len, ": a sweep's value then depends on how many of its runs fell in "
		 "each group (a pool's, on how many sweeps did), and its interval assumes one group; look at "
		 "them (--point MODE:TASKS). Shown, not corrected for");
}
