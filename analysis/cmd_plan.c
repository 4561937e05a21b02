/* sb-plan: the sweep planner's tool: runtest.sh asks it for the plan, each next run, the ETA; it writes points.csv. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/plan_conf.h"
#include "msg/msg.h"
#include "msg/exit.h"
#include "cli.h"
#include "plan/plan.h"
#include "plan/plan_files.h"
#include "plan/plan_sweep.h"
#include "plan/plan_text.h"
#include "io/results.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */

#define PROG "sb-plan"


static const char usage_text[] =
	"usage: sb-plan plan CONF [--sweep FILE]\n"
	"       sb-plan init CONF STATE [--modes M,M] [--allow MS | --sweep FILE --now T] [--run-dir DIR]\n"
	"       sb-plan next CONF STATE --run-dir DIR [--ran MODE:TASKS:MS|MODE:TASKS:T0:T1]\n"
	"                    [--sweep FILE --now T | --elapsed MS --per-run MS --later N --budget-left MS]\n"
	"The sweep's planner (docs/RUNTEST.md, \"Which task counts\"). CONF: the sweep's\n"
	"options and topology (key=value lines, runtest.sh writes them). plan: the\n"
	"counts and the estimates as key=value lines (--dry-run). init: a testcase's\n"
	"plan into STATE, its points.csv into DIR. next: counts the run just made\n"
	"(--ran), then prints 'run MODE TASKS RUN ROUND' or 'done', 'points CSV' (the counts\n"
	"so far), 'unmet MODE:TASKS...' and 'progress TEXT'. --sweep: the sweep's clock and\n"
	"budget between calls (plan makes it); T: a time, seconds since the epoch with up\n"
	"to 6 decimals ($EPOCHREALTIME): sb-plan does the arithmetic on times.\n"
	"Options:\n";

static void usage_error(const char *msg)
{
	sb_usage_die("see sb-plan --help", "%s", msg);
}

/* ---- the run directory: the points' run means, points.csv ---- */

/* Each point's run means from DIR/samples.csv (the one aggregation, sb_run_samples). */
static void load_values(struct sb_plan *plan, const char *dir)
{
	struct sb_run r;
	char *path, err[PATH_MAX + 256];
	int rc;

	if (asprintf(&path, "%s/samples.csv", dir) < 0)
		sb_die(SB_EXIT_ENV, "out of memory");
	rc = sb_run_samples(path, &r, err, sizeof(err));
	if (rc != 0)
		sb_die(rc, "%s", err);
	for (size_t i = 0; i < plan->np; i++) {
		struct sb_plan_point *p = &plan->p[i];
		const struct sb_point *pt = sb_run_find(&r, sb_mode_name[p->mode], (long)p->tasks);
		size_t n = 0;
		const double *means = pt ? sb_point_run_means(pt, &n) : NULL;

		sb_plan_set_values(p, means, n);
	}
	sb_run_free(&r);
	free(path);
}

/* DIR/points.csv (format/points.h), one row per planned point, through a temporary name. */
static void points_write(const struct sb_plan *plan, const char *dir)
{
	char *path, *tmp;
	FILE *f;

	if (asprintf(&path, "%s/points.csv", dir) < 0 || asprintf(&tmp, "%s/.points.csv.%ld.tmp", dir, (long)getpid()) < 0)
		sb_die(SB_EXIT_ENV, "out of memory");
	f = fopen(tmp, "w");
	if (!f)
		sb_die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(errno));
	sb_msg_remove_on_die(tmp);
	fprintf(f, "%s\n", SB_POINTS_HEADER);
	for (size_t m = 0; m < plan->c.nmodes; m++)
		for (size_t i = 0; i < plan->np; i++) {
			const struct sb_plan_point *p = &plan->p[i];

			if (p->mode == plan->c.modes[m])
				sb_points_put_row(f, sb_mode_name[p->mode], p->tasks, sb_origin_name[p->origin],
						  p->reason);
		}
	if (fflush(f) == EOF || ferror(f) || fclose(f) == EOF)
		sb_die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(errno));
	if (rename(tmp, path) < 0)
		sb_die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(errno));
	sb_msg_remove_on_die(NULL);
	free(tmp);
	free(path);
}

