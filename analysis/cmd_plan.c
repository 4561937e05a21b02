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
#include "msg.h"
#include "exit.h"
#include "cli.h"
#include "plan.h"
#include "plan_sweep.h"
#include "plan_text.h"
#include "results.h"
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

static void *xrealloc(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		sb_die(SB_EXIT_ENV, "out of memory");
	return p;
}

static int mode_of(const char *s, size_t len)
{
	for (int m = 0; m < SB_NMODES; m++)
		if (strlen(sb_mode_name[m]) == len && strncmp(sb_mode_name[m], s, len) == 0)
			return m;
	return -1;
}

static unsigned long number(const char *what, const char *s, const char *where)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || *s == '-')
		sb_die(SB_EXIT_USAGE, "%s: %s: '%s' is not a whole number", where, what, s);
	return v;
}

static long snumber(const char *what, const char *s, const char *where)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno)
		sb_die(SB_EXIT_USAGE, "%s: %s: '%s' is not a number", where, what, s);
	return v;
}

/* "1,2,4" -> a malloc'd array (empty string: none). */
static unsigned long *list(const char *what, const char *s, size_t *n, const char *where)
{
	unsigned long *v = NULL;
	char *copy = strdup(s), *tok, *save = NULL;

	if (!copy)
		sb_die(SB_EXIT_ENV, "out of memory");
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		v = xrealloc(v, *n + 1, sizeof(*v));
		v[(*n)++] = number(what, tok, where);
	}
	free(copy);
	return v;
}

static void set_modes(struct sb_plan_conf *c, const char *s, const char *where)
{
	c->nmodes = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		int m = mode_of(s, len);

		if (m < 0 || c->nmodes == SB_NMODES)
			sb_die(SB_EXIT_USAGE, "%s: modes: unknown mode in '%s'", where, s);
		c->modes[c->nmodes++] = m;
		s += len + (s[len] == ',');
	}
}

struct conf_ctx {
	struct sb_plan_conf *c;
	const char *path;
	long shape[SB_PLAN_NSHAPE];	/* SB_PLAN_SHAPE_*: one run's shape; -1 when not given */
};

/* plan.conf's keys (format/plan_conf.h): where each value goes in struct sb_plan_conf */
enum kind { K_MODES, K_POINTS_MODE, K_LIST, K_ULONG, K_UINT, K_INT, K_LONG, K_SHAPE };
#define AT_MODES(m) 0
#define AT_POINTS_MODE(m) offsetof(struct sb_plan_conf, m)
#define AT_LIST(m) offsetof(struct sb_plan_conf, m)
#define AT_ULONG(m) offsetof(struct sb_plan_conf, m)
#define AT_UINT(m) offsetof(struct sb_plan_conf, m)
#define AT_INT(m) offsetof(struct sb_plan_conf, m)
#define AT_LONG(m) offsetof(struct sb_plan_conf, m)
#define AT_SHAPE(i) (i)
#define N_LIST(m) offsetof(struct sb_plan_conf, n##m)	/* a list's count: n<member> */
#define N_MODES(m) 0
#define N_POINTS_MODE(m) 0
#define N_ULONG(m) 0
#define N_UINT(m) 0
#define N_INT(m) 0
#define N_LONG(m) 0
#define N_SHAPE(m) 0
static const struct conf_key {
	const char *key;
	enum kind kind;
	int empty;		/* an empty value is dflt */
	long dflt;
	size_t at;		/* offsetof the member (K_SHAPE: the shape's index) */
	size_t n_at;		/* K_LIST: offsetof its count */
} conf_keys[] = {
#define KEY(key, kind, empty, dflt, m) { key, K_##kind, empty, dflt, AT_##kind(m), N_##kind(m) },
	SB_PLAN_CONF_KEYS(KEY)
#undef KEY
};
/* Key t's value v into x (a list replaces the one before: the last line of a key wins). */
static void conf_set(struct conf_ctx *x, const struct conf_key *t, const char *v)
{
	char *c = (char *)x->c;
	const char *k = t->key, *w = x->path;
	int dflt = t->empty && !*v;

	switch (t->kind) {
	case K_MODES:
		set_modes(x->c, v, w);
		break;
	case K_POINTS_MODE:
		for (int i = 0; i <= SB_POINTS_LIST; i++)
			if (strcmp(v, sb_points_mode_name[i]) == 0) {
				x->c->points_mode = (enum sb_points_mode)i;
				return;
			}
		sb_die(SB_EXIT_USAGE, "%s: points_mode: '%s' is not auto, all, topology or list", w, v);
	case K_LIST:
		free(*(unsigned long **)(c + t->at));
		*(unsigned long **)(c + t->at) = list(k, v, (size_t *)(c + t->n_at), w);
		break;
	case K_ULONG:
		*(unsigned long *)(c + t->at) = dflt ? (unsigned long)t->dflt : number(k, v, w);
		break;
	case K_UINT:
		*(unsigned *)(c + t->at) = dflt ? (unsigned)t->dflt : (unsigned)number(k, v, w);
		break;
	case K_INT:
		*(int *)(c + t->at) = dflt ? (int)t->dflt : (int)number(k, v, w);
		break;
	case K_LONG:
		*(long *)(c + t->at) = dflt ? t->dflt : snumber(k, v, w);
		break;
	case K_SHAPE:
		x->shape[t->at] = dflt ? t->dflt : snumber(k, v, w);
		break;
	}
}

