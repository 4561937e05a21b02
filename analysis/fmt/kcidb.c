/* The KCIDB v5.3 writer: a checkout and a build per kernel, a test per sweep, per point and for the gate, from the exports' model (export/ci_run.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ci_run.h"
#include "msg/exit.h"
#include "export.h"
#include "kcidb.h"

int sb_kcidb_id_ok(const char *id)
{
	const char *colon = strchr(id, ':');

	if (colon == NULL || colon == id)
		return 0;
	for (const char *p = id; p < colon; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

static const char *commit_of(const struct sb_ci_run *c, const struct sb_kci_opts *o)
{
	return o->commit ? o->commit : c->commit;
}

/* KCIDB's git_commit_hash is a full SHA-1 in lower case; anything else goes into misc. */
static int full_sha(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == 40 && s[n] == '\0';
}

static void field(FILE *out, const char *name, const char *value)
{
	fprintf(out, ", \"%s\": ", name);
	sb_json_str(out, value);
}

/* A checkout and a build for each kernel not seen before it in runs (o names none). */
static void write_builds(FILE *out, const struct sb_ci_run *runs, int n, const struct sb_kci_opts *o,
			 int checkouts)
{
	int first = 1;

	fputs(checkouts ? "  \"checkouts\": [" : "  \"builds\": [", out);
	for (int i = 0; i < n; i++) {
		const char *key = runs[i].build_key;
		int seen = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(key, runs[j].build_key) == 0;
		if (seen)
			continue;
		fprintf(out, "%s\n    {\"id\": \"%s:%s\", \"origin\": \"%s\"", first ? "" : ",", o->origin,
			key, o->origin);
		if (checkouts) {
			if (full_sha(commit_of(&runs[i], o)))
				field(out, "git_commit_hash", commit_of(&runs[i], o));
			fputs(", \"valid\": true", out);
		} else {
			if (o->checkout_id)
				field(out, "checkout_id", o->checkout_id);
			else
				fprintf(out, ", \"checkout_id\": \"%s:%s\"", o->origin, key);
			if (runs[i].arch[0])
				field(out, "architecture", runs[i].arch);
			fputs(", \"status\": \"PASS\"", out);
		}
		fputs(", \"misc\": {\"kernel\": ", out);
		sb_json_str(out, runs[i].r.kernel ? runs[i].r.kernel : "");
		field(out, "commit", commit_of(&runs[i], o));
		fputs("}}", out);
		first = 0;
	}
	fputs(first ? "],\n" : "\n  ],\n", out);
}

/* The fields every test of run c shares: build, start, environment (the testbed). */
static void test_common(FILE *out, const struct sb_ci_run *c, const struct sb_kci_opts *o)
{
	if (o->build_id)
		field(out, "build_id", o->build_id);
	else
		fprintf(out, ", \"build_id\": \"%s:%s\"", o->origin, c->build_key);
	fprintf(out, ", \"origin\": \"%s\"", o->origin);
	if (c->r.date && *c->r.date)
		field(out, "start_time", c->r.date);
	fputs(", \"environment\": {\"comment\": ", out);
	sb_json_str(out, c->testbed);
	fputs(", \"misc\": {\"testbed\": ", out);
	sb_json_str(out, c->testbed);
	fputs(", \"host\": ", out);
	sb_json_str(out, c->r.host ? c->r.host : "");
	fputs(", \"cpu_model\": ", out);
	sb_json_str(out, c->r.cpu_model ? c->r.cpu_model : "");
	fputs(", \"topology\": ", out);
	sb_json_str(out, c->r.topology ? c->r.topology : "");
	fputs("}}", out);
}

/* misc's run-level keys: run id, label, params, the sweep's status, the kernel and commit. */
static void misc_run(FILE *out, const struct sb_ci_run *c, const struct sb_kci_opts *o)
{
	fputs("\"run_id\": ", out);
	sb_json_str(out, c->r.run_id);
	field(out, "label", c->r.label ? c->r.label : "");
	field(out, "params", c->r.params ? c->r.params : "");
	field(out, "sweep_status", c->r.status ? c->r.status : "");
	field(out, "kernel", c->r.kernel ? c->r.kernel : "");
	field(out, "commit", commit_of(c, o));
	field(out, "scalebench_revision", c->git_revision);
}

static const char *status_word(enum sb_ci_outcome oc)
{
	return oc == SB_CI_DONE ? "DONE" : oc == SB_CI_FAILED ? "FAIL" : "ERROR";
}

