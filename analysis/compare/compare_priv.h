/* What compare's files share: the comparison's model (rows, curves, pairs, peaks, notes), built whole before a report prints it. */
#ifndef SCALEBENCH_COMPARE_PRIV_H
#define SCALEBENCH_COMPARE_PRIV_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "compare_runs.h"
#include "io/results.h"
#include "stat/stats.h"
#include "stat/verdict.h"

/*
 * Private to compare/: cmd_compare sees only compare_runs.h. Compute, then
 * print: compare_runs.c builds the whole model (struct ctx) through the
 * computing files (compare_curve_test.c, compare_drift.c, compare_gate.c,
 * compare_reference.c, compare_curves.c, compare_point.c), then hands it to
 * the printers (compare_report.c, compare_report_curves.c, compare_verdict.c,
 * compare_cells.c), which read the model and fmt/ only
 * (selftest/analysis_callgraph.t).
 */

/* verdict.h's words: a point's and a curve's verdict is the module's */
enum verdict { V_NA = SB_VW_NA, V_SAME = SB_VW_SAME, V_FASTER = SB_VW_FASTER, V_SLOWER = SB_VW_SLOWER };

struct row {
	const struct sb_point *b, *x;
	const struct sb_values *bv, *xv;	/* what is compared: both per-run means, or both samples */
	int means;
	double bprec, xprec;	/* each side's precision: its interval's half-width, % of its mean; NAN for samples */
	struct sb_vresult vd;	/* the verdict module's (SB_VT_RATIO); its arithmetic in vd.d */
	enum verdict v;
	int beyond;		/* significant (its own interval) and at least the threshold */
	int gated;		/* the gate's procedure calls it changed (docs/COMPARE.md "The gate") */
	int counts;		/* gated and at least the threshold: what exits 1 */
	double detectable;	/* smallest change (%) detectable at the gate's level for it; NAN */
};

/*
 * A mode's curve: the geometric mean of the change over its task counts.
 * Each run index k gives one value a side, the mean over the points of
 * log(run k's mean), so what one round (or sweep) shares across points is
 * in the spread rather than mistaken for a change.
 */
struct curve_test {
	const char *mode;
	size_t npts, n0, n;	/* points in it; runs used a side (of the fewest any point has, those with a curve value) */
	struct sb_vresult vd;	/* the verdict module's (SB_VT_LOG); vd.tt on the log values */
	double change, lo, hi;	/* % change and its conf% interval (vd's) */
	double detectable;	/* % (100 x the log ratio) detectable at the gate's level; NAN */
	enum verdict v;		/* its own interval's */
	int gated, counts;
};

/* NEW against BASE: one row per point both have, and the tallies of the verdicts. */
struct pair {
	const struct sb_run *base, *x;
	struct row *rows;
	size_t nrows;
	size_t nfaster, nslower, nsame, nna, nregress, nchange;
	int correlated;		/* some row compares per-second samples */
	struct curve_test *curves;	/* one per mode with 2 or more points compared on runs */
	size_t ncurves;
	char machine[192];	/* the machine's meta keys that differ from base's ("host, cpu_model"), "" */
	char system[256];	/* the system checks' settings that differ ("governor powersave/performance"), "" */
	char reference[512];	/* the reference loop ran at another speed (compare_reference.c), "" */
	const struct sb_point *only[2][12];	/* the first points base (0) or x (1) has and the other lacks */
	size_t nonly[2];			/* how many there are (only the first 12 are named) */
	char bimodal[1024];	/* a side's values fall in two groups (compare_bimodal.c), "" */
	char curve_note[1024];	/* runs a curve test left out: no curve value (compare_curve_test.c), "" */
};

/* A mode's peak and efficiency in one run (compare_curves.c, from curve/). */
struct peak_row {
	const char *run, *mode;
	double peak_mean, mean_n;	/* the peak's mean ops/s, and the mean at the largest count N */
	double efficiency;		/* ops(N) / (N x ops(1)); NAN without a 1-task point */
	long peak_tasks, lo_tasks, hi_tasks, n_tasks;	/* the plateau lo..hi (lo == hi: the peak alone) */
};

/* A run's lkp-tests scalability at its largest task count n (NAN: none). */
struct scal_row {
	double s;
	long n;
};

/* --point: the point, and ministat's block for it drawn into memory (compare_point.c). */
struct point_view {
	char mode[32];
	long tasks;
	char *block;
	size_t len;
};