/* One line of plan.conf: a key of its table, else an error (one sweep writes the file and reads it). */
static int conf_key(void *ctx, const char *k, const char *v)
{
	struct conf_ctx *x = ctx;

	for (size_t i = 0; i < sizeof(conf_keys) / sizeof(conf_keys[0]); i++)
		if (strcmp(k, conf_keys[i].key) == 0) {
			conf_set(x, &conf_keys[i], v);
			return 0;
		}
	sb_die(SB_EXIT_USAGE, "%s: unknown key '%s' (not one of plan.conf's: format/plan_conf.h)", x->path, k);
	return SB_EXIT_USAGE;
}

static void conf_read(const char *path, struct sb_plan_conf *c, char **text)
{
	struct conf_ctx x = { c, path, { 0 } };
	char err[PATH_MAX + 256];
	int rc;

	memset(c, 0, sizeof(*c));
	c->seed = -1;
	c->min = 1;
	c->step = 1;
	c->min_runs = c->max_runs = 1;
	c->max_points = SB_PLAN_MAX_POINTS;
	for (int i = 0; i < SB_PLAN_NSHAPE; i++)
		x.shape[i] = -1;
	rc = sb_meta_read(path, conf_key, &x, text, err, sizeof(err));
	if (rc != 0)
		sb_die(rc, "%s", err);
	/* one run's estimate: its warmup (auto: at its cap; at least: its window), the samples
	 * measured, the start and stop */
	if (x.shape[SB_PLAN_SHAPE_SAMPLES] >= 0 && x.shape[SB_PLAN_SHAPE_PERIOD_MS] >= 0) {
		long rest = x.shape[SB_PLAN_SHAPE_SAMPLES] * x.shape[SB_PLAN_SHAPE_PERIOD_MS] + (x.shape[SB_PLAN_SHAPE_OVERHEAD_MS] > 0 ? x.shape[SB_PLAN_SHAPE_OVERHEAD_MS] : 0);

		c->run_ms = (x.shape[SB_PLAN_SHAPE_WARMUP_MAX_MS] >= 0 ? x.shape[SB_PLAN_SHAPE_WARMUP_MAX_MS] : (x.shape[SB_PLAN_SHAPE_WARMUP_SAMPLES] > 0 ? x.shape[SB_PLAN_SHAPE_WARMUP_SAMPLES] : 0) * x.shape[SB_PLAN_SHAPE_PERIOD_MS]) + rest;
		if (x.shape[SB_PLAN_SHAPE_WARMUP_MAX_MS] >= 0 && x.shape[SB_PLAN_SHAPE_WARMUP_MIN_MS] >= 0 && x.shape[SB_PLAN_SHAPE_WARMUP_MIN_MS] <= x.shape[SB_PLAN_SHAPE_WARMUP_MAX_MS])
			c->run_min_ms = x.shape[SB_PLAN_SHAPE_WARMUP_MIN_MS] + rest;
	}
	if (c->min_runs < 1 || c->max_runs < c->min_runs)
		sb_die(SB_EXIT_USAGE, "%s: min_runs %u and max_runs %u: need 1 <= min_runs <= max_runs", path,
		       c->min_runs, c->max_runs);
}

static void conf_free(struct sb_plan_conf *c, char *text)
{
	free(c->given);
	free(c->topo);
	free(c->extra);
	free(text);
}

/* ---- the state file: the plan between two calls ---- */