/* One point's test: DONE with its number in a complete sweep, else FAIL or ERROR without one. */
static void point_test(FILE *out, const struct sb_ci_run *c, const char *mode, long tasks,
		       const struct sb_curve_point *p, const struct sb_kci_opts *o)
{
	enum sb_ci_outcome oc = c->outcome;

	fprintf(out, ",\n    {\"id\": \"%s:%s.%s.%s.%ld\"", o->origin, c->r.test, c->key, mode, tasks);
	fprintf(out, ", \"path\": \"scalebench.%s.%s.%ld\", \"status\": \"%s\"", c->r.test, mode, tasks,
		status_word(oc));
	test_common(out, c, o);
	if (oc == SB_CI_DONE && p != NULL) {
		fputs(", \"number\": {\"value\": ", out);
		sb_json_num(out, p->mean);
		fputs(", \"unit\": \"ops/s\", \"prefix\": \"metric\"}", out);
	}
	fputs(", \"misc\": {", out);
	misc_run(out, c, o);
	if (p != NULL) {
		fprintf(out, ", \"runs\": %zu", p->nruns);
		if (!isnan(p->ci)) {
			fputs(", \"ci95_half_width\": ", out);
			sb_json_num(out, p->ci);
			fputs(", \"ci95\": [", out);
			sb_json_num(out, fmax(p->mean - p->ci, 0));
			fputs(", ", out);
			sb_json_num(out, p->mean + p->ci);
			fputc(']', out);
		}
		if (p->peak == SB_PEAK_BEST || p->peak == SB_PEAK_PLATEAU)
			fprintf(out, ", \"peak\": \"%s\"", p->peak == SB_PEAK_BEST ? "best" : "plateau");
	}
	fputs("}}", out);
}

/* The sweep's own test, then a test per point (and the point a failed sweep stopped at). */
static void run_tests(FILE *out, const struct sb_ci_run *c, const struct sb_kci_opts *o, int first)
{
	enum sb_ci_outcome oc = c->outcome;
	int failed_seen = 0;

	fprintf(out, "%s\n    {\"id\": \"%s:%s.%s\", \"path\": \"scalebench.%s\", \"status\": \"%s\"",
		first ? "" : ",", o->origin, c->r.test, c->key, c->r.test,
		oc == SB_CI_DONE ? "PASS" : status_word(oc));
	test_common(out, c, o);
	if (oc != SB_CI_DONE && c->error[0]) {
		fputs(", \"log_excerpt\": ", out);
		sb_json_str(out, c->error);
	}
	fputs(", \"misc\": {", out);
	misc_run(out, c, o);
	fputs("}}", out);
	for (int m = 0; m < SB_NMODES; m++)
		for (size_t i = 0; i < c->cv[m].n; i++) {
			const struct sb_curve_point *p = &c->cv[m].pt[i];

			point_test(out, c, c->cv[m].mode, p->tasks, p, o);
			if (strcmp(c->failed_mode, c->cv[m].mode) == 0 && p->tasks == c->failed_tasks)
				failed_seen = 1;
		}
	if (oc != SB_CI_DONE && !failed_seen && c->failed_plain)
		point_test(out, c, c->failed_mode, c->failed_tasks, NULL, o);
}

/* The gate: PASS on exit 0, FAIL on 1 (a regression), ERROR otherwise; the first run's key. */
static void gate_test(FILE *out, const struct sb_ci_run *c, const struct sb_kci_opts *o)
{
	fprintf(out, ",\n    {\"id\": \"%s:%s.%s.gate\", \"path\": \"scalebench.%s.gate\", \"status\": \"%s\"",
		o->origin, c->r.test, c->key, c->r.test,
		o->gate == 0 ? "PASS" : o->gate == 1 ? "FAIL" : "ERROR");
	test_common(out, c, o);
	fprintf(out, ", \"misc\": {\"compare_exit\": %d}}", o->gate);
}

/* Every run of one testcase (the gate judges one), names fit for KCIDB's paths. */
static int check_runs(const struct sb_ci_run *runs, int n, const struct sb_kci_opts *o, char *err,
		      size_t errlen)
{
	for (int i = 0; i < n; i++) {
		if (!runs[i].test_plain) {
			snprintf(err, errlen, "%s: test '%s' is not a KCIDB path segment ([A-Za-z0-9_-])",
				 runs[i].r.dir, runs[i].r.test);
			return SB_EXIT_USAGE;
		}
		if (o->gate >= 0 && strcmp(runs[i].r.test, runs[0].r.test) != 0) {
			snprintf(err, errlen, "--gate judges one testcase: %s is %s, %s is %s", runs[0].r.dir,
				 runs[0].r.test, runs[i].r.dir, runs[i].r.test);
			return SB_EXIT_USAGE;
		}
	}
	return 0;
}

int sb_kcidb_write(FILE *out, const struct sb_ci_runs *all, const struct sb_kci_opts *o, char *err,
		   size_t errlen)
{
	const struct sb_ci_run *runs = all->run;
	int n = all->n, rc = check_runs(runs, n, o, err, errlen);

	if (rc != 0)
		return rc;
	fputs("{\n  \"version\": {\"major\": 5, \"minor\": 3},\n", out);
	if (!o->checkout_id && !o->build_id)
		write_builds(out, runs, n, o, 1);
	if (!o->build_id)
		write_builds(out, runs, n, o, 0);
	fputs("  \"tests\": [", out);
	for (int i = 0; i < n; i++)
		run_tests(out, &runs[i], o, i == 0);
	if (o->gate >= 0)
		gate_test(out, &runs[0], o);
	fputs("\n  ]\n}\n", out);
	return 0;
}
