/* sb-plan's two key=value files: plan.conf (format/plan_conf.h) read, and the state between two calls written and read. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/plan_conf.h"
#include "msg/msg.h"
#include "msg/exit.h"
#include "plan.h"
#include "plan_files.h"
#include "io/results.h"

static void *xrealloc(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		sb_die(SB_EXIT_ENV, "out of memory");
	return p;
}

int sb_plan_mode_of(const char *s, size_t len)
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

long sb_plan_snumber(const char *what, const char *s, const char *where)
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

void sb_plan_set_modes(struct sb_plan_conf *c, const char *s, const char *where)
{
	c->nmodes = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		int m = sb_plan_mode_of(s, len);

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
		sb_plan_set_modes(x->c, v, w);
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
		*(long *)(c + t->at) = dflt ? t->dflt : sb_plan_snumber(k, v, w);
		break;
	case K_SHAPE:
		x->shape[t->at] = dflt ? t->dflt : sb_plan_snumber(k, v, w);
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

void sb_plan_conf_read(const char *path, struct sb_plan_conf *c, char **text)
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

void sb_plan_conf_free(struct sb_plan_conf *c, char *text)
{
	free(c->given);
	free(c->topo);
	free(c->extra);
	free(text);
}

/* ---- the state file: the plan between two calls ---- */

void sb_plan_state_write(const struct sb_plan *plan, const char *path)
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
		sb_plan_set_modes(&plan->c, v, w);
	} else if (strcmp(k, "round") == 0) {
		plan->round = number(k, v, w);
	} else if (strcmp(k, "elapsed_ms") == 0) {
		plan->elapsed_ms = sb_plan_snumber(k, v, w);
	} else if (strcmp(k, "allow_ms") == 0) {
		plan->allow_ms = sb_plan_snumber(k, v, w);
	} else if (strcmp(k, "start_ms") == 0) {
		plan->start_ms = sb_plan_snumber(k, v, w);
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
		    (p.mode = sb_plan_mode_of(mode, strlen(mode))) < 0)
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

void sb_plan_state_read(const char *path, struct sb_plan *plan, char **text)
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