static void state_write(const struct sb_plan *plan, const char *path)
{
	char *tmp;
	FILE *f;

	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		sb_die(SB_EXIT_ENV, "out of memory");
	f = fopen(tmp, "w");
	if (!f)
		sb_die(SB_EXIT_ENV, "cannot write %s: %s", tmp, strerror(errno));
	sb_msg_remove_on_die(tmp);
	fprintf(f, "modes=");
	for (size_t m = 0; m < plan->c.nmodes; m++)
		fprintf(f, "%s%s", m ? "," : "", sb_mode_name[plan->c.modes[m]]);
	fprintf(f, "\nround=%lu\nelapsed_ms=%ld\nstart_ms=%ld\nallow_ms=%ld\nrefined=%d,%d\nqueue=", plan->round,
		plan->elapsed_ms, plan->start_ms, plan->allow_ms, plan->refined[0], plan->refined[1]);
	for (size_t i = 0; i < plan->nq; i++)
		fprintf(f, "%s%zu", i ? "," : "", plan->queue[i]);
	fputc('\n', f);
	for (size_t i = 0; i < plan->np; i++) {
		const struct sb_plan_point *p = &plan->p[i];

		fprintf(f, "point=%s,%lu,%s,%u,%ld,%d,%d,%s\n", sb_mode_name[p->mode], p->tasks,
			sb_origin_name[p->origin], p->runs, p->ms, p->done, p->met, p->reason);
	}
	fputs("end=\n", f);	/* the last line: a file without it was cut short */
	if (fflush(f) == EOF || ferror(f) || fclose(f) == EOF)
		sb_die(SB_EXIT_ENV, "cannot write %s: %s", tmp, strerror(errno));
	if (rename(tmp, path) < 0)
		sb_die(SB_EXIT_ENV, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
	sb_msg_remove_on_die(NULL);
	free(tmp);
}

struct state_ctx {
	struct sb_plan *plan;
	const char *path;
	int end;	/* the end line was read */
};

static int state_key(void *ctx, const char *k, const char *v)
{
	struct state_ctx *x = ctx;
	struct sb_plan *plan = x->plan;
	const char *w = x->path;

	if (x->end)
		sb_die(SB_EXIT_USAGE, "%s: a line after the end line", w);
	if (strcmp(k, "end") == 0) {
		x->end = 1;
	} else if (strcmp(k, "modes") == 0) {
		set_modes(&plan->c, v, w);
	} else if (strcmp(k, "round") == 0) {
		plan->round = number(k, v, w);
	} else if (strcmp(k, "elapsed_ms") == 0) {
		plan->elapsed_ms = snumber(k, v, w);
	} else if (strcmp(k, "allow_ms") == 0) {
		plan->allow_ms = snumber(k, v, w);
	} else if (strcmp(k, "start_ms") == 0) {
		plan->start_ms = snumber(k, v, w);
	} else if (strcmp(k, "refined") == 0) {
		if (sscanf(v, "%d,%d", &plan->refined[0], &plan->refined[1]) != 2)
			sb_die(SB_EXIT_USAGE, "%s: refined: '%s'", w, v);
	} else if (strcmp(k, "queue") == 0) {
		unsigned long *q = list(k, v, &plan->nq, w);

		plan->queue = xrealloc(plan->queue, plan->nq ? plan->nq : 1, sizeof(*plan->queue));
		for (size_t i = 0; i < plan->nq; i++)
			plan->queue[i] = q[i];
		free(q);
	} else if (strcmp(k, "point") == 0) {
		struct sb_plan_point p = { 0 };
		char mode[32], origin[16];
		int used = 0;

		if (sscanf(v, "%31[^,],%lu,%15[^,],%u,%ld,%d,%d,%n", mode, &p.tasks, origin, &p.runs, &p.ms,
			   &p.done, &p.met, &used) != 7 || used == 0 ||
		    (p.mode = mode_of(mode, strlen(mode))) < 0)
			sb_die(SB_EXIT_USAGE, "%s: point: malformed '%s'", w, v);
		p.origin = strcmp(origin, "seed") == 0 ? SB_ORIGIN_SEED :
			   strcmp(origin, "added") == 0 ? SB_ORIGIN_ADDED : SB_ORIGIN_GIVEN;
		snprintf(p.reason, sizeof(p.reason), "%s", v + used);
		p.mean = p.var = NAN;
		if (plan->np == plan->cap) {
			plan->cap = plan->cap ? plan->cap * 2 : 64;
			plan->p = xrealloc(plan->p, plan->cap, sizeof(*plan->p));
		}
		plan->p[plan->np++] = p;
	}
	return 0;
}

static void state_read(const char *path, struct sb_plan *plan, char **text)
{
	struct state_ctx x = { plan, path, 0 };
	char err[PATH_MAX + 256];
	int rc;

	plan->np = plan->nq = 0;
	rc = sb_meta_read(path, state_key, &x, text, err, sizeof(err));
	if (rc != 0)
		sb_die(rc, "%s", err);
	/* an empty or cut-short state must not read as a plan with nothing left to run */
	if (!x.end)
		sb_die(SB_EXIT_USAGE, "%s: cut short (no end line): not a whole sb-plan state", path);
	for (size_t i = 0; i < plan->nq; i++)
		if (plan->queue[i] >= plan->np)
			sb_die(SB_EXIT_USAGE, "%s: queue: no point %zu", path, plan->queue[i]);
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

	conf_read(conf, &plan.c, &text);
	if (plan.c.nmodes == 0)
		set_modes(&plan.c, "processes", conf);	/* the counts are the same in every mode */
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
	conf_free(&plan.c, text);
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
	*(long *)((char *)opts + row->field) = snumber(k, v, "sb-plan");
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

	conf_read(conf, &plan.c, &text);
	if (o->modes)
		set_modes(&plan.c, o->modes, "--modes");
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
	state_write(&plan, state);
	if (o->run_dir)
		points_write(&plan, o->run_dir);
	printf("points ");
	print_counts(stdout, &plan);
	putchar('\n');
	sb_plan_free(&plan);
	conf_free(&plan.c, text);
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
	conf_read(conf, &plan.c, &text);
	plan.start_ms = -1;
	state_read(state, &plan, &stext);
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
		if (ms < 0 || (m = mode_of(mode, strlen(mode))) < 0)
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
	state_write(&plan, state);
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
	conf_free(&plan.c, text);
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
