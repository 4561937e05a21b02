/* sb-history drift's printer: each group's run noise, drift and advice (and --advise's lines) from the model drift_report.c built. */
#include <math.h>
#include <stdio.h>

#include "history_priv.h"
#include "stat/verdict.h"

static void print_est(FILE *out, const struct sb_drift_est *e)
{
	if (e->df > 0)
		fprintf(out, "  %5.1f%% (%zu pairs, %.1f df)", 100 * sqrt(e->tau2), e->pairs, e->df);
	else
		fprintf(out, "  %-24s", "  -");
}

/* The advice computed for g (Kalibera and Jones: runs a sweep r*, sweeps a side for o's target). */
static void advise(FILE *out, const struct drift_fig *g, const struct sb_drift_report_opts *o)
{
	const struct advice *a = &g->a;
	double target = o->target;

	fprintf(out, "  runs a sweep: %s%ld", isfinite(a->r) && a->r <= 30 ? "" : "30 or more: ", a->runs);
	if (isfinite(a->r))
		fprintf(out, " (r* = sqrt(sweep cost %.3g s / run cost %.3g s x runs' variance / drift's) = %.1f)",
			g->c_sweep, o->run_cost, a->r);
	else
		fputs(" (no drift seen between sweeps: more runs in one sweep buy precision)", out);
	fputc('\n', out);
	if (a->k > 64)
		fprintf(out, "  +/-%g%%: more than 64 sweeps a side here\n", target);
	else
		fprintf(out, "  +/-%g%% (5%%, %g%% power) needs %ld sweep%s of %ld run%s a side%s\n", target,
			100 * SB_POWER, a->k, a->k == 1 ? "" : "s", a->runs, a->runs == 1 ? "" : "s",
			g->use.tau2 > 0 ? "; more runs in one sweep cannot shrink the drift term" : "");
}

/* One group's and shape's table, runs' sd and advice. */
static void print_figures(FILE *out, const struct drift_fig *gf, const struct sb_drift_report_opts *o)
{
	const struct figures *g = &gf->f;

	fprintf(out, "  %-22s  %-24s  %-24s\n", "", "drift within a boot", "drift across boots");
	fprintf(out, "  %-22s", "points (pooled)");
	print_est(out, &g->pt[SB_DRIFT_WITHIN]);
	print_est(out, &g->pt[SB_DRIFT_ACROSS]);
	fprintf(out, "\n  %-22s", "curves (pooled)");
	print_est(out, &g->cv[SB_DRIFT_WITHIN]);
	print_est(out, &g->cv[SB_DRIFT_ACROSS]);
	if (g->wdf > 0)
		fprintf(out, "\n  runs inside a sweep: %.1f%% sd (%.0f df)\n", 100 * sqrt(gf->sigma2), g->wdf);
	else
		fputs("\n  runs inside a sweep: unknown (sweeps of one run)\n", out);
	if (gf->advised)
		advise(out, gf, o);
	else
		fputs("  advice: two sweeps or more of several runs each are needed first\n", out);
}

/* Group gi's header and, for each shape it has, its figures (the shape named when there are several). */
static void print_group(FILE *out, const struct drift_model *dm, size_t gi, const struct sb_drift_report_opts *o)
{
	const struct drift_group *g = &dm->g[gi];
	const struct drift_fig *f = dm->f;
	const struct sb_hist_sweep *first = g->first;
	size_t m = dm->m, one = g->one;

	if (!first)
		return;
	fprintf(out, "%s%s%s on %s: ", first->test, *first->params ? " " : "", first->params, first->tb_name);
	if (g->nsh <= 1) {
		size_t n = one < m ? f[gi * m + one].f.sweeps : 0;

		fprintf(out, "%zu sweep%s\n", n, n == 1 ? "" : "s");
		print_figures(out, one < m ? &f[gi * m + one] : &dm->none, o);
		return;
	}
	/* a sweep's offset averages a drift that moves in seconds: each shape its own figures */
	fprintf(out, "%zu sweeps of %zu shapes, each shape its own figures\n", g->total, g->nsh);
	for (size_t sh = 0; sh < m; sh++)
		if (f[gi * m + sh].f.sweeps > 0) {
			fprintf(out, " shape %s: %zu sweep%s\n", dm->shape[sh], f[gi * m + sh].f.sweeps,
				f[gi * m + sh].f.sweeps == 1 ? "" : "s");
			print_figures(out, &f[gi * m + sh], o);
		}
}

void sb_drift_print(FILE *out, const struct drift_model *dm, const struct sb_drift_report_opts *o)
{
	for (size_t gi = 0; gi < dm->ngroups; gi++)
		print_group(out, dm, gi, o);
}

/* sb-history drift --advise's two lines for g (advised). */
void sb_drift_print_advise(FILE *out, const struct drift_fig *g, const struct sb_drift_report_opts *o)
{
	const struct advice *a = &g->a;

	if (a->k > 64)
		fprintf(out, "a %g%% change needs more than 64 sweeps a side here", o->target);
	else
		fprintf(out, "a %g%% change needs %ld sweep%s of %ld run%s a side (5%%, %g%% power)", o->target, a->k,
			a->k == 1 ? "" : "s", a->runs, a->runs == 1 ? "" : "s", 100 * SB_POWER);
	if (isfinite(a->r))
		fprintf(out, "; runs a sweep: %s%ld (r* = %.1f)\n", a->r <= 30 ? "" : "30 or more: ", a->runs, a->r);
	else
		fputs("; no drift seen: more runs in one sweep buy precision\n", out);
	fprintf(out, "from the history's %zu sweeps of this testcase and shape: +/-%.1f%% sd between sweeps %s "
		"(%.1f df), runs +/-%.1f%% sd (sb-history drift)\n", g->f.sweeps, 100 * sqrt(g->use.tau2),
		g->across ? "across boots" : "within a boot", g->use.df, 100 * sqrt(g->sigma2));
}
