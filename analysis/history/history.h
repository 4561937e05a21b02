/* The history of sweeps: the SQLite store, the loaded selection in order, its series, its reports. */
#ifndef SCALEBENCH_HISTORY_H
#define SCALEBENCH_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "changepoint.h"
#include "stat/drift.h"

struct sqlite3;

/* PRAGMA user_version of a database this sb-history writes (results/README.md "history.db"). */
#define SB_HIST_SCHEMA 2

/* ---- store.c: opening (schema, migration, busy timeout), transactions ---- */

enum { SB_HIST_READ, SB_HIST_WRITE, SB_HIST_CREATE };

/*
 * Open the database at path: READ (it must exist, read-only), WRITE (made
 * when absent, its schema created or migrated) or CREATE (an empty file the
 * caller has just made, O_EXCL). The file is never reached through a
 * symbolic link; it, and any -journal, -wal or -shm beside it, must be a
 * regular file of this user or root; its schema must be exactly the one
 * this sb-history's migrations make (no trigger, view, index or table
 * added). Waits up to timeout_ms for another writer's lock. Returns 0; 2
 * with one line in err for a missing, refused, corrupt, locked, read-only or
 * newer database; 3 for the environment (memory, a full disk, I/O).
 */
int sb_hist_open(const char *path, int how, int timeout_ms, struct sqlite3 **db, char *err,
		 size_t errlen);
void sb_hist_close(struct sqlite3 *db);

/* sql run on db; 0, or 2 (3: full disk, I/O, memory) with "path: sqlite's message" in err. */
int sb_hist_exec(struct sqlite3 *db, const char *sql, char *err, size_t errlen);

/* "PATH: the database is locked (...)": sqlite's error of db as one line into err; returns 2, or 3
 * for the environment (SQLite's FULL, IOERR, NOMEM; CANTOPEN for lack of space, memory or descriptors). */
int sb_hist_dberr(struct sqlite3 *db, char *err, size_t errlen);

/* ---- ingest.c: run directories into the store ---- */

struct sb_hist_ins;	/* prepared statements of one write transaction */

int sb_hist_ins_new(struct sqlite3 *db, struct sb_hist_ins **ins, char *err, size_t errlen);
void sb_hist_ins_free(struct sb_hist_ins *ins);

/* What sb_hist_add did: added, found there unchanged, replaced (its status changed), refused
 * (not complete, no point, or a run that measured no progress), another sweep stored under its
 * key (testcase, run id, testbed), or could not read (or trust) the run directory. */
enum { SB_ADD_NEW, SB_ADD_SAME, SB_ADD_REPLACED, SB_ADD_REFUSED, SB_ADD_TAKEN, SB_ADD_BAD, SB_ADD_NWHAT };

/*
 * Add run directory dir (read by sb_run_load): its sweep, testbed, points and
 * per-run means. A sweep already there (testcase, run id and testbed) is left
 * as it is unless its status changed; another sweep under that key (another
 * start, sweep_start, or directory) is refused. Not complete, or a run mean
 * not above 0, and !partial: refused. *what is SB_ADD_*; for REFUSED, TAKEN
 * and BAD, why is in err. Returns 0; 2 for a database
 * error, 3 when memory runs out (message in err).
 */
int sb_hist_add(struct sb_hist_ins *ins, const char *dir, int partial, int *what, char *err,
		size_t errlen);

/* ---- load.c: the selection in memory, in order ---- */

struct sb_hist_point {
	int mode;		/* index into sb_hist.modes */
	long tasks;
	size_t off, n;		/* its per-run means: obs[off .. off + n - 1] */
	double mean;
};

struct sb_hist_sweep {
	long id, testbed;
	char *test, *run_id, *params, *label, *release, *commit, *date, *status;
	char *tb_name;		/* the testbed as shown: its host (a VM's: host_name) */
	char *tb_facts;		/* cpu_model, topology, hwloc, placement */
	char *column;		/* the column it belongs to: label, or kernel (release@commit) */
	char *boot;		/* the boot it ran in (meta sweep_start's boot id); NULL: unknown */
	char *shape;		/* its run shape in words (sb_hist_shape_name of meta's duration, warmup, period_ms) */
	int judged;		/* a sweep a verdict judges: left out of the drift it learns (drift_for.c) */
	size_t group;		/* testcase x params x testbed */
	struct sb_hist_point *pts;
	size_t npts;
	size_t ord;		/* its place in the order (0 = first) */
};

