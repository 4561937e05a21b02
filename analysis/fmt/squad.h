/* Runs as SQUAD (LKFT's results database) submission data: metrics, tests and metadata in one JSON object. */
#ifndef SCALEBENCH_SQUAD_H
#define SCALEBENCH_SQUAD_H

#include <stddef.h>
#include <stdio.h>

struct sb_ci_runs;

/*
 * The runs all (export/ci_run.h's model; one testbed: SQUAD files results by environment) as
 * {"metrics": {"scalebench/<test>/<mode>/<tasks>": [run means]}, "tests":
 * {"scalebench/<test>/sweep": "pass"|"fail", "scalebench/<test>/gate": ...},
 * "metadata": {job_id, datetime, ... strings}}. A sweep that is not complete
 * has no metric. gate: -1 none, else sb-compare's exit status (0 pass, else
 * fail). Nothing is written when the runs do not fit. Returns 0; 2 with err.
 */
int sb_squad_write(FILE *out, const struct sb_ci_runs *all, int gate, char *err, size_t errlen);

#endif
