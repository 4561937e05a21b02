/* The SQUAD writer: every point's run means as a metric, the sweep (and gate) as tests, the run's metadata, from the exports' model (export/ci_run.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ci_run.h"
#include "msg/exit.h"
#include "export.h"
#include "squad.h"

/* "scalebench/<test>/<mode>/<tasks>": [each run's mean] for a complete sweep's points. */
static int metrics(FILE *out, const struct sb_ci_run *c, int first)
{
	if (c->outcome != SB_CI_DONE)
		return first;
	for (int m = 0; m < SB_NMODES; m++)
		for (size_t i = 0; i < c->cv[m].n; i++) {
			const double *v = c->means[m][i].v;
			size_t nv = c->means[m][i].n;

			if (nv == 0)
				continue;
			fprintf(out, "%s\n    \"scalebench/%s/%s/%ld\": [", first ? "" : ",", c->r.test,
				c->cv[m].mode, c->cv[m].pt[i].tasks);
			for (size_t k = 0; k < nv; k++) {
				if (k)
					fputs(", ", out);
				sb_json_num(out, v[k]);
			}
			fputc(']', out);
			first = 0;
		}
	return first;
}

static void meta_str(FILE *out, const char *key, const char *value)
{
	fprintf(out, ",\n    \"%s\": ", key);
	sb_json_str(out, value ? value : "");
}

/* SQUAD's metadata: strings only; job_id from the runs' keys (the same runs, the same id). */
static void metadata(FILE *out, const struct sb_ci_run *runs, int n, const char *job_id)
{
	fputs("  \"metadata\": {\n    \"job_id\": ", out);
	sb_json_str(out, job_id);
	meta_str(out, "datetime", runs[0].r.date);
	meta_str(out, "testbed", runs[0].testbed);
	meta_str(out, "kernel", runs[0].r.kernel);
	meta_str(out, "commit", runs[0].commit);
	meta_str(out, "cpu_model", runs[0].r.cpu_model);
	meta_str(out, "topology", runs[0].r.topology);
	meta_str(out, "scalebench_revision", runs[0].git_revision);
	fputs(",\n    \"run_ids\": ", out);
	{
		size_t len = 1;
		char *all;

		for (int i = 0; i < n; i++)
			len += strlen(runs[i].r.run_id) + 1;
		all = calloc(len, 1);
		for (int i = 0; all && i < n; i++) {
			if (i)
				strcat(all, " ");
			strcat(all, runs[i].r.run_id);
		}
		sb_json_str(out, all ? all : "");
		free(all);
	}
	fputs("\n  }\n", out);
}

/* One testbed (one SQUAD environment), one run per testcase (one name per metric). */
static int check_runs(const struct sb_ci_run *runs, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		if (!runs[i].test_plain) {
			snprintf(err, errlen, "%s: test '%s' is not a SQUAD name ([A-Za-z0-9_-])", runs[i].r.dir,
				 runs[i].r.test);
			return SB_EXIT_USAGE;
		}
		if (strcmp(runs[i].testbed, runs[0].testbed) != 0) {
			snprintf(err, errlen, "%s and %s: two testbeds (%s, %s) are two SQUAD environments: "
				 "export them into separate files", runs[0].r.dir, runs[i].r.dir,
				 runs[0].testbed, runs[i].testbed);
			return SB_EXIT_USAGE;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(runs[i].r.test, runs[j].r.test) == 0) {
				snprintf(err, errlen, "%s and %s: two runs of %s would have the same metric names: "
					 "export them into separate files", runs[j].r.dir, runs[i].r.dir,
					 runs[i].r.test);
				return SB_EXIT_USAGE;
			}
	}
	return 0;
}

static void write_all(FILE *out, const struct sb_ci_runs *all, int gate)
{
	const struct sb_ci_run *runs = all->run;
	int n = all->n;
	int first = 1;

	fputs("{\n  \"metrics\": {", out);
	for (int i = 0; i < n; i++)
		first = metrics(out, &runs[i], first);
	fputs(first ? "},\n" : "\n  },\n", out);
	fputs("  \"tests\": {", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s\n    \"scalebench/%s/sweep\": \"%s\"", i ? "," : "", runs[i].r.test,
			runs[i].outcome == SB_CI_DONE ? "pass" : "fail");
	if (gate >= 0)
		fprintf(out, ",\n    \"scalebench/%s/gate\": \"%s\"", runs[0].r.test, gate == 0 ? "pass" : "fail");
	fputs("\n  },\n", out);
	metadata(out, runs, n, all->job_id);
	fputs("}\n", out);
}

int sb_squad_write(FILE *out, const struct sb_ci_runs *all, int gate, char *err, size_t errlen)
{
	int rc = check_runs(all->run, all->n, err, errlen);

	if (rc == 0 && gate >= 0 && all->n > 1) {
		snprintf(err, errlen, "--gate judges one testcase: give one run directory");
		rc = SB_EXIT_USAGE;
	}
	if (rc == 0)
		write_all(out, all, gate);
	return rc;
}
