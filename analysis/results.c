/* The one reader of a run's files: samples.csv (sb_samples_read), meta, summary.csv, points.csv, a run directory's points. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef MAP_POPULATE
#define MAP_POPULATE 0	/* a Linux hint: elsewhere the pages are read in as needed */
#endif

#include "msg.h"
#include "results.h"

struct sb_run_acc {
	long run;
	double sum;
	size_t n;
};

/* A field of a CSV line: [s, e). */
struct field {
	const char *s, *e;
};


static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int exists(const char *dir, const char *name)
{
	char *p = join(dir, name);
	struct stat st;
	int ok;

	if (p == NULL)
		return 0;
	ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

/* path opened for reading and its status: the descriptor, or minus an errno. */
static int open_stat(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY), e;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) != 0) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/* Whole file into a NUL-terminated buffer. Returns 0 or an errno. */
static int slurp(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	ssize_t got;
	char *b;
	int fd = open_stat(path, &st), e;

	if (fd < 0)
		return -fd;
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return EISDIR;
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	b = malloc(cap);
	if (b == NULL) {
		close(fd);
		return ENOMEM;
	}
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(b, cap * 2);

			if (nb == NULL) {
				free(b);
				close(fd);
				return ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		got = read(fd, b + n, cap - n - 1);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			free(b);
			close(fd);
			return e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/*
 * samples.csv can be tens of megabytes: map it rather than copy it. Returns
 * 0 or an errno; *mapped says whether to munmap or free.
 */
static int map_file(const char *path, char **buf, size_t *len, int *mapped)
{
	struct stat st;
	void *p;
	int fd = open_stat(path, &st);

	*mapped = 0;
	if (fd < 0)
		return -fd;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		close(fd);
		if (p != MAP_FAILED) {
			*buf = p;
			*len = (size_t)st.st_size;
			*mapped = 1;
			return 0;
		}
		return slurp(path, buf, len);
	}
	close(fd);
	return slurp(path, buf, len);
}

static int resolve_dir(struct sb_run *r, char *err, size_t errlen)
{
	char *arg = strdup(r->arg), target[PATH_MAX];
	size_t n;
	ssize_t tl;

	if (arg == NULL)
		return sb_fail(err, errlen, 3, "out of memory");
	n = strlen(arg);
	while (n > 1 && arg[n - 1] == '/')
		arg[--n] = '\0';
	if (exists(arg, "samples.csv") || exists(arg, "meta")) {
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
	if (!exists(arg, "latest")) {
		free(arg);
		return sb_fail(err, errlen, 2,
			    "%s: neither a run directory (no samples.csv, no meta) nor a test "
			    "directory (no latest)", r->arg);
	}
	/* Name the run itself rather than "latest", so the output says which run it was. */
	{
		char *link = join(arg, "latest");

		if (link == NULL) {
			free(arg);
			return sb_fail(err, errlen, 3, "out of memory");
		}
		tl = readlink(link, target, sizeof(target) - 1);
		if (tl > 0) {
			target[tl] = '\0';
			if (strchr(target, '/') == NULL) {
				free(link);
				link = join(arg, target);
			}
		}
		free(arg);
		if (link == NULL)
			return sb_fail(err, errlen, 3, "out of memory");
		r->dir = link;
	}
	return 0;
}

int sb_meta_read(const char *path, sb_meta_fn fn, void *ctx, char **text, char *err,
		 size_t errlen)
{
	char *p, *next;
	size_t len;
	unsigned long lineno = 0;
	int e = slurp(path, text, &len);

	if (e != 0) {
		*text = NULL;
		return sb_fail(err, errlen, e == ENOMEM ? 3 : 2, "cannot read %s: %s", path, strerror(e));
	}
	for (p = *text; *p != '\0'; p = next) {
		char *eq, *end = strchr(p, '\n');

		lineno++;
		next = end ? end + 1 : p + strlen(p);
		if (end)
			*end = '\0';
		if (end > p && end[-1] == '\r')
			end[-1] = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		eq = strchr(p, '=');
		if (eq == NULL || eq == p)
			return sb_fail(err, errlen, 2, "%s:%lu: expected key=value", path, lineno);
		*eq = '\0';
		if (fn(ctx, p, eq + 1) != 0)
			return sb_fail(err, errlen, 3, "out of memory reading %s", path);
	}
	return 0;
}

static int meta_key(void *ctx, const char *key, const char *val)
{
	struct sb_run *r = ctx;
	struct {
		const char *key;
		const char **val;
	} keys[] = {
		{ "test", &r->test }, { "label", &r->label }, { "kernel", &r->kernel },
		{ "host", &r->host }, { "status", &r->status }, { "run_id", &r->run_id },
		{ "date", &r->date }, { "repeat", &r->repeat }, { "cpu_model", &r->cpu_model },
		{ "topology", &r->topology }, { "hwloc_version", &r->hwloc_version },
		{ "placement", &r->placement }, { "vm_accel", &r->vm_accel }, { "system", &r->system },
		{ "host_name", &r->host_name }, { "host_cpu", &r->host_cpu },
		{ "host_topology", &r->host_topology },
		{ "params", &r->params }, { "period_ms", &r->period_ms },
		{ "duration", &r->duration }, { "warmup", &r->warmup },
		{ "sweep_host", &r->sweep_host }, { "sweep_pid", &r->sweep_pid },
		{ "sweep_start", &r->sweep_start },
	};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strcmp(key, keys[k].key) == 0)
			*keys[k].val = val;
	return 0;
}

static int load_meta(struct sb_run *r, char *err, size_t errlen)
{
	char *path = join(r->dir, "meta");
	int rc;

	r->test = r->label = r->kernel = r->host = r->status = r->run_id = r->date = r->repeat = "";
	r->vm_accel = r->system = r->host_name = r->host_cpu = r->host_topology = "";
	r->cpu_model = r->topology = r->hwloc_version = r->placement = "";
	r->params = r->period_ms = r->duration = r->warmup = NULL;	/* older runs lack them */
	r->sweep_host = r->sweep_pid = r->sweep_start = "";
	if (path == NULL)
		return sb_fail(err, errlen, 3, "out of memory");
	rc = sb_meta_read(path, meta_key, r, &r->meta_text, err, errlen);
	free(path);
	return rc;
}

static int parse_long_field(struct field f, long min, long max, long *out)
{
	long v = 0;

	if (f.s == f.e || f.e - f.s > 12)
		return -1;
	for (const char *c = f.s; c < f.e; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (*c - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * Decimal fields as runtest.sh writes them ("12345.678901") are converted
 * exactly with one division of two exactly representable numbers (correctly
 * rounded, like strtod); anything else goes to strtod. This keeps loading two
 * 96-point runs of 1,000 samples well under the 0.1 s budget.
 */
static int parse_double_field(struct field f, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	uint64_t m = 0;
	int digits = 0, frac = -1;
	const char *c;
	char buf[64], *end;
	double d;

	if (f.s == f.e)
		return -1;
	for (c = f.s; c < f.e; c++) {
		if (*c >= '0' && *c <= '9') {
			if (++digits > 15)
				break;
			m = m * 10 + (uint64_t)(*c - '0');
			if (frac >= 0)
				frac++;
		} else if (*c == '.' && frac < 0) {
			frac = 0;
		} else {
			break;
		}
	}
	if (c == f.e && digits > 0) {
		*out = frac > 0 ? (double)m / pow10[frac] : (double)m;
		return 0;
	}
	if (f.e - f.s >= (long)sizeof(buf) || *f.s == ' ' || *f.s == '\t')
		return -1;
	memcpy(buf, f.s, (size_t)(f.e - f.s));
	buf[f.e - f.s] = '\0';
	errno = 0;
	d = strtod(buf, &end);
	if (end == buf || *end != '\0' || !isfinite(d))
		return -1;
	*out = d;
	return 0;
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
	qsort(r->pts, r->npts, sizeof(*r->pts), cmp_points);
	return 0;
}

static void unmap_file(char *buf, size_t len, int mapped)
{
	if (mapped)
		munmap(buf, len);
	else
		free(buf);
}

/*
 * A CSV file mapped whole: not empty, and ending with a newline (files are
 * renamed into place whole, so a missing one means the file was cut short).
 * Returns 0, or 2 or 3 with the message in err.
 */
static int map_csv(const char *path, char **buf, size_t *len, int *mapped, char *err,
		   size_t errlen)
{
	unsigned long lines = 1;
	int e = map_file(path, buf, len, mapped);

	if (e != 0)
		return sb_fail(err, errlen, e == ENOENT || e == EISDIR || e == ENOTDIR ? 2 : 3,
			       "%s: %s", path, strerror(e));
	if (*len > 0 && (*buf)[*len - 1] == '\n')
		return 0;
	for (size_t i = 0; i < *len; i++)
		lines += (*buf)[i] == '\n';
	unmap_file(*buf, *len, *mapped);
	if (*len == 0)
		return sb_fail(err, errlen, 2, "%s:1: empty file (no header)", path);
	return sb_fail(err, errlen, 2, "%s:%lu: last line has no newline: the file is truncated",
		       path, lines);
}

const char *const sb_mode_name[SB_NMODES] = { "processes", "threads" };

enum { COL_MODE, COL_TASKS, COL_RUN, COL_PHASE, COL_OPS, COL_IDLE, NCOLS };

/* The field as a string for a message, at most 40 characters of it. */
#define FIELD(f) (int)((f).e - (f).s > 40 ? 40 : (f).e - (f).s), (f).s

/* The columns' places in the header line [h, he); -1 when one is missing. */
static int read_header(const char *h, const char *he, int idx[NCOLS], const char **missing)
{
	static const char *const names[NCOLS] = {
		"mode", "tasks", "run", "phase", "ops_per_s", "idle_all_pct"
	};
	int nf = 0;

	for (int k = 0; k < NCOLS; k++)
		idx[k] = -1;
	while (h <= he) {
		const char *c = memchr(h, ',', (size_t)(he - h));
		const char *fe = c ? c : he;

		for (int k = 0; k < NCOLS; k++)
			if ((size_t)(fe - h) == strlen(names[k]) && memcmp(h, names[k], (size_t)(fe - h)) == 0)
				idx[k] = nf;
		nf++;
		h = fe + 1;
	}
	for (int k = 0; k < NCOLS; k++)
		if (idx[k] < 0) {
			*missing = names[k];
			return -1;
		}
	return nf;
}

static int field_is(struct field f, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(f.e - f.s) == n && memcmp(f.s, s, n) == 0;
}

/* One data line's measured sample into *smp: 1, 0 for a warmup row, or 2 with a message. */
static int parse_row(const struct field f[NCOLS], struct sb_sample *smp, const char *where,
		     char *err, size_t errlen)
{
	smp->mode = -1;
	for (int m = 0; m < SB_NMODES; m++)
		if (field_is(f[COL_MODE], sb_mode_name[m]))
			smp->mode = m;
	if (smp->mode < 0)
		return sb_fail(err, errlen, 2, "%s: mode '%.*s' is neither processes nor threads",
			    where, FIELD(f[COL_MODE]));
	if (parse_long_field(f[COL_TASKS], 1, 100000000L, &smp->tasks) != 0)
		return sb_fail(err, errlen, 2, "%s: tasks '%.*s' is not a whole number of at least 1",
			    where, FIELD(f[COL_TASKS]));
	if (parse_long_field(f[COL_RUN], 1, 1000000000L, &smp->run) != 0)
		return sb_fail(err, errlen, 2, "%s: run '%.*s' is not a whole number of at least 1",
			    where, FIELD(f[COL_RUN]));
	if (parse_double_field(f[COL_OPS], &smp->rate) != 0 || smp->rate < 0)
		return sb_fail(err, errlen, 2, "%s: ops_per_s '%.*s' is not a non-negative number",
			    where, FIELD(f[COL_OPS]));
	/* A finite value can still overflow a sum, a square or a ratio (1e308 printed +inf% -nan%
	 * and "no difference proven"); below the bound every figure stays finite. */
	if (smp->rate > SB_VALUE_MAX)
		return sb_fail(err, errlen, 2, "%s: ops_per_s '%.*s' is out of range (above %g: "
			    "no machine counts that fast, and the statistics would overflow)",
			    where, FIELD(f[COL_OPS]), SB_VALUE_MAX);
	smp->idle = NAN;
	if (f[COL_IDLE].s != f[COL_IDLE].e &&
	    (parse_double_field(f[COL_IDLE], &smp->idle) != 0 || smp->idle < 0 ||
	     smp->idle > SB_VALUE_MAX))
		return sb_fail(err, errlen, 2, "%s: idle_all_pct '%.*s' is not a non-negative number "
			    "up to %g", where, FIELD(f[COL_IDLE]), SB_VALUE_MAX);
	if (field_is(f[COL_PHASE], "warmup"))
		return 0;
	if (!field_is(f[COL_PHASE], "measure"))
		return sb_fail(err, errlen, 2, "%s: phase '%.*s' is neither warmup nor measure",
			    where, FIELD(f[COL_PHASE]));
	return 1;
}

int sb_samples_read(const char *path, sb_sample_fn fn, void *ctx, char *err, size_t errlen)
{
	char *buf = NULL, *p, *end, *nl, *he, where[PATH_MAX + 32];
	const char *missing = "";
	int idx[NCOLS], nf, rc = 0, *colmap = NULL, mapped = 0;
	size_t len;
	unsigned long lineno = 1;

	rc = map_csv(path, &buf, &len, &mapped, err, errlen);
	if (rc != 0)
		return rc;
	end = buf + len;

	/* Header: the columns by name, so added columns break no reader. */
	nl = memchr(buf, '\n', len);
	he = nl ? nl : end;
	if (he > buf && he[-1] == '\r')
		he--;
	nf = read_header(buf, he, idx, &missing);
	if (nf < 0) {
		rc = sb_fail(err, errlen, 2, "%s:1: no column '%s' in the header", path, missing);
		goto out;
	}
	p = nl ? nl + 1 : end;
	colmap = malloc((size_t)nf * sizeof(*colmap));
	if (colmap == NULL) {
		rc = sb_fail(err, errlen, 3, "out of memory");
		goto out;
	}
	for (int i = 0; i < nf; i++)
		colmap[i] = -1;
	for (int k = 0; k < NCOLS; k++)
		colmap[idx[k]] = k;

	for (; p < end; p = nl ? nl + 1 : end) {
		char *le, *q = p;
		struct field f[NCOLS];
		struct sb_sample smp;
		int fi = 0;

		nl = memchr(p, '\n', (size_t)(end - p));
		le = nl ? nl : end;
		lineno++;
		if (le > p && le[-1] == '\r')
			le--;
		for (;;) {
			char *c = memchr(q, ',', (size_t)(le - q)), *fe = c ? c : le;

			if (fi < nf && colmap[fi] >= 0) {
				f[colmap[fi]].s = q;
				f[colmap[fi]].e = fe;
			}
			fi++;
			if (c == NULL)
				break;
			q = c + 1;
		}
		snprintf(where, sizeof(where), "%s:%lu", path, lineno);
		if (fi != nf) {
			rc = sb_fail(err, errlen, 2, "%s: %d fields, the header has %d (truncated or malformed line)",
				  where, fi, nf);
			goto out;
		}
		rc = parse_row(f, &smp, where, err, errlen);
		if (rc == 0)
			continue;
		if (rc != 1)
			goto out;
		rc = 0;
		if (fn(ctx, &smp) != 0) {
			rc = sb_fail(err, errlen, 3, "out of memory reading %s", path);
			goto out;
		}
	}
out:
	free(colmap);
	unmap_file(buf, len, mapped);
	return rc;
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
	char *path = join(r->dir, "samples.csv");
	struct load_ctx c = { .r = r };
	int rc;

	if (path == NULL)
		return sb_fail(err, errlen, 3, "out of memory");
	rc = sb_samples_read(path, load_one, &c, err, errlen);
	if (rc == 0 && c.measured == 0)
		rc = sb_fail(err, errlen, 2, "%s: no measured samples (no row with phase measure)", path);
	if (rc == 0 && points_finish(r) != 0)
		rc = sb_fail(err, errlen, 3, "out of memory reading %s", path);
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
		rc = sb_fail(err, errlen, 3, "out of memory reading %s", path);
	return rc;
}

int sb_run_load(const char *arg, struct sb_run *r, char *err, size_t errlen)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->arg = strdup(arg);
	if (r->arg == NULL)
		return sb_fail(err, errlen, 3, "out of memory");
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
			return sb_fail(err, errlen, 3, "out of memory");
		slash = strrchr(copy, '/');
		if (slash != NULL)
			*slash = '\0';
		slash = strrchr(copy, '/');
		r->test_owned = strdup(slash != NULL ? slash + 1 : copy);
		free(copy);
		if (r->test_owned == NULL)
			return sb_fail(err, errlen, 3, "out of memory");
		r->test = r->test_owned;
	}
	{
		const char *base = strrchr(r->dir, '/');

		r->name = strdup(*r->label ? r->label : *r->run_id ? r->run_id :
				 base != NULL ? base + 1 : r->dir);
		if (r->name == NULL)
			return sb_fail(err, errlen, 3, "out of memory");
	}
	if (*r->status == '\0')
		r->status = "unknown";
	r->status = sb_status_now(r->status, r->sweep_host, r->sweep_pid, r->sweep_start);
	return 0;
}

/* "BOOT_ID/STARTTIME" of process pid (what runtest.sh records as sweep_start); -1 where /proc cannot tell. */
static int start_id(long pid, char *buf, size_t size)
{
	char path[64], stat[1024], boot[64];
	const char *p;
	ssize_t n;
	int fd;

	if ((fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, boot, sizeof(boot) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	boot[n] = '\0';
	boot[strcspn(boot, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	stat[n] = '\0';
	/* after the name in parentheses (which may hold anything): field 3 on; starttime is field 22 */
	if ((p = strrchr(stat, ')')) == NULL)
		return -1;
	p++;
	for (int field = 2; field < 21; field++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
		if (*p == '\0')
			return -1;
	}
	p += strspn(p, " ");
	snprintf(buf, size, "%s/%.*s", boot, (int)strcspn(p, " \n"), p);
	return 0;
}

const char *sb_status_now(const char *status, const char *host, const char *pid,
			  const char *start)
{
	struct utsname u;
	char now[160];
	char *end;
	long v;

	if (strcmp(status, "running") != 0 || !*host || !*pid)
		return status;
	if (uname(&u) != 0 || strcmp(u.nodename, host) != 0)
		return status;
	errno = 0;
	v = strtol(pid, &end, 10);
	if (*end != '\0' || errno || v <= 0 || v != (long)(pid_t)v)
		return status;
	if (kill((pid_t)v, 0) < 0 && errno == ESRCH)
		return "abandoned";
	if (*start && start_id(v, now, sizeof(now)) == 0 && strcmp(now, start) != 0)
		return "abandoned";
	return status;
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
				return 3;
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
			return 3;
		pm = sb_point_run_means(p, &pn);
		if (values_append(&q->means, pm, pn) != 0 ||
		    values_append(&q->samples, p->samples.v, p->samples.n) != 0)
			return 3;
		q->nruns += p->nruns;
		q->idle_sum += p->idle_sum;
		q->idle_n += p->idle_n;
		q->idle = q->idle_n ? q->idle_sum / (double)q->idle_n : NAN;
		q->scap = q->samples.n;
		if (sb_stats_compute_var(q->samples.v, q->samples.n, &q->samples.st, &q->samples.var,
					 NULL) != 0)
			return 3;
		if (!sb_runs_independent(q->means.n)) {
			q->means.n = 0;	/* as loaded: below SB_INDEPENDENT_RUNS, no run means */
			continue;
		}
		if (sb_stats_compute_var(q->means.v, q->means.n, &q->means.st, &q->means.var,
					 NULL) != 0)
			return 3;
	}
	qsort(dst->pts, dst->npts, sizeof(*dst->pts), cmp_points);
	return 0;
}

const struct sb_values *sb_point_values(const struct sb_point *p)
{
	return p->means.n > 0 ? &p->means : &p->samples;
}

/* summary.csv's columns: will-it-scale's six first, then the statistics by name. */
static const char *const wis_columns = "tasks,processes,processes_idle,threads,threads_idle,linear";

enum { SC_MEAN, SC_IDLE, SC_STDDEV, SC_CI, SC_N, SC_RUNS, SC_PRECISION, SC_PEAK, SC_PER_MODE };

static int summary_number(struct field f, const char *where, const char *name, int whole,
			  double *out, char *err, size_t errlen)
{
	long l;

	*out = NAN;
	if (f.s == f.e)
		return 0;
	if (whole ? parse_long_field(f, 0, 1000000000L, &l) != 0 :
		    parse_double_field(f, out) != 0 || *out < 0)
		return sb_fail(err, errlen, 2, "%s: %s '%.*s' is not a non-negative number", where, name,
			    FIELD(f));
	if (whole)
		*out = (double)l;
	return 0;
}

static const char *const summary_suffix[SC_PER_MODE] = { "", "_idle", "_stddev", "_ci", "_n", "_runs",
							    "_precision", "_peak" };

/* The header [buf, nl): will-it-scale's six first, then col[mode][k] by name. Returns the fields, or -1. */
static int summary_header(const char *buf, const char *nl, int col[SB_NMODES][SC_PER_MODE])
{
	size_t wl = strlen(wis_columns);
	const char *h = buf, *he = nl > buf && nl[-1] == '\r' ? nl - 1 : nl;
	char name[64];
	int nf = 0;

	if ((size_t)(he - buf) < wl || memcmp(buf, wis_columns, wl) != 0 ||
	    (buf + wl != he && buf[wl] != ','))
		return -1;
	for (int m = 0; m < SB_NMODES; m++)
		for (int k = 0; k < SC_PER_MODE; k++)
			col[m][k] = -1;
	while (h <= he) {
		const char *c = memchr(h, ',', (size_t)(he - h)), *fe = c ? c : he;

		for (int m = 0; m < SB_NMODES; m++)
			for (int k = 0; k < SC_PER_MODE; k++) {
				snprintf(name, sizeof(name), "%s%s", sb_mode_name[m], summary_suffix[k]);
				if ((size_t)(fe - h) == strlen(name) && memcmp(h, name, strlen(name)) == 0)
					col[m][k] = nf;
			}
		nf++;
		h = fe + 1;
	}
	return nf;
}

/* The line [p, le) split at commas into f[0..max-1]; returns how many fields it has. */
static int split_fields(char *p, char *le, struct field *f, int max)
{
	int fi = 0;

	for (;;) {
		char *c = memchr(p, ',', (size_t)(le - p)), *fe = c ? c : le;

		if (fi < max) {
			f[fi].s = p;
			f[fi].e = fe;
		}
		fi++;
		if (c == NULL)
			return fi;
		p = c + 1;
	}
}

/* A data row's numbers (tasks already read) into *r. Returns 0 or 2 with a message. */
static int summary_row(const struct field *f, const int col[SB_NMODES][SC_PER_MODE],
		       const char *where, struct sb_summary_row *r, char *err, size_t errlen)
{
	char name[64];
	double n, runs, peak;
	int rc = summary_number(f[5], where, "linear", 0, &r->linear, err, errlen);

	for (int m = 0; m < SB_NMODES && rc == 0; m++) {
		double *dst[SC_PER_MODE] = { &r->mode[m].mean, &r->mode[m].idle, &r->mode[m].stddev,
					     &r->mode[m].ci, &n, &runs, &r->mode[m].precision, &peak };

		for (int k = 0; k < SC_PER_MODE && rc == 0; k++) {
			*dst[k] = NAN;
			if (col[m][k] >= 0) {
				snprintf(name, sizeof(name), "%s%s", sb_mode_name[m], summary_suffix[k]);
				rc = summary_number(f[col[m][k]], where, name,
						    k == SC_N || k == SC_RUNS || k == SC_PEAK, dst[k], err, errlen);
			}
		}
		if (rc == 0 && !isnan(peak) && peak > SB_PEAK_BEST)
			rc = sb_fail(err, errlen, 2, "%s: %s_peak '%.0f' is not 1 (plateau) or 2 (best)", where,
				     sb_mode_name[m], peak);
		r->mode[m].n = isnan(n) ? 0 : (long)n;
		/* _runs came after _n (issue 11): before it, n was the runs when there was an interval */
		r->mode[m].runs = !isnan(runs) ? (long)runs : isnan(n) ? 0 : !isnan(r->mode[m].ci) ? (long)n : 1;
		r->mode[m].peak = col[m][SC_PEAK] < 0 ? SB_PEAK_UNKNOWN : isnan(peak) ? SB_PEAK_NONE : (int)peak;
	}
	return rc;
}

int sb_summary_read(const char *path, struct sb_summary_row **rows, size_t *nrows, char *err,
		    size_t errlen)
{
	enum { MAXF = 256 };
	char *buf = NULL, *p, *end, *nl, where[PATH_MAX + 32];
	int mapped = 0, rc, nf, col[SB_NMODES][SC_PER_MODE];
	size_t len, cap = 0;
	unsigned long lineno = 1;

	*rows = NULL;
	*nrows = 0;
	rc = map_csv(path, &buf, &len, &mapped, err, errlen);
	if (rc != 0)
		return rc;
	end = buf + len;
	nl = memchr(buf, '\n', len);	/* map_csv: the file ends with one */
	nf = summary_header(buf, nl, col);
	if (nf < 0)
		rc = sb_fail(err, errlen, 2, "%s:1: header does not start with %s", path, wis_columns);
	for (p = nl + 1; rc == 0 && p < end; p = nl + 1) {
		struct field f[MAXF];
		double tasks;
		int fi;

		nl = memchr(p, '\n', (size_t)(end - p));
		fi = split_fields(p, nl > p && nl[-1] == '\r' ? nl - 1 : nl, f, MAXF);
		snprintf(where, sizeof(where), "%s:%lu", path, ++lineno);
		if (field_is(f[0], "0") && (fi == 6 || fi == nf))
			continue;	/* will-it-scale's 0,0,100,0,100,0 row */
		if (fi != nf || nf > MAXF) {
			rc = sb_fail(err, errlen, 2, "%s: %d fields, the header has %d (truncated or malformed line)",
				     where, fi, nf);
			break;
		}
		rc = summary_number(f[0], where, "tasks", 1, &tasks, err, errlen);
		if (rc == 0 && (isnan(tasks) || tasks < 1))
			rc = sb_fail(err, errlen, 2, "%s: tasks must be a whole number of at least 1", where);
		if (rc == 0 && *nrows && tasks <= (double)(*rows)[*nrows - 1].tasks)
			rc = sb_fail(err, errlen, 2, "%s: tasks %.0f after %ld: rows must go up", where, tasks,
				     (*rows)[*nrows - 1].tasks);
		if (rc == 0 && *nrows == cap) {
			struct sb_summary_row *nr = realloc(*rows, (cap ? cap * 2 : 64) * sizeof(*nr));

			if (nr == NULL)
				rc = sb_fail(err, errlen, 3, "out of memory reading %s", path);
			*rows = nr ? nr : *rows;
			cap = nr ? (cap ? cap * 2 : 64) : cap;
		}
		if (rc == 0) {
			(*rows)[*nrows].tasks = (long)tasks;
			rc = summary_row(f, col, where, &(*rows)[(*nrows)++], err, errlen);
		}
	}
	if (rc != 0) {
		free(*rows);
		*rows = NULL;
		*nrows = 0;
	}
	unmap_file(buf, len, mapped);
	return rc;
}

int sb_points_read(const char *path, sb_points_fn fn, void *ctx, char *err, size_t errlen)
{
	static const char header[] = "mode,tasks,origin,reason";
	char *buf = NULL, *p, *end, *nl;
	size_t len;
	int mapped = 0, rc = 0;
	unsigned long lineno = 1;
	struct stat st;

	if (stat(path, &st) != 0 && errno == ENOENT)
		return 1;
	rc = map_csv(path, &buf, &len, &mapped, err, errlen);
	if (rc != 0)
		return rc;
	end = buf + len;
	nl = memchr(buf, '\n', len);
	if ((size_t)(nl - buf) != strlen(header) || memcmp(buf, header, strlen(header)) != 0) {
		unmap_file(buf, len, mapped);
		return sb_fail(err, errlen, 2, "%s:1: the header is not '%s'", path, header);
	}
	for (p = nl + 1; p < end; p = nl + 1) {
		struct sb_points_row r = { .mode = -1 };
		char *f[4], *q = p, *e;
		long tasks;
		int k;

		nl = memchr(p, '\n', (size_t)(end - p));
		lineno++;
		for (k = 0; k < 3; k++) {
			f[k] = q;
			q = memchr(q, ',', (size_t)(nl - q));
			if (!q)
				break;
			q++;
		}
		f[3] = q;
		if (k < 3 || memchr(q, ',', (size_t)(nl - q))) {
			rc = sb_fail(err, errlen, 2, "%s:%lu: not 4 fields (mode,tasks,origin,reason)", path, lineno);
			break;
		}
		for (int m = 0; m < SB_NMODES; m++)
			if ((size_t)(f[1] - 1 - f[0]) == strlen(sb_mode_name[m]) &&
			    memcmp(f[0], sb_mode_name[m], strlen(sb_mode_name[m])) == 0)
				r.mode = m;
		errno = 0;
		tasks = strtol(f[1], &e, 10);
		if (r.mode < 0 || e != f[2] - 1 || errno || tasks < 1 || f[3] - 1 - f[2] >= (long)sizeof(r.origin) ||
		    (size_t)(nl - f[3]) >= sizeof(r.reason)) {
			rc = sb_fail(err, errlen, 2, "%s:%lu: malformed row (mode, task count, origin or reason)",
				     path, lineno);
			break;
		}
		r.tasks = tasks;
		memcpy(r.origin, f[2], (size_t)(f[3] - 1 - f[2]));
		r.origin[f[3] - 1 - f[2]] = '\0';
		if (strcmp(r.origin, "seed") != 0 && strcmp(r.origin, "added") != 0 && strcmp(r.origin, "given") != 0) {
			rc = sb_fail(err, errlen, 2, "%s:%lu: origin '%s' is not seed, added or given", path, lineno,
				     r.origin);
			break;
		}
		memcpy(r.reason, f[3], (size_t)(nl - f[3]));
		r.reason[nl - f[3]] = '\0';
		if (fn(ctx, &r) != 0) {
			rc = sb_fail(err, errlen, 3, "out of memory reading %s", path);
			break;
		}
	}
	unmap_file(buf, len, mapped);
	return rc;
}
