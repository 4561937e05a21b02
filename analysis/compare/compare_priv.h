/* What compare_runs.c, compare_curve_test.c, compare_gate.c and compare_report.c share: a comparison's rows, curves, pairs, context. */
#ifndef SCALEBENCH_COMPARE_PRIV_H
#define SCALEBENCH_COMPARE_PRIV_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "compare_runs.h"
#include "results.h"
#include "stats.h"
#include "verdict.h"

/*
 * Private to compare/: cmd_compare sees only compare_runs.h. Calls go one way,
 * compare_runs -> compare_report -> compare_gate (and compare_runs -> compare_curve_test,
 * compare_gate).
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
	size_t npts, n0, n;	/* points in it; runs used a side (the fewest any point has) */
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
	char bimodal[1024];	/* a side's values fall in two groups (compare_bimodal.c), "" */
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

/* compare_report.c: the reports, and what --point prints around ministat's block. */
extern const char sb_cmp_correlated_note[];
extern const char sb_cmp_drift_note[];	/* under every report of single sweeps (no --vs) */
void sb_cmp_print_run_lines(const struct ctx *c);
void sb_cmp_print_md_runs(const struct ctx *c);
void sb_cmp_print_verdict(const struct ctx *c, int md);
void sb_cmp_report_text(const struct ctx *c);
void sb_cmp_report_md(const struct ctx *c);
void sb_cmp_report_csv(const struct ctx *c);
void sb_cmp_report_json(const struct ctx *c);
void sb_cmp_md_cell(FILE *out, const char *s);	/* a markdown table cell, escaped */

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
 * b's and x's sweeps (meta's reference_start, reference_end) differ by more
 * than the loop varied within either sweep; "" otherwise, or when a side has
 * no reading or the loops differ.
 */
void sb_cmp_reference_note(const struct sb_run *b, const struct sb_run *x, char *buf, size_t size);
/*
 * The same for --vs: a side's level is the geometric mean of its sweeps', and
 * the loop's own variation the most it varied within a sweep or between two
 * of a side's; "" unless every sweep of both sides has a reading of one loop.
 */
void sb_cmp_reference_pool_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size);

/*
 * compare_bimodal.c: into buf a note naming the points where a side's values
 * fall in two groups (sb_bimodal): a sweep's runs, or with --vs each sweep's
 * runs and the sweeps' means (4 sweeps or more); "" when none does.
 */
void sb_cmp_bimodal_note(const struct ctx *c, const struct pair *pr, char *buf, size_t size);

/* compare_curves.c: each run's peak, plateau and efficiency by mode, then lkp's scalability. */
void sb_cmp_print_curves(const struct ctx *c);

#endif
