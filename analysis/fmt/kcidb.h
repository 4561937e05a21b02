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

/*
 * The runs dirs[0..n-1] as one KCIDB v5.3 report on out: a checkout and a build
 * per kernel (unless o names existing ones), a test per testcase for the sweep,
 * one per point (status DONE, number in ops/s), a gate test when o->gate >= 0.
 * Nothing is written unless all read. Returns 0; 2 or 3 with a message in err.
 */
int sb_kcidb_write(FILE *out, int n, char **dirs, const struct sb_kci_opts *o, char *err,
		   size_t errlen);

#endif