struct ctx {
	const struct sb_cmp_opts *o;
	FILE *out;
	struct sb_run *runs;
	int nruns;
	struct pair *pairs;	/* nruns - 1 */
	int correlated;
	size_t gate_points, gate_curves;	/* the gate's family */
	struct sb_cmp_drift *drift;		/* the machine's drift in every test (compare_drift.c) */
	struct peak_row *peaks;			/* text and markdown: each run's modes, in order */
	size_t npeaks;
	struct scal_row *scal;			/* text and markdown: one a run */
	char drift_words[2400];			/* the Note on the drift (sb_cmp_drift_words) */
	struct point_view *point;		/* --point only */
	int failing;				/* the exit code: SB_EXIT_FAIL when the gate fails */
};

/*
 * Values a side needs: SB_INDEPENDENT_RUNS run means, or ministat's 3 samples.
 * Inline: compare_pair and the verdict words must agree, and it is one line.
 */
static inline size_t needed(const struct row *r)
{
	return r->means ? SB_INDEPENDENT_RUNS : SB_MINISTAT_MINVALUES;
}

/* compare_curve_test.c: each mode's curve test of pr (pr->curves, pr->ncurves). Returns 0, or 3 (memory). */
int sb_cmp_curve_tests(struct pair *pr, const struct sb_cmp_opts *o);

/* compare_gate.c: the gate over the whole comparison, and whether it fails (the exit code). */
int sb_cmp_gate(struct ctx *c);
int sb_cmp_failing(const struct ctx *c);	/* SB_EXIT_FAIL when the gate fails, else SB_EXIT_OK */

/* ---- the printers: they read the built model (and fmt/) only ---- */

/* compare_report.c: the report in c->o's format (--point's around ministat's block). */
void sb_cmp_report(const struct ctx *c);

/* compare_cells.c: a markdown table cell ("-" when empty) and a csv field, escaped. */
void sb_cmp_md_cell(FILE *out, const char *s);
void sb_cmp_csv_cell(FILE *out, const char *s);

/* compare_verdict.c: the verdict sentence and the notes. */
extern const char sb_cmp_correlated_note[];
extern const char sb_cmp_drift_note[];	/* under every report of single sweeps (no --vs) */
void sb_cmp_print_verdict(const struct ctx *c, int md);

/* compare_report_curves.c: the peak and efficiency table, then lkp's scalability (c->peaks, c->scal). */
void sb_cmp_print_curves(const struct ctx *c);

/* ---- the computing files: they build the model ---- */

/* A sweep of a pool by name: its run id, else its directory's name (the sweeps of a side share a label). */
static inline const char *sb_cmp_sweep_id(const struct sb_run *r)
{
	const char *slash = strrchr(r->dir, '/');

	return *r->run_id ? r->run_id : slash && slash[1] ? slash + 1 : r->dir;
}

/* compare_drift.c: every point's and curve's test on sweeps, with the machine's drift in it. */
struct sb_cmp_drift;
int sb_cmp_drift_open(struct ctx *c, int n, char **dirs, char *err, size_t errlen);
void sb_cmp_drift_pair(const struct ctx *c, struct pair *pr);
void sb_cmp_drift_words(const struct ctx *c, char *buf, size_t len);
void sb_cmp_drift_free(struct sb_cmp_drift *d);
/* --vs: side s's sweeps as loaded, one by one, into *sw; their count (0: the side is one sweep). */
int sb_cmp_drift_sides(const struct ctx *c, int s, const struct sb_run **sw);

/*
 * compare_reference.c: into buf a note when the reference loop's readings of
 * the pair's sweeps (meta's reference_start, reference_end) differ by more
 * than the loop varied within either sweep; "" otherwise, or when a side has
 * no reading or the loops differ. Under --vs a side's level is the geometric
 * mean of its sweeps', and the loop's own variation the most it varied within
 * a sweep or between two of a side's; "" unless every sweep of both sides has
 * a reading of one loop.
 */
void sb_cmp_reference_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size);

/*
 * compare_bimodal.c: into buf a note naming the points where a side's values
 * fall in two groups (sb_bimodal): a sweep's runs, or with --vs each sweep's
 * runs and the sweeps' means (4 sweeps or more); "" when none does.
 */
void sb_cmp_bimodal_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size);

/* compare_curves.c: each run's peak, plateau and efficiency by mode, and lkp's scalability. 0, or 3 (memory). */
int sb_cmp_curves(struct ctx *c);
void sb_cmp_curves_free(struct ctx *c);

/*
 * compare_point.c: --point MODE:TASKS: the point's values in every run, each
 * pair's rows cut to that point, ministat's block drawn (c->point). Returns 0,
 * or 2 or 3 with a message.
 */
int sb_cmp_point(struct ctx *c, char *err, size_t errlen);
void sb_cmp_point_free(struct ctx *c);

#endif