/* The distinct counts, ascending: "1,2,4". */
static void print_counts(FILE *out, const struct sb_plan *plan)
{
	unsigned long last = 0;
	int first = 1;

	for (size_t i = 0; i < plan->np; i++) {
		if (!first && plan->p[i].tasks == last)
			continue;
		fprintf(out, "%s%lu", first ? "" : ",", plan->p[i].tasks);
		last = plan->p[i].tasks;
		first = 0;
	}
}

static void start(struct sb_plan *plan)
{
	char err[512];
	int rc = sb_plan_start(plan, err, sizeof(err));

	if (rc != 0)
		sb_die(rc, "%s", err);
}

static void sweep_io(int write, const char *path, struct sb_plan_sweep *sw)
{
	char err[PATH_MAX + 256];
	int rc = write ? sb_plan_sweep_write(path, sw, err, sizeof(err)) : sb_plan_sweep_read(path, sw, err, sizeof(err));

	if (rc != 0)
		sb_die(rc, "%s", err);
}

static int cmd_plan(const char *conf, const char *sweep)
{
	struct sb_plan plan = { 0 };
	struct sb_plan_estimate e;
	char *text = NULL;
	unsigned long last = 0;

	sb_plan_conf_read(conf, &plan.c, &text);
	if (plan.c.nmodes == 0)
		sb_plan_set_modes(&plan.c, "processes", conf);	/* the counts are the same in every mode */
	start(&plan);
	sb_plan_estimate(&plan, &e);
	printf("points=");
	print_counts(stdout, &plan);
	printf("\nnpoints=%zu\nlargest=%lu\nbudget_points=%zu\nruns_min=%lu\nruns_max=%lu\n",
	       e.npoints, plan.p[plan.np - 1].tasks, e.budget_points, e.runs_min, e.runs_max);
	printf("budget_ms=%ld\nmin_ms=%ld\nmax_ms=%ld\nmax_points=%u\nrun_ms=%ld\n", e.budget_ms, e.min_ms,
	       e.max_ms, plan.c.max_points, plan.c.run_ms);
	if (e.runs_min > 0 && plan.c.run_ms > 0) {	/* a VM guest's --timeout: three times the plan and 5 minutes */
		long ms = (long)e.runs_min * plan.c.run_ms, round = (long)(e.runs_min / plan.c.min_runs) * plan.c.run_ms;

		printf("timeout_s=%ld\nround_timeout_s=%ld\n", 300 + 3 * (e.max_ms > ms ? e.max_ms : ms) / 1000,
		       300 + 3 * round / 1000);
	}
	printf("perf_guard_s=%ld\n", plan.c.run_ms * 3 / 1000 + 30);	/* a perf recording of one run ends by then */
	if (sweep) {	/* the sweep's clock and budget, before its first testcase */
		struct sb_plan_sweep sw = { plan.c.adaptive ? e.budget_ms : -1, (long)e.budget_points,
					    (long)e.budget_points * plan.c.modes_total, 0, 0, plan.c.run_ms };

		sweep_io(1, sweep, &sw);
	}
	for (size_t i = 0; i < plan.np; i++) {
		if (i && plan.p[i].tasks == last)
			continue;
		last = plan.p[i].tasks;
		printf("reason=%lu %s\n", plan.p[i].tasks, plan.p[i].reason);
	}
	sb_plan_print_texts(&plan, &e);
	sb_plan_free(&plan);
	sb_plan_conf_free(&plan.c, text);
	return SB_EXIT_OK;
}

struct opts {
	const char *modes, *run_dir, *ran, *sweep;
	long allow, elapsed, per_run, later, budget_left, now;
};

static void set_number(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	char k[64];

	(void)value;
	snprintf(k, sizeof(k), "--%s", row->name);
	*(long *)((char *)opts + row->field) = sb_plan_snumber(k, v, "sb-plan");
}

static void set_now(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	(void)row;
	(void)value;
	if ((((struct opts *)opts)->now = sb_plan_time_ms(v)) < 0)
		sb_usage_die("see sb-plan --help", "--now: '%s' is not seconds since the epoch", v);
}

#define AT(f) offsetof(struct opts, f)
#define TEXT(n, a, f, h)	{ .name = n, .arg = a, .kind = SB_CLI_STRING, .field = AT(f), .help = h }
#define NUMBER(n, a, f, h)	{ .name = n, .arg = a, .kind = SB_CLI_CALL, .field = AT(f), .set = set_number, .help = h }

