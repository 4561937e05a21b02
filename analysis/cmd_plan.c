/* sb-plan: the sweep planner's tool: runtest.sh asks it for the plan, each next run, the ETA; it writes points.csv. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "plan.h"
#include "results.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */

#define PROG "sb-plan"


static const char usage_text[] =
	"usage: sb-plan plan CONF\n"
	"       sb-plan init CONF STATE [--modes M,M] [--allow MS] [--run-dir DIR]\n"
	"       sb-plan next CONF STATE --run-dir DIR [--ran MODE:TASKS:MS] [--elapsed MS]\n"
	"                    [--per-run MS] [--later N] [--budget-left MS]\n"
	"The sweep's planner (docs/RUNTEST.md, \"Which task counts\"). CONF: the sweep's\n"
	"options and topology (key=value lines, runtest.sh writes them). plan: the\n"
	"counts and the estimates as key=value lines (--dry-run). init: a testcase's\n"
	"plan into STATE, its points.csv into DIR. next: counts the run just made\n"
	"(--ran), then prints 'run MODE TASKS RUN ROUND' or 'done', 'points CSV' (the counts\n"
	"so far), 'unmet MODE:TASKS...' and 'progress TEXT'.\n";

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
};

static int conf_key(void *ctx, const char *k, const char *v)
{
	struct conf_ctx *x = ctx;
	struct sb_plan_conf *c = x->c;
	const char *w = x->path;

	if (strcmp(k, "modes") == 0)
		set_modes(c, v, w);
	else if (strcmp(k, "modes_total") == 0)
		c->modes_total = (int)number(k, v, w);
	else if (strcmp(k, "points_mode") == 0) {
		int found = 0;

		for (int i = 0; i <= SB_POINTS_LIST; i++)
			if (strcmp(v, sb_points_mode_name[i]) == 0)
				c->points_mode = (enum sb_points_mode)i, found = 1;
		if (!found)
			sb_die(SB_EXIT_USAGE, "%s: points_mode: '%s' is not auto, all, topology or list", w, v);
	} else if (strcmp(k, "points") == 0)
		free(c->given), c->given = list(k, v, &c->ngiven, w);	/* the last line of a key wins */
	else if (strcmp(k, "extra") == 0)
		free(c->extra), c->extra = list(k, v, &c->nextra, w);	/* the last line of a key wins */
	else if (strcmp(k, "topology_points") == 0)
		free(c->topo), c->topo = list(k, v, &c->ntopo, w);	/* the last line of a key wins */
	else if (strcmp(k, "min") == 0)
		c->min = number(k, v, w);
	else if (strcmp(k, "max") == 0)
		c->max = number(k, v, w);
	else if (strcmp(k, "step") == 0)
		c->step = number(k, v, w);
	else if (strcmp(k, "per_llc") == 0)
		c->per_llc = number(k, v, w);
	else if (strcmp(k, "per_numa") == 0)
		c->per_numa = number(k, v, w);
	else if (strcmp(k, "per_package") == 0)
		c->per_package = number(k, v, w);
	else if (strcmp(k, "numa") == 0)
		c->numa = number(k, v, w);
	else if (strcmp(k, "packages") == 0)
		c->packages = number(k, v, w);
	else if (strcmp(k, "units") == 0)
		c->units = number(k, v, w);
	else if (strcmp(k, "smt") == 0)
		c->smt = (int)number(k, v, w);
	else if (strcmp(k, "min_runs") == 0)
		c->min_runs = (unsigned)number(k, v, w);
	else if (strcmp(k, "max_runs") == 0)
		c->max_runs = (unsigned)number(k, v, w);
	else if (strcmp(k, "adaptive") == 0)
		c->adaptive = (int)number(k, v, w);
	else if (strcmp(k, "precision") == 0)
		c->precision = *v ? snumber(k, v, w) : 0;
	else if (strcmp(k, "point_budget_ms") == 0)
		c->point_budget_ms = *v ? snumber(k, v, w) : 0;
	else if (strcmp(k, "budget_ms") == 0)
		c->budget_ms = *v ? snumber(k, v, w) : 0;
	else if (strcmp(k, "seed") == 0)
		c->seed = *v ? snumber(k, v, w) : -1;
	else if (strcmp(k, "run_ms") == 0)
		c->run_ms = snumber(k, v, w);
	else if (strcmp(k, "max_points") == 0)
		c->max_points = *v ? (unsigned)number(k, v, w) : SB_PLAN_MAX_POINTS;
	/* other keys: for other readers */
	return 0;
}

