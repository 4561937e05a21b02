/* What sb-bisect's parts share: its options, the tree (git), a sweep through runtest.sh, the step and the report. */
#ifndef SCALEBENCH_BISECT_H
#define SCALEBENCH_BISECT_H

#include <stdio.h>

#include "bisect/decide.h"
#include "bisect/point.h"

/* Exit codes git bisect run reads: 0 good, 1 bad, 125 skip, 128 stop the bisect (an error or noise). */
enum { SB_BISECT_GOOD = 0, SB_BISECT_BAD = 1, SB_BISECT_SKIP = 125, SB_BISECT_ABORT = 128,
       SB_BISECT_INTERRUPTED = 130 };

/* Sweeps an end at most (--good DIR and --bad DIR, each given once or more). */
#define SB_BISECT_MAXENDS 16

struct sb_bisect_opts {
	const char *good, *bad;	/* the ends' run directories: each end's first sweep (the step log's key) */
	const char *goods[SB_BISECT_MAXENDS], *bads[SB_BISECT_MAXENDS];	/* every sweep of each end */
	size_t ngood, nbad;
	const char *point;	/* --point as given */
	const char *build;	/* --build CMD, NULL: none */
	const char *kernel;	/* --kernel PATH (VM), NULL: --host */
	int host;
	const char *results;	/* where sweeps and the step log go */
	const char *tests_dir;	/* --tests-dir: SB_TESTS_DIR for runtest.sh (--host) */
	const char *runtest;	/* runtest.sh to run */
	struct sb_rule rule;
	int max_runs_given;	/* --max-runs given (else the drift's default, SB_DRIFT_MAX_RUNS, with the drift) */
	double drift_pct;	/* --drift: a sweep's offset sd, %; < 0: learned (history, else the default) */
	int grace_s;		/* a child's time to end after a signal */
	int format_md;		/* report: markdown */
	const char *log;	/* report: a git bisect log file; NULL: run git bisect log */
	char **pass;		/* runtest.sh options after --, NULL-terminated */
	char *command;		/* this command line, shell-quoted (the step log, the report) */
};

/* The commit checked out (40 hex) into sha; 0, or -1 with a message on stderr. */
int sb_tree_head(char sha[48]);

/* The step log's path under o->results (malloc'd). */
char *sb_steplog_path(const struct sb_bisect_opts *o);

/*
 * Build (o->build in the tree), 0 when there is none or it succeeded; its exit
 * status otherwise (128 + signal when killed).
 */
int sb_tree_build(const struct sb_bisect_opts *o);

/*
 * One sweep at commit sha through runtest.sh: args (TEST and its options,
 * NULL-terminated) plus --kernel, --results, --label bisect-SHA12 and o->pass;
 * SB_COMMIT=sha in its environment, SB_TESTS_DIR for --host with --tests-dir.
 * The run directory it printed into rundir (malloc'd, made absolute). Returns runtest.sh's
 * exit status (128 + signal when killed), or -1 when it could not run.
 */
int sb_sweep(const struct sb_bisect_opts *o, const char *sha, char *const args[], char **rundir);

/* sb-bisect (a step of git bisect run): the exit code for git. */
int sb_bisect_step(const struct sb_bisect_opts *o);

/* sb-bisect report: 0, or 2/3 with a message on stderr. */
int sb_bisect_report(const struct sb_bisect_opts *o, FILE *out);

/* "sb-bisect: ..." on stderr. */
void sb_bisect_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
