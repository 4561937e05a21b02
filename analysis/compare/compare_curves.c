/* The peak and efficiency table and lkp's scalability of each run of a comparison, from curve/. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "curve.h"
#include "rate.h"
#include "compare_priv.h"

static void print_lkp_scalability(const struct ctx *c)
{
	int md = c->o->format == SB_CMP_MARKDOWN;

	fputs(md ? "\n**Scalability** (lkp-tests' will-it-scale.scalability: processes(N) / linear(N) "
		   "at the largest task count N, linear(N) = N × the better mode at 1 task)\n\n"
		   "| run | N | scalability |\n|---|---:|---:|\n" :
		   "Scalability (lkp-tests' will-it-scale.scalability: processes(N) / linear(N) at the "
		   "largest task count N, linear(N) = N * the better mode at 1 task):\n", c->out);
	for (int i = 0; i < c->nruns; i++) {
		long n;
		double s = sb_lkp_scalability(&c->runs[i], &n);
		char v[64];

		if (isnan(s))
			snprintf(v, sizeof(v), "n/a (needs processes at N > 1 and a 1-task point)");
		else
			snprintf(v, sizeof(v), "%.3f", s);
		if (md) {
			fputs("| ", c->out);
			sb_cmp_md_cell(c->out, c->runs[i].name);
			fprintf(c->out, " | %ld | %s |\n", n, v);
		} else {
			fprintf(c->out, "  %-12s  N %-6ld  %s\n", c->runs[i].name, n, v);
		}
	}
}

void sb_cmp_print_curves(const struct ctx *c)
{
	enum sb_cmp_format f = c->o->format;
	char b1[48], b2[48], sc[32], pl[48];
	int nw = 3;

	for (int i = 0; i < c->nruns; i++)
		if ((int)strlen(c->runs[i].name) > nw)
			nw = (int)strlen(c->runs[i].name);
	if (f == SB_CMP_MARKDOWN)
		fputs("**Peak and efficiency** (mean ops/s; plateau: the counts within the 95% interval "
		      "of the peak; efficiency = ops(N) / (N × ops(1)) of the mode, at the largest task count N)\n\n"
		      "| run | mode | peak ops/s | peak at tasks | plateau | largest N | ops/s at N | efficiency |\n"
		      "|---|---|---:|---:|---:|---:|---:|---:|\n", c->out);
	else
		fprintf(c->out, "Peak and efficiency (mean ops/s; plateau: the counts within the 95%% interval "
			"of the peak; efficiency = ops(N) / (N * ops(1)) of the mode, at the largest task count N):\n"
			"  %-*s  %-9s  %13s  %8s  %9s  %9s  %13s  %11s\n", nw, "run", "mode", "peak ops/s",
			"at tasks", "plateau", "largest N", "ops/s at N", "efficiency");
	for (int i = 0; i < c->nruns; i++) {
		const struct sb_run *r = &c->runs[i];

		for (size_t k = 0; k < r->npts; k++) {
			struct sb_curve cv;
			const struct sb_curve_point *pk, *mx;
			double eff;

			if (k > 0 && strcmp(r->pts[k].mode, r->pts[k - 1].mode) == 0)
				continue;	/* each mode once, at its first point */
			if (sb_curve_of_run(r, r->pts[k].mode, &cv) != 0)
				sb_die(SB_EXIT_ENV, "out of memory");
			if (!cv.has_peak)
				sb_die(SB_EXIT_ENV, "internal: no peak in %s's %s points", r->name, cv.mode);
			pk = &cv.pt[cv.best];
			mx = &cv.pt[cv.n - 1];
			if (cv.lo < cv.hi)
				snprintf(pl, sizeof(pl), "%ld-%ld", cv.pt[cv.lo].tasks, cv.pt[cv.hi].tasks);
			else
				snprintf(pl, sizeof(pl), "%ld", pk->tasks);
			eff = sb_curve_efficiency(&cv);
			if (isnan(eff))
				snprintf(sc, sizeof(sc), "n/a (no 1-task point)");
			else
				snprintf(sc, sizeof(sc), "%.3f", eff);
			sb_rate_plain(b1, sizeof(b1), pk->mean);
			sb_rate_plain(b2, sizeof(b2), mx->mean);
			if (f == SB_CMP_MARKDOWN) {
				fputs("| ", c->out);
				sb_cmp_md_cell(c->out, r->name);
				fprintf(c->out, " | %s | %s | %ld | %s | %ld | %s | %s |\n", cv.mode, b1,
					pk->tasks, pl, mx->tasks, b2, sc);
			} else {
				fprintf(c->out, "  %-*s  %-9s  %13s  %8ld  %9s  %9ld  %13s  %11s\n", nw,
					r->name, cv.mode, b1, pk->tasks, pl, mx->tasks, b2, sc);
			}
			sb_curve_free(&cv);
		}
	}
	print_lkp_scalability(c);
}