struct sb_hist {
	struct sb_hist_sweep *sw;
	size_t nsw;
	double *obs;
	size_t nobs;
	char **modes;
	size_t nmodes;
	size_t ngroups;
};

/*
 * Load the sweeps of the given testcases (every one when ntests is 0) with
 * their points and per-run means, and testbed filter (host or host_name; NULL:
 * all). Returns 0; 2 or 3 with a message.
 */
int sb_hist_load(struct sqlite3 *db, char *const *tests, size_t ntests, const char *testbed,
		 struct sb_hist *h, char *err, size_t errlen);
void sb_hist_free(struct sb_hist *h);
void sb_hist_sweep_free(struct sb_hist_sweep *s);

enum sb_hist_order { SB_ORDER_TIME, SB_ORDER_VERSION, SB_ORDER_COMMITS };
enum sb_hist_column { SB_COL_LABEL, SB_COL_KERNEL };

/*
 * Put h's sweeps in order (ties: by date, testcase, run id), set ord,
 * column and group (testcase x params x testbed; any_params: testcase x
 * testbed, sweeps of other params in one series). SB_ORDER_COMMITS: commits_file holds one commit
 * a line (git rev-list --reverse), oldest first; sweeps whose commit is not
 * in it are dropped, and *dropped says how many. Returns 0, 2 or 3.
 */
int sb_hist_order(struct sb_hist *h, enum sb_hist_order order, const char *commits_file,
		  enum sb_hist_column col, int any_params, size_t *dropped, char *err, size_t errlen);

/* s is a real calendar date, YYYY-MM-DD: 1 when that is all of it, 2 when a time follows ("T..."), else 0. */
int sb_hist_date(const char *s);

/* Kernel version order: 6.9 < 6.10-rc1 < 6.10 < 6.10.1 (strcmp past the numbers). */
int sb_kver_cmp(const char *a, const char *b);

/* ---- series.c: one point (or a mode's curve) of one group, over its sweeps ---- */

struct sb_hist_series {
	size_t group;
	int mode;
	long tasks;		/* 0: the mode's curve (geometric mean over its counts) */
	size_t *sw;		/* the sweeps (index into h->sw), in order */
	struct sb_cp_obs *obs;	/* obs[i]: sweep sw[i]'s per-run means */
	size_t n;
	double *own;		/* a curve's values */
};

/*
 * Every series of h: each group's points (mode x tasks), then each mode's
 * curve over the counts every sweep of the series has (at least 2). Returns
 * 0 or 3.
 */
int sb_hist_series(const struct sb_hist *h, struct sb_hist_series **s, size_t *ns);
void sb_hist_series_free(struct sb_hist_series *s, size_t ns);

/*
 * A mode's curve in one sweep: run k's value is exp(mean over the counts
 * tasks[0..nt-1] of log(run k's mean)), for the runs every count has and
 * that have a curve value (a run with a mean of 0, below 0 or not finite at
 * some count has none: curve_value.h; that point is a failed point, named by
 * changes and show). Writes at most cap values to out; returns how many (0
 * when a count is missing, no run has a value, or memory runs out).
 */
size_t sb_hist_curve(const struct sb_hist *h, const struct sb_hist_sweep *s, int mode,
		     const long *tasks, size_t nt, double *out, size_t cap);

/* "processes:4", "threads:curve" */
void sb_hist_point_name(const struct sb_hist *h, int mode, long tasks, char *buf, size_t len);

/* ---- drift.c: the machine's drift each series' verdicts use ---- */

struct sb_hist_drift;

/*
 * Estimate the drift of every series of s (sb_drift_series) and pool them by
 * testbed. Returns 0, or -1 (errno ENOMEM). h and s must outlive it.
 */
int sb_hist_drift_new(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
		      struct sb_hist_drift **out);
void sb_hist_drift_free(struct sb_hist_drift *d);