static void conf_read(const char *path, struct sb_plan_conf *c, char **text)
{
	struct conf_ctx x = { c, path };
	char err[PATH_MAX + 256];
	int rc;

	memset(c, 0, sizeof(*c));
	c->seed = -1;
	c->min = 1;
	c->step = 1;
	c->min_runs = c->max_runs = 1;
	c->max_points = SB_PLAN_MAX_POINTS;
	rc = sb_meta_read(path, conf_key, &x, text, err, sizeof(err));
	if (rc != 0)
		sb_die(rc, "%s", err);
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
	fprintf(f, "\nround=%lu\nelapsed_ms=%ld\nallow_ms=%ld\nrefined=%d,%d\nqueue=", plan->round,
		plan->elapsed_ms, plan->allow_ms, plan->refined[0], plan->refined[1]);
	for (size_t i = 0; i < plan->nq; i++)
		fprintf(f, "%s%zu", i ? "," : "", plan->queue[i]);
	fputc('\n', f);
	for (size_t i = 0; i < plan->np; i++) {
		const struct sb_plan_point *p = &plan->p[i];

		fprintf(f, "point=%s,%lu,%s,%u,%ld,%d,%d,%s\n", sb_mode_name[p->mode], p->tasks,
			sb_origin_name[p->origin], p->runs, p->ms, p->done, p->met, p->reason);
	}
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
};