/* In --help's order: init's and next's options. An option: a row here, a field in struct opts, its
 * consumer (cmd_init, cmd_next). */
static const struct sb_cli_opt table[] = {
	TEXT("modes", "M,M", modes, "init: the modes to plan (default: CONF's)"),
	TEXT("run-dir", "DIR", run_dir, "where points.csv goes (next: needed)"),
	TEXT("ran", "RUN", ran, "next: the run just made, MODE:TASKS:MS or MODE:TASKS:T0:T1"),
	NUMBER("allow", "MS", allow, "init: the testcase's share of the budget"),
	TEXT("sweep", "FILE", sweep, "the sweep's clock and budget between calls (plan makes it)"),
	{ .name = "now", .arg = "T", .kind = SB_CLI_CALL, .set = set_now, .help = "the time, seconds since the epoch" },
	NUMBER("elapsed", "MS", elapsed, "next: the testcase's time so far"),
	NUMBER("per-run", "MS", per_run, "next: the average run, for the ETA"),
	NUMBER("later", "N", later, "next: testcases still to come, for the ETA"),
	NUMBER("budget-left", "MS", budget_left, "next: what the budget still holds, for the ETA"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_DOC, .help = "this text (as the only argument)" },
	{ .name = "version", .kind = SB_CLI_DOC, .help = "sb-plan's version (as the only argument)" },
};

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	sb_usage_die("see sb-plan --help", "%s", msg);
}

static __attribute__((noreturn)) void unknown(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)optopt;
	if (c->what)	/* plan's: --sweep only */
		usage_error(c->what);
	sb_usage_die("see sb-plan --help", "unknown option '%s'", typed);
}

static __attribute__((noreturn)) void missing(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)optopt;
	if (c->what)
		usage_error(c->what);
	sb_usage_die("see sb-plan --help", "%s needs a value", typed);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]), .dash_dash_unknown = 1,
	.usage_error = cli_error, .unknown = unknown, .missing = missing,
};
/* plan CONF [--sweep FILE]: that row alone */
static const struct sb_cli plan_cli = {
	.opts = table + 4, .nopts = 1, .dash_dash_unknown = 1, .what = "plan takes one file, CONF, and --sweep FILE",
	.usage_error = cli_error, .unknown = unknown, .missing = missing,
};

static void parse_opts(int argc, char **argv, int from, struct opts *o)
{
	o->modes = o->run_dir = o->ran = o->sweep = NULL;
	o->allow = o->elapsed = o->budget_left = o->now = -1;
	o->per_run = o->later = 0;
	sb_cli_scan(&cli, argc - from, argv + from, o, NULL);
}

/* init CONF STATE: a testcase's plan. */
static int cmd_init(const char *conf, const char *state, const struct opts *o)
{
	struct sb_plan plan = { 0 };
	char *text = NULL;

	sb_plan_conf_read(conf, &plan.c, &text);
	if (o->modes)
		sb_plan_set_modes(&plan.c, o->modes, "--modes");
	start(&plan);
	plan.allow_ms = plan.c.adaptive ? o->allow : -1;
	plan.start_ms = o->now;
	if (o->sweep) {	/* this testcase's share of what the budget still holds */
		struct sb_plan_sweep sw;
		long allow;

		sweep_io(0, o->sweep, &sw);
		allow = sb_plan_sweep_start(&sw, plan.c.nmodes);
		plan.allow_ms = plan.c.adaptive ? allow : -1;
		sweep_io(1, o->sweep, &sw);
	}
	sb_plan_state_write(&plan, state);
	if (o->run_dir)
		points_write(&plan, o->run_dir);
	printf("points ");
	print_counts(stdout, &plan);
	putchar('\n');
	sb_plan_free(&plan);
	sb_plan_conf_free(&plan.c, text);
	return SB_EXIT_OK;
}

