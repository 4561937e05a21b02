/* The peak and efficiency table and lkp's scalability of each run of a comparison, printed from the model. */
#include <math.h>
#include <string.h>

#include "fmt/rate.h"
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
		long n = c->scal[i].n;
		double s = c->scal[i].s;
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
	for (size_t k = 0; k < c->npeaks; k++) {
		const struct peak_row *p = &c->peaks[k];

		if (p->lo_tasks != p->hi_tasks)
			snprintf(pl, sizeof(pl), "%ld-%ld", p->lo_tasks, p->hi_tasks);
		else
			snprintf(pl, sizeof(pl), "%ld", p->peak_tasks);
		if (isnan(p->efficiency))
			snprintf(sc, sizeof(sc), "n/a (no 1-task point)");
		else
			snprintf(sc, sizeof(sc), "%.3f", p->efficiency);
		sb_rate_plain(b1, sizeof(b1), p->peak_mean);
		sb_rate_plain(b2, sizeof(b2), p->mean_n);
		if (f == SB_CMP_MARKDOWN) {
			fputs("| ", c->out);
			sb_cmp_md_cell(c->out, p->run);
			fprintf(c->out, " | %s | %s | %ld | %s | %ld | %s | %s |\n", p->mode, b1,
				p->peak_tasks, pl, p->n_tasks, b2, sc);
		} else {
			fprintf(c->out, "  %-*s  %-9s  %13s  %8ld  %9s  %9ld  %13s  %11s\n", nw,
				p->run, p->mode, b1, p->peak_tasks, pl, p->n_tasks, b2, sc);
		}
	}
	print_lkp_scalability(c);
}