static int state_key(void *ctx, const char *k, const char *v)
{
	struct state_ctx *x = ctx;
	struct sb_plan *plan = x->plan;
	const char *w = x->path;

	if (strcmp(k, "modes") == 0) {
		set_modes(&plan->c, v, w);
	} else if (strcmp(k, "round") == 0) {
		plan->round = number(k, v, w);
	} else if (strcmp(k, "elapsed_ms") == 0) {
		plan->elapsed_ms = snumber(k, v, w);
	} else if (strcmp(k, "allow_ms") == 0) {
		plan->allow_ms = snumber(k, v, w);
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
	struct state_ctx x = { plan, path };
	char err[PATH_MAX + 256];
	int rc;

	plan->np = plan->nq = 0;
	rc = sb_meta_read(path, state_key, &x, text, err, sizeof(err));
	if (rc != 0)
		sb_die(rc, "%s", err);
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

/* DIR/points.csv: mode,tasks,origin,reason, one row per planned point, through a temporary name. */
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
	fputs("mode,tasks,origin,reason\n", f);
	for (size_t m = 0; m < plan->c.nmodes; m++)
		for (size_t i = 0; i < plan->np; i++) {
			const struct sb_plan_point *p = &plan->p[i];

			if (p->mode == plan->c.modes[m])
				fprintf(f, "%s,%lu,%s,%s\n", sb_mode_name[p->mode], p->tasks,
					sb_origin_name[p->origin], p->reason);
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

/* Milliseconds as seconds: 5000 -> "5", 500 -> "0.5" (runtest.sh's fmt_ms). */
static const char *fmt_ms(long ms, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%ld.%03ld", ms / 1000, ms % 1000);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

static void fmt_eta(char *buf, size_t len, long s);

/* --dry-run's words: the runs a point gets, the order of a round, the estimate, auto's seeds. */
static void print_texts(const struct sb_plan *plan, const struct sb_plan_estimate *e)
{
	const struct sb_plan_conf *c = &plan->c;
	char a[32], b[32], d[32];
	unsigned long last = 0;
	int first = 1;

	if (!c->adaptive)
		printf("text_runs=exactly %u a point\n", c->min_runs);
	else
		printf("text_runs=%u to %u a point, until the 95%% interval is within +-%s%% (at most %s s a point)\n",
		       c->min_runs, c->max_runs, fmt_ms(c->precision, a, sizeof(a)),
		       fmt_ms(c->point_budget_ms, b, sizeof(b)));
	if (c->seed >= 0)
		printf("text_order=rounds; each round shuffled with seed %ld\n", c->seed);
	else
		printf("text_order=rounds; each round in the other direction\n");
	fmt_eta(a, sizeof(a), (e->min_ms + 999) / 1000);
	if (!c->adaptive) {
		printf("text_estimated=%lu runner runs, about %s\n", e->runs_min, a);
	} else {
		fmt_eta(b, sizeof(b), (e->max_ms + 999) / 1000);
		fmt_eta(d, sizeof(d), (e->budget_ms + 999) / 1000);
		printf("text_estimated=%lu to %lu runner runs, %s to %s (budget %s)\n", e->runs_min, e->runs_max,
		       a, b, d);
	}
	/* auto's seeds with their reasons, unless the range is measured whole */
	if (c->points_mode != SB_POINTS_AUTO || strstr(plan->p[0].reason, "every count"))
		return;
	printf("text_seeds=");
	for (size_t i = 0; i < plan->np; i++) {
		const char *r = plan->p[i].reason;

		if (!first && plan->p[i].tasks == last)
			continue;
		if (strncmp(r, "seed: ", 6) == 0)
			r += 6;
		printf("%s%lu (%s)", first ? "" : ", ", plan->p[i].tasks, r);
		last = plan->p[i].tasks;
		first = 0;
	}
	putchar('\n');
}

/* plan CONF: key=value lines for runtest.sh (--dry-run and the estimates). */
static int cmd_plan(const char *conf)
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
	printf("budget_ms=%ld\nmin_ms=%ld\nmax_ms=%ld\nmax_points=%u\n", e.budget_ms, e.min_ms, e.max_ms,
	       plan.c.max_points);
	for (size_t i = 0; i < plan.np; i++) {
		if (i && plan.p[i].tasks == last)
			continue;
		last = plan.p[i].tasks;
		printf("reason=%lu %s\n", plan.p[i].tasks, plan.p[i].reason);
	}
	print_texts(&plan, &e);
	sb_plan_free(&plan);
	conf_free(&plan.c, text);
	return SB_EXIT_OK;
}

struct opts {
	const char *modes, *run_dir, *ran;
	long allow, elapsed, per_run, later, budget_left;
};

static void parse_opts(int argc, char **argv, int from, struct opts *o)
{
	o->modes = o->run_dir = o->ran = NULL;
	o->allow = o->elapsed = o->budget_left = -1;
	o->per_run = o->later = 0;
	for (int i = from; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			sb_usage_die("see sb-plan --help", "%s needs a value", k);
		if (strcmp(k, "--modes") == 0)
			o->modes = v;
		else if (strcmp(k, "--run-dir") == 0)
			o->run_dir = v;
		else if (strcmp(k, "--ran") == 0)
			o->ran = v;
		else if (strcmp(k, "--allow") == 0)
			o->allow = snumber(k, v, "sb-plan");
		else if (strcmp(k, "--elapsed") == 0)
			o->elapsed = snumber(k, v, "sb-plan");
		else if (strcmp(k, "--per-run") == 0)
			o->per_run = snumber(k, v, "sb-plan");
		else if (strcmp(k, "--later") == 0)
			o->later = snumber(k, v, "sb-plan");
		else if (strcmp(k, "--budget-left") == 0)
			o->budget_left = snumber(k, v, "sb-plan");
		else
			sb_usage_die("see sb-plan --help", "unknown option '%s'", k);
	}
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

static void fmt_eta(char *buf, size_t len, long s)
{
	if (s < 60)
		snprintf(buf, len, "%lds", s);
	else if (s < 3600)
		snprintf(buf, len, "%ldm", (s + 30) / 60);
	else
		snprintf(buf, len, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
}

/* next CONF STATE: count the run just made, then say what runs next. */
static int cmd_next(const char *conf, const char *state, const struct opts *o)
{
	struct sb_plan plan = { 0 };
	char *text = NULL, *stext = NULL, eta[32];
	size_t before, i = 0;
	int rc;

	if (!o->run_dir)
		usage_error("next needs --run-dir");
	conf_read(conf, &plan.c, &text);
	state_read(state, &plan, &stext);
	load_values(&plan, o->run_dir);
	if (o->elapsed >= 0)
		plan.elapsed_ms = o->elapsed;
	if (o->ran) {
		char mode[32];
		unsigned long tasks;
		long ms, at;
		int m;

		if (sscanf(o->ran, "%31[^:]:%lu:%ld", mode, &tasks, &ms) != 3 ||
		    (m = mode_of(mode, strlen(mode))) < 0)
			sb_usage_die("see sb-plan --help", "--ran: '%s' is not MODE:TASKS:MS", o->ran);
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
	fmt_eta(eta, sizeof(eta),
		sb_plan_eta_ms(&plan, o->per_run > 0 ? o->per_run : plan.c.run_ms, o->later, o->budget_left) / 1000);
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
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(usage_text, stdout);
		return SB_EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("%s (scalebench) %s git %s\n", PROG, SB_VERSION, SB_GIT_REVISION);
		return SB_EXIT_OK;
	}
	if (argc < 3)
		usage_error("expected a command: plan, init or next");
	if (strcmp(argv[1], "plan") == 0) {
		if (argc != 3)
			usage_error("plan takes one file, CONF");
		return cmd_plan(argv[2]);
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