/* next CONF STATE: count the run just made, then say what runs next. */
static int cmd_next(const char *conf, const char *state, const struct opts *o)
{
	struct sb_plan plan = { 0 };
	struct sb_plan_sweep sw;
	char *text = NULL, *stext = NULL, eta[32];
	size_t before, i = 0;
	long per_run = o->per_run, later = o->later, left = o->budget_left;
	int rc;

	if (!o->run_dir)
		usage_error("next needs --run-dir");
	sb_plan_conf_read(conf, &plan.c, &text);
	plan.start_ms = -1;
	sb_plan_state_read(state, &plan, &stext);
	load_values(&plan, o->run_dir);
	if (o->elapsed >= 0)
		plan.elapsed_ms = o->elapsed;
	if (o->sweep)
		sweep_io(0, o->sweep, &sw);
	if (o->now >= 0 && plan.start_ms >= 0)
		plan.elapsed_ms = o->now - plan.start_ms;
	if (o->ran) {
		char mode[32], t0[32], t1[32];
		unsigned long tasks;
		long ms, at;
		int m, n = sscanf(o->ran, "%31[^:]:%lu:%31[^:]:%31s", mode, &tasks, t0, t1);

		ms = -1;
		if (n == 4 && sb_plan_time_ms(t0) >= 0 && sb_plan_time_ms(t1) >= 0)
			ms = sb_plan_time_ms(t1) - sb_plan_time_ms(t0);	/* when the run started and ended */
		else if (n == 3 && t0[strspn(t0, "0123456789")] == '\0')
			ms = strtol(t0, NULL, 10);
		if (ms < 0 || (m = sb_plan_mode_of(mode, strlen(mode))) < 0)
			sb_usage_die("see sb-plan --help", "--ran: '%s' is not MODE:TASKS:MS or MODE:TASKS:T0:T1", o->ran);
		if (o->sweep)
			sb_plan_sweep_ran(&sw, ms);
		at = sb_plan_find(&plan, m, tasks);
		if (at < 0)
			sb_die(SB_EXIT_USAGE, "--ran: %s at %lu tasks is not a point of the plan", mode, tasks);
		sb_plan_record(&plan, (size_t)at, ms);
	}
	before = plan.np;
	rc = sb_plan_next(&plan, &i);
	if (rc == SB_EXIT_ENV)
		sb_die(SB_EXIT_ENV, "out of memory");
	sb_plan_state_write(&plan, state);
	if (o->sweep) {
		sweep_io(1, o->sweep, &sw);
		per_run = sb_plan_sweep_per_run(&sw), later = sw.later, left = sb_plan_sweep_left(&sw);
	}
	if (plan.np != before)
		points_write(&plan, o->run_dir);
	if (rc == 0)
		printf("run %s %lu %u %lu\n", sb_mode_name[plan.p[i].mode], plan.p[i].tasks, plan.p[i].runs + 1,
		       plan.round);
	else
		printf("done\n");
	printf("points ");
	print_counts(stdout, &plan);
	printf("\nunmet");
	for (size_t j = 0; j < plan.np; j++)
		if (plan.c.adaptive && plan.p[j].done && !plan.p[j].met) {
			printf(" %s:%lu", sb_mode_name[plan.p[j].mode], plan.p[j].tasks);
		}
	sb_plan_fmt_eta(eta, sizeof(eta),
		sb_plan_eta_ms(&plan, per_run > 0 ? per_run : plan.c.run_ms, later, left) / 1000);
	printf("\nprogress [%zu/%zu points, %s left]\n", sb_plan_done_count(&plan), plan.np, eta);
	sb_plan_free(&plan);
	sb_plan_conf_free(&plan.c, text);
	free(stext);
	return SB_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o;

	sb_msg_prog(PROG);
	if (sb_cli_alone(argc, argv, "-h") || sb_cli_alone(argc, argv, "--help")) {
		fputs(usage_text, stdout);
		sb_cli_list(&cli, stdout);
		return SB_EXIT_OK;
	}
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("%s (scalebench) %s git %s\n", PROG, SB_VERSION, SB_GIT_REVISION);
		return SB_EXIT_OK;
	}
	if (argc < 3)
		usage_error("expected a command: plan, init or next");
	if (strcmp(argv[1], "plan") == 0) {
		parse_opts(0, argv, 0, &o);
		if (argc > 5)
			usage_error(plan_cli.what);
		sb_cli_scan(&plan_cli, argc - 3, argv + 3, &o, NULL);
		return cmd_plan(argv[2], o.sweep);
	}
	if (argc < 4)
		usage_error("expected CONF and STATE");
	parse_opts(argc, argv, 4, &o);
	if (strcmp(argv[1], "init") == 0)
		return cmd_init(argv[2], argv[3], &o);
	if (strcmp(argv[1], "next") == 0)
		return cmd_next(argv[2], argv[3], &o);
	usage_error("unknown command (plan, init or next)");
	return SB_EXIT_USAGE;
}
