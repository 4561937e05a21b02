/* A run directory: resolved (a test directory's latest), loaded (meta and samples into per-run means), pooled, searched. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/csv.h"
#include "msg/msg.h"
#include "io/meta.h"
#include "rundir.h"

struct sb_run_acc {
	long run;
	double sum;
	size_t n;
};

static int resolve_dir(struct sb_run *r, char *err, size_t errlen)
{
	char *arg = strdup(r->arg), target[PATH_MAX];
	size_t n;
	ssize_t tl;

	if (arg == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	n = strlen(arg);
	while (n > 1 && arg[n - 1] == '/')
		arg[--n] = '\0';
	if (sb_path_exists(arg, "samples.csv") || sb_path_exists(arg, "meta")) {
		/* A run given as results/<test>/latest: name the run it points to. */
		tl = readlink(arg, target, sizeof(target) - 1);
		if (tl > 0) {
			const char *slash = strrchr(arg, '/');
			size_t keep = slash != NULL ? (size_t)(slash - arg) + 1 : 0;
			char *named;

			target[tl] = '\0';
			named = malloc(keep + (size_t)tl + 1);
			if (named != NULL && strchr(target, '/') == NULL) {
				memcpy(named, arg, keep);
				memcpy(named + keep, target, (size_t)tl + 1);
				free(arg);
				arg = named;
			} else {
				free(named);
			}
		}
		r->dir = arg;
		return 0;
	}
	if (!sb_path_exists(arg, "latest")) {
		free(arg);
		return sb_fail(err, errlen, SB_EXIT_USAGE,
			    "%s: neither a run directory (no samples.csv, no meta) nor a test "
			    "directory (no latest)", r->arg);
	}
	/* Name the run itself rather than "latest", so the output says which run it was. */
	{
		char *link = sb_path_join(arg, "latest");

		if (link == NULL) {
			free(arg);
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		}
		tl = readlink(link, target, sizeof(target) - 1);
		if (tl > 0) {
			target[tl] = '\0';
			if (strchr(target, '/') == NULL) {
				free(link);
				link = sb_path_join(arg, target);
			}
		}
		free(arg);
		if (link == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		r->dir = link;
	}
	return 0;
}

/* A line of meta: kept in order, and by its key's index when meta's table has it (others are skipped). */
static int meta_key(void *ctx, const char *key, const char *val)
{
	struct sb_run *r = ctx;

	if (r->nmeta_lines == r->meta_cap) {
		size_t cap = r->meta_cap ? 2 * r->meta_cap : 64;
		struct sb_meta_line *l = realloc(r->meta_lines, cap * sizeof(*l));

		if (l == NULL)
			return -1;
		r->meta_lines = l;
		r->meta_cap = cap;
	}
	r->meta_lines[r->nmeta_lines].key = key;
	r->meta_lines[r->nmeta_lines++].value = val;
	for (int k = 0; k < SB_META_NKEYS; k++)
		if (strcmp(key, sb_meta_key_name[k]) == 0) {
			r->meta[k] = val;
			break;
		}
	return 0;
}

/* Key k's value, else dflt */
static const char *meta_or(const struct sb_run *r, enum sb_meta_id k, const char *dflt)
{
	return r->meta[k] ? r->meta[k] : dflt;
}