/*
 * The drift series si's verdicts use for a sweep of shape (sb_hist_shape_name;
 * NULL: the shape of the series' newest sweep), between sweeps of one boot
 * (across 0) or of two (1): base when it is --drift (SB_DRIFT_GIVEN or NONE);
 * else the series' own estimate of that shape moderated by its testbed's
 * other series of that shape (counted as at most as many degrees of freedom
 * as the testbed's sweeps of that shape give, and SB_DRIFT_PRIOR_MAXDF), else
 * by the testbed's sweeps of other shapes, else by base (the default). With
 * nothing of that shape known: the testbed's other shapes as the prior only;
 * base itself when nothing is known. The words name the shape when the
 * testbed has sweeps of more than one.
 */
void sb_hist_drift_of(const struct sb_hist_drift *d, size_t si, const char *shape, int across,
		      const struct sb_drift *base, struct sb_drift *out);
/* The same for a point the history has not seen, on series si's testbed: its pool alone. */
void sb_hist_drift_testbed(const struct sb_hist_drift *d, size_t si, const char *shape, int across,
			   const struct sb_drift *base, struct sb_drift *out);

/* The shapes d knows: how many; the index of one (nshapes: unknown); a sweep's (index into h->sw);
 * shape k's words; series si's own estimates of shape k (within and across boots). */
size_t sb_hist_drift_nshapes(const struct sb_hist_drift *d);
size_t sb_hist_drift_shape_index(const struct sb_hist_drift *d, const char *shape);
size_t sb_hist_drift_shape_of(const struct sb_hist_drift *d, size_t sweep);
const char *sb_hist_drift_shape(const struct sb_hist_drift *d, size_t k);
const struct sb_drift_est *sb_hist_drift_own(const struct sb_hist_drift *d, size_t si, size_t shape);

/* A sweep's run shape in words, as the drift is keyed by it: "duration 5, warmup auto, period_ms 1000"
 * (meta's keys; all empty: "an unknown shape"). malloc'd; NULL when memory runs out. */
char *sb_hist_shape_name(const char *duration, const char *warmup, const char *period_ms);

/* Series se's sweeps as the drift estimate takes them (mean and variance of log runs, boot), into out[se->n]. */
int sb_hist_series_sweeps(const struct sb_hist *h, const struct sb_hist_series *se,
			  struct sb_drift_sweep *out);

/* ---- drift_report.c: sb-history drift ---- */

struct sb_drift_report_opts {
	double run_cost, sweep_cost, reboot_cost;	/* seconds: a run, a sweep's own, a reboot's */
	double target;					/* the change to plan for, % */
};

/*
 * The change each series could show from one kernel to the next (two sweeps
 * of its typical runs across a boot, the drift learned for it in them; two-
 * sided 5%, SB_POWER): the smallest and largest over the points into range[0,
 * 1], over the curves into range[2, 3] (infinite: none). 0, or -1 (memory).
 */
int sb_hist_detectable_range(const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
			     double range[4]);

/* Each group's runs' sd and drift within and across boots, and the advice, by sweep shape where a
 * group has sweeps of several. Returns 0, 2 or 3. */
int sb_hist_drift_report(FILE *out, const struct sb_hist *h, const struct sb_drift_report_opts *o,
			 char *err, size_t errlen);

/*
 * The report's advice for one group (testcase x params x testbed) and
 * sweep shape of h, in two lines on out (the sweeps a side for o->target
 * and the runs a sweep; then the figures it rests on): 1 when printed, 0
 * when the history has no figure of that group and shape (nothing printed),
 * -1 when memory runs out.
 */
int sb_hist_drift_advise(FILE *out, const struct sb_hist *h, const struct sb_hist_series *s, size_t ns,
			 const struct sb_hist_drift *d, size_t group, const char *shape,
			 const struct sb_drift_report_opts *o);

/*
 * The same with the sweeps in skip (indexes into h->sw: the sweeps being
 * judged) left out of every estimate: a verdict does not learn the drift from
 * the very difference it judges. pool: series si's testbed pool without
 * them, by shape (sb_hist_drift_pool_without, once for a set of skipped
 * sweeps: a new array, NULL when memory runs out; free it; it also holds
 * each series' own estimates without them, which _of_without then reads
 * instead of making them again). _of_without returns 0, or -1 when memory
 * runs out.
 */
struct sb_drift_est (*sb_hist_drift_pool_without(const struct sb_hist_drift *d, size_t si, const size_t *skip,
						 size_t nskip))[2];
