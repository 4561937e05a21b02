/* Runs as KCIDB (KernelCI's common results database) JSON, schema v5.3: checkouts, builds, a test per point. */
#ifndef SCALEBENCH_KCIDB_H
#define SCALEBENCH_KCIDB_H

#include <stddef.h>
#include <stdio.h>

struct sb_kci_opts {
	const char *origin;		/* the submitting CI system ([a-z0-9_]+), "scalebench" by default */
	const char *commit;		/* the checkout's git commit, else meta's commit */
	const char *checkout_id;	/* an existing checkout: no checkout emitted */
	const char *build_id;		/* an existing build: neither checkout nor build emitted */
	int gate;			/* -1: no gate test; else sb-compare's (or changes') exit status */
};

/* Whether id is a KCIDB object id: "<origin>:<anything but NUL>", origin [a-z0-9_]+. */
int sb_kcidb_id_ok(const char *id);

struct sb_ci_runs;

/*
 * The runs all (export/ci_run.h's model, loaded whole with o->commit) as one
 * KCIDB v5.3 report on out: a checkout and a build per kernel (unless o names
 * existing ones), a test per testcase for the sweep, one per point (status
 * DONE, number in ops/s), a gate test when o->gate >= 0. Nothing is written
 * when a run does not fit (a test name that is no path segment; --gate over
 * two testcases). Returns 0; 2 with a message in err.
 */
int sb_kcidb_write(FILE *out, const struct sb_ci_runs *all, const struct sb_kci_opts *o, char *err,
		   size_t errlen);

#endif