static int load_meta(struct sb_run *r, char *err, size_t errlen)
{
	char *path = sb_path_join(r->dir, "meta");
	int rc;

	if (path == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	rc = sb_meta_read(path, meta_key, r, &r->meta_text, err, errlen);
	free(path);
	r->test = meta_or(r, SB_META_test, "");
	r->label = meta_or(r, SB_META_label, "");
	r->kernel = meta_or(r, SB_META_kernel, "");
	r->host = meta_or(r, SB_META_host, "");
	r->status = meta_or(r, SB_META_status, "");
	r->run_id = meta_or(r, SB_META_run_id, "");
	r->date = meta_or(r, SB_META_date, "");
	r->repeat = meta_or(r, SB_META_repeat, "");
	r->vm_accel = meta_or(r, SB_META_vm_accel, "");
	r->system = meta_or(r, SB_META_system, "");
	r->host_name = meta_or(r, SB_META_host_name, "");
	r->host_cpu = meta_or(r, SB_META_host_cpu, "");
	r->host_topology = meta_or(r, SB_META_host_topology, "");
	r->cpu_model = meta_or(r, SB_META_cpu_model, "");
	r->topology = meta_or(r, SB_META_topology, "");
	r->hwloc_version = meta_or(r, SB_META_hwloc_version, "");
	r->placement = meta_or(r, SB_META_placement, "");
	/* older runs lack these: NULL */
	r->params = r->meta[SB_META_params];
	r->period_ms = r->meta[SB_META_period_ms];
	r->duration = r->meta[SB_META_duration];
	r->warmup = r->meta[SB_META_warmup];
	r->sweep_host = meta_or(r, SB_META_sweep_host, "");
	r->sweep_pid = meta_or(r, SB_META_sweep_pid, "");
	r->sweep_start = meta_or(r, SB_META_sweep_start, "");
	r->vm_rounds = meta_or(r, SB_META_vm_rounds, "");
	if (r->meta[SB_META_reference_start])
		sb_reference_parse(r->meta[SB_META_reference_start], &r->ref_start);
	if (r->meta[SB_META_reference_end])
		sb_reference_parse(r->meta[SB_META_reference_end], &r->ref_end);
	return rc;
}

int sb_run_meta(const char *dir, struct sb_run *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->dir = strdup(dir);
	if (r->dir == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	return load_meta(r, err, errlen);
}

static int mode_rank(const char *mode)
{
	if (strcmp(mode, "processes") == 0)
		return 0;
	if (strcmp(mode, "threads") == 0)
		return 1;
	return 2;
}

static int cmp_points(const void *a, const void *b)
{
	const struct sb_point *p = a, *q = b;
	int ra = mode_rank(p->mode), rb = mode_rank(q->mode), c;

	if (ra != rb)
		return ra - rb;
	c = strcmp(p->mode, q->mode);
	if (c != 0)
		return c;
	return (p->tasks > q->tasks) - (p->tasks < q->tasks);
}

static int cmp_acc(const void *a, const void *b)
{
	const struct sb_run_acc *p = a, *q = b;

	return (p->run > q->run) - (p->run < q->run);
}

static struct sb_point *point_get(struct sb_run *r, size_t *cap, size_t *cache,
				  const char *mode, long tasks)
{
	struct sb_point *p;

	if (*cache < r->npts) {
		p = &r->pts[*cache];
		if (p->tasks == tasks && strcmp(p->mode, mode) == 0)
			return p;
	}
	for (size_t i = 0; i < r->npts; i++) {
		p = &r->pts[i];
		if (p->tasks == tasks && strcmp(p->mode, mode) == 0) {
			*cache = i;
			return p;
		}
	}
	if (r->npts == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct sb_point *np = realloc(r->pts, nc * sizeof(*np));

		if (np == NULL)
			return NULL;
		r->pts = np;
		*cap = nc;
	}
	p = &r->pts[r->npts];
	memset(p, 0, sizeof(*p));
	snprintf(p->mode, sizeof(p->mode), "%s", mode);
	p->tasks = tasks;
	*cache = r->npts++;
	return p;
}

static int point_add(struct sb_point *p, long run, double v, double idle)
{
	struct sb_run_acc *a = NULL;

	if (p->samples.n == p->scap) {
		size_t nc = p->scap ? p->scap * 2 : 64;
		double *ns = realloc(p->samples.v, nc * sizeof(*ns));

		if (ns == NULL)
			return -1;
		p->samples.v = ns;
		p->scap = nc;
	}
	p->samples.v[p->samples.n++] = v;
	if (!isnan(idle)) {
		p->idle_sum += idle;
		p->idle_n++;
	}
	/* Samples of one run come together: look from the last run backwards. */
	for (size_t i = p->nruns; i-- > 0;)
		if (p->runs[i].run == run) {
			a = &p->runs[i];
			break;
		}
	if (a == NULL) {
		if (p->nruns == p->rcap) {
			size_t nc = p->rcap ? p->rcap * 2 : 4;
			struct sb_run_acc *na = realloc(p->runs, nc * sizeof(*na));

			if (na == NULL)
				return -1;
			p->runs = na;
			p->rcap = nc;
		}
		a = &p->runs[p->nruns++];
		a->run = run;
		a->sum = 0;
		a->n = 0;
	}
	a->sum += v;
	a->n++;
	return 0;
}

/* Summarise each point's samples and, with SB_INDEPENDENT_RUNS or more runs, its per-run means. */
static int points_finish(struct sb_run *r)
{
	for (size_t i = 0; i < r->npts; i++) {
		struct sb_point *p = &r->pts[i];

		p->idle = p->idle_n ? p->idle_sum / (double)p->idle_n : NAN;
		if (sb_stats_compute_var(p->samples.v, p->samples.n, &p->samples.st,
					 &p->samples.var, NULL) != 0)
			return -1;
		if (sb_runs_independent(p->nruns)) {
			qsort(p->runs, p->nruns, sizeof(*p->runs), cmp_acc);
			p->means.v = malloc(p->nruns * sizeof(*p->means.v));
			if (p->means.v == NULL)
				return -1;
			for (size_t k = 0; k < p->nruns; k++)
				p->means.v[k] = p->runs[k].sum / p->runs[k].n;
			p->means.n = p->nruns;
			if (sb_stats_compute_var(p->means.v, p->means.n, &p->means.st,
						 &p->means.var, NULL) != 0)
				return -1;
		}
		free(p->runs);
		p->runs = NULL;
	}
	if (r->npts)	/* a samples.csv of no measured row has no point */
		qsort(r->pts, r->npts, sizeof(*r->pts), cmp_points);
	return 0;
}

struct load_ctx {
	struct sb_run *r;
	size_t cap, cache, measured;
};

static int load_one(void *ctx, const struct sb_sample *smp)
{
	struct load_ctx *c = ctx;
	struct sb_point *pt = point_get(c->r, &c->cap, &c->cache, sb_mode_name[smp->mode], smp->tasks);

	c->measured++;
	return pt == NULL || point_add(pt, smp->run, smp->rate, smp->idle) != 0 ? -1 : 0;
}

static int load_samples(struct sb_run *r, char *err, size_t errlen)
{
	char *path = sb_path_join(r->dir, "samples.csv");
	struct load_ctx c = { .r = r };
	int rc;

	if (path == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	rc = sb_samples_read(path, load_one, &c, err, errlen);
	if (rc == 0 && c.measured == 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no measured samples (no row with phase measure)", path);
	if (rc == 0 && points_finish(r) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
	free(path);
	return rc;
}

int sb_run_samples(const char *path, struct sb_run *r, char *err, size_t errlen)
{
	struct load_ctx c = { .r = r };
	int rc;

	memset(r, 0, sizeof(*r));
	rc = sb_samples_read(path, load_one, &c, err, errlen);
	if (rc == 0 && points_finish(r) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory reading %s", path);
	return rc;
}

int sb_run_load(const char *arg, struct sb_run *r, char *err, size_t errlen)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->arg = strdup(arg);
	if (r->arg == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	rc = resolve_dir(r, err, errlen);
	if (rc == 0)
		rc = load_meta(r, err, errlen);
	if (rc == 0)
		rc = load_samples(r, err, errlen);
	if (rc != 0)
		return rc;
	if (*r->test == '\0') {
		/* results/<test>/<run-id>: the parent directory names the test. */
		char *copy = strdup(r->dir), *slash;

		if (copy == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		slash = strrchr(copy, '/');
		if (slash != NULL)
			*slash = '\0';
		slash = strrchr(copy, '/');
		r->test_owned = strdup(slash != NULL ? slash + 1 : copy);
		free(copy);
		if (r->test_owned == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		r->test = r->test_owned;
	}
	{
		const char *base = strrchr(r->dir, '/');

		r->name = strdup(*r->label ? r->label : *r->run_id ? r->run_id :
				 base != NULL ? base + 1 : r->dir);
		if (r->name == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	if (*r->status == '\0')
		r->status = "unknown";
	r->status = sb_status_now(r->status, r->sweep_host, r->sweep_pid, r->sweep_start);
	return 0;
}

void sb_run_free(struct sb_run *r)
{
	for (size_t i = 0; i < r->npts; i++) {
		free(r->pts[i].samples.v);
		free(r->pts[i].means.v);
		free(r->pts[i].runs);
	}
	free(r->pts);
	free(r->arg);
	free(r->dir);
	free(r->name);
	free(r->test_owned);
	free(r->meta_text);
	free(r->meta_lines);
	memset(r, 0, sizeof(*r));
}

const struct sb_point *sb_run_find(const struct sb_run *r, const char *mode, long tasks)
{
	for (size_t i = 0; i < r->npts; i++)
		if (r->pts[i].tasks == tasks && strcmp(r->pts[i].mode, mode) == 0)
			return &r->pts[i];
	return NULL;
}

/* Append n values to vs; 0, or -1 without memory. */
static int values_append(struct sb_values *vs, const double *v, size_t n)
{
	double *nv = realloc(vs->v, (vs->n + n + 1) * sizeof(*nv));

	if (nv == NULL)
		return -1;
	memcpy(nv + vs->n, v, n * sizeof(*v));
	vs->v = nv;
	vs->n += n;
	return 0;
}

const double *sb_point_run_means(const struct sb_point *p, size_t *n)
{
	if (p->means.n > 0) {
		*n = p->means.n;
		return p->means.v;
	}
	*n = p->nruns == 1 && p->samples.n > 0 ? 1 : 0;
	return &p->samples.st.mean;
}

int sb_run_pool(struct sb_run *dst, const struct sb_run *src)
{
	for (size_t i = 0; i < src->npts; i++) {
		const struct sb_point *p = &src->pts[i];
		struct sb_point *q = (struct sb_point *)sb_run_find(dst, p->mode, p->tasks);
		const double *pm;
		double qm;
		size_t pn, qn;

		if (q == NULL) {
			struct sb_point *np = realloc(dst->pts, (dst->npts + 1) * sizeof(*np));

			if (np == NULL)
				return SB_EXIT_ENV;
			dst->pts = np;
			q = &dst->pts[dst->npts++];
			memset(q, 0, sizeof(*q));
			snprintf(q->mode, sizeof(q->mode), "%s", p->mode);
			q->tasks = p->tasks;
		}
		/* q's own single run becomes a run mean before the samples mix */
		sb_point_run_means(q, &qn);
		qm = q->samples.st.mean;
		if (q->means.n == 0 && qn == 1 && values_append(&q->means, &qm, 1) != 0)
			return SB_EXIT_ENV;
		pm = sb_point_run_means(p, &pn);
		if (values_append(&q->means, pm, pn) != 0 ||
		    values_append(&q->samples, p->samples.v, p->samples.n) != 0)
			return SB_EXIT_ENV;
		q->nruns += p->nruns;
		q->idle_sum += p->idle_sum;
		q->idle_n += p->idle_n;
		q->idle = q->idle_n ? q->idle_sum / (double)q->idle_n : NAN;
		q->scap = q->samples.n;
		if (sb_stats_compute_var(q->samples.v, q->samples.n, &q->samples.st, &q->samples.var,
					 NULL) != 0)
			return SB_EXIT_ENV;
		if (!sb_runs_independent(q->means.n)) {
			q->means.n = 0;	/* as loaded: below SB_INDEPENDENT_RUNS, no run means */
			continue;
		}
		if (sb_stats_compute_var(q->means.v, q->means.n, &q->means.st, &q->means.var,
					 NULL) != 0)
			return SB_EXIT_ENV;
	}
	qsort(dst->pts, dst->npts, sizeof(*dst->pts), cmp_points);
	return 0;
}

const struct sb_values *sb_point_values(const struct sb_point *p)
{
	return p->means.n > 0 ? &p->means : &p->samples;
}

void sb_run_boot(const struct sb_run *r, char *buf, size_t len)
{
	const char *s = r->sweep_start ? r->sweep_start : "", *e = strchr(s, '/');
	size_t n = e ? (size_t)(e - s) : 0;

	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

int sb_run_across(const struct sb_run *a, const struct sb_run *b)
{
	char x[64], y[64];

	sb_run_boot(a, x, sizeof(x));
	sb_run_boot(b, y, sizeof(y));
	return !*x || !*y || strcmp(x, y) != 0;
}