int sb_hist_drift_of_without(const struct sb_hist_drift *d, size_t si, const char *shape, int across,
			     const size_t *skip, size_t nskip, const struct sb_drift_est (*pool)[2],
			     const struct sb_drift *base, struct sb_drift *out);

/* ---- drift_for.c: the drift of a run directory's points, from a history file ---- */

struct sb_run;
struct sb_drift_lookup;

/*
 * Open the history at path (read-only) for run r's testcase, params and
 * testbed, leaving out the sweeps in skip (those being judged). A history
 * that has never seen r's testbed gives no figure. Returns 0, or 2 / 3 with
 * a message (a missing file is 2: the caller decides whether that matters).
 */
int sb_drift_lookup_open(const char *path, const struct sb_run *r, const struct sb_run *const *skip,
			 size_t nskip, int timeout_ms, struct sb_drift_lookup **out, char *err,
			 size_t errlen);
void sb_drift_lookup_free(struct sb_drift_lookup *l);
/*
 * The lookup a comparison learns its drift from (*out NULL: none): the
 * history given (--history), else $SB_HISTORY, else history.db of the
 * results directory r's run directory is in (RESULTS/<test>/<run-id>),
 * opened as sb_drift_lookup_open; note says which, or why none is used (no
 * file there; one that is not a readable history: not fatal, the default
 * stands). Returns 0, or SB_EXIT_ENV with why in err.
 */
int sb_drift_lookup_find(const char *history, const struct sb_run *r, const struct sb_run *const *skip,
			 size_t nskip, int timeout_ms, struct sb_drift_lookup **out, char *note, size_t notelen,
			 char *err, size_t errlen);

/* sb_hist_drift_advise for r's testcase, params, testbed and shape: 1 printed, 0 no figure, -1 memory. */
int sb_drift_lookup_advise(FILE *out, const struct sb_drift_lookup *l, const struct sb_drift_report_opts *o);

/* The drift of r's point (mode, tasks; tasks 0: the mode's curve): sb_hist_drift_of's, else base. */
void sb_drift_lookup_point(const struct sb_drift_lookup *l, const char *mode, long tasks, int across,
			   const struct sb_drift *base, struct sb_drift *out);

/* ---- show.c and changes.c: the reports ---- */

/*
 * A report's formats by name, each declared once, in its printer's table
 * (show_print.c, changes_print.c): the i-th name, NULL past the last. The
 * first is the default; sb-history's --format takes what either table names.
 */
const char *sb_show_format(size_t i);
const char *sb_changes_format(size_t i);
/* formats.c: whether name is one of table's (sb_show_format or sb_changes_format) */
int sb_hist_format_in(const char *(*table)(size_t), const char *name);
/* table's names as words on buf: "text, markdown or json" */
void sb_hist_format_words(const char *(*table)(size_t), char *buf, size_t len);
/* --format's help on buf: "text (default), markdown, csv (show), json" */
void sb_hist_format_help(char *buf, size_t len);

struct sb_show_opts {
	const char *format;	/* one of sb_show_format's names */
	int by_testbed;		/* columns are testbeds, for one kernel */
	const char *kernel;	/* --by testbed: that column key (NULL: the newest) */
	double drift_pct;	/* --drift: a sweep's offset sd, %; < 0: learned from the history */
};

/* The N-way table of h (ordered) on out. Returns 0, 2 (nothing to show) or 3, message in err. */
int sb_hist_show(FILE *out, const struct sb_hist *h, const struct sb_show_opts *o, char *err,
		 size_t errlen);

struct sb_changes_opts {
	const char *format;	/* one of sb_changes_format's names */
	const char *since;	/* KERNEL (a column, release or commit) or DATE (YYYY-MM-DD); NULL */
	struct sb_cp_opts cp;
	int min_seg_given;	/* --min-segment given: a selection no series of which is 2 segments long is refused */
};

/*
 * Change points over every series of h, found at once; printed on out.
 * Returns 0 (no regression at or after since still holding at the newest
 * sweep), 1 (one or more), 2 or 3 with a message in err.
 */
int sb_hist_changes(FILE *out, const struct sb_hist *h, const struct sb_changes_opts *o,
		    char *err, size_t errlen);

#endif
