/* history_gen: a synthetic history of sweeps written as real run directories (samples.csv, meta, points.csv, summary.csv). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "history_model.h"

struct gen {
	struct hm_shape h;
	const char *out, *testcase, *host, *summary;
	const char *duration, *warmup, *period;	/* meta's run shape (--shape); NULL: the samples' */
	int hour;				/* each sweep's start, UTC (--hour) */
	unsigned long seed;
};

static void die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("history_gen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void usage(const char *why)
{
	die(2, "%s\nusage: history_gen --out DIR [--kernels 30] [--runs 3] [--run-sd 2] [--sweep-sd 1] "
	       "[--counts 24] [--modes 2] [--cell aa|broad|local|two|spike|drift] [--seed N] "
	       "[--testcase NAME] [--host NAME] [--base RATE] [--step-at K] [--step-pct P] [--summary SB-SUMMARY|none] "
	       "[--shape DURATION/WARMUP/PERIOD_MS] [--hour H]", why);
}

static double num(const char *opt, const char *v, double lo, double hi)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || *end || !(d >= lo && d <= hi))
		die(2, "%s: '%s' is not a number from %g to %g", opt, v, lo, hi);
	return d;
}

/* --shape D/W/P: meta's duration, warmup and period_ms as given (the samples stay 1 s ones) */
static void shape(struct gen *g, char *v)
{
	char *w = strchr(v, '/'), *p = w ? strchr(w + 1, '/') : NULL;

	if (!p || strchr(p + 1, '/') || strpbrk(v, "\n="))
		die(2, "--shape: '%s' is not DURATION/WARMUP/PERIOD_MS", v);
	*w = *p = 0;
	g->duration = v;
	g->warmup = w + 1;
	g->period = p + 1;
}

static void parse(struct gen *g, int argc, char **argv)
{
	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = argv[i + 1];
		int c;

		if (!v)
			usage("an option without its value");
		if (!strcmp(a, "--out")) g->out = v;
		else if (!strcmp(a, "--kernels")) g->h.kernels = (int)num(a, v, 1, 999);
		else if (!strcmp(a, "--runs")) g->h.runs = (int)num(a, v, 1, 100);
		else if (!strcmp(a, "--run-sd")) g->h.run_sd = num(a, v, 0, 50);
		else if (!strcmp(a, "--sweep-sd")) g->h.sweep_sd = num(a, v, 0, 50);
		else if (!strcmp(a, "--counts")) g->h.counts = (int)num(a, v, 1, 4096);
		else if (!strcmp(a, "--modes")) g->h.modes = (int)num(a, v, 1, 2);
		else if (!strcmp(a, "--seed")) g->seed = (unsigned long)num(a, v, 0, 4e9);
		else if (!strcmp(a, "--testcase")) g->testcase = v;
		else if (!strcmp(a, "--host")) g->host = v;
		else if (!strcmp(a, "--base")) g->h.base = num(a, v, 1, 1e12);
		else if (!strcmp(a, "--step-at")) g->h.step_at = (int)num(a, v, 1, 999);
		else if (!strcmp(a, "--step-pct")) g->h.step_pct = num(a, v, -90, 90);
		else if (!strcmp(a, "--summary")) g->summary = v;
		else if (!strcmp(a, "--hour")) g->hour = (int)num(a, v, 0, 23);
		else if (!strcmp(a, "--shape")) shape(g, argv[i + 1]);
		else if (!strcmp(a, "--cell")) {
			if ((c = hm_cell_parse(v)) < 0)
				die(2, "--cell: unknown cell '%s' (aa, broad, local, two, spike, drift)", v);
			g->h.cell = (enum hm_cell)c;
		} else
			usage("unknown option");
	}
	if (!g->out)
		usage("--out DIR is required");
	if (strchr(g->testcase, '/') || !*g->testcase || strchr(g->host, '\n'))
		die(2, "--testcase and --host: a plain name");
}

/* buf = a/b, or a clear error when it does not fit */
static void pjoin(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	if (n < 0 || (size_t)n >= len)
		die(2, "%s/%s: path too long", a, b);
}

static FILE *open_tmp(const char *dir, const char *name, char *tmp, size_t len)
{
	FILE *f;

	if ((size_t)snprintf(tmp, len, "%s/.%s.tmp", dir, name) >= len)
		die(2, "%s: path too long", dir);
	if (!(f = fopen(tmp, "w")))
		die(3, "%s: %s", tmp, strerror(errno));
	return f;
}

static void close_as(FILE *f, const char *tmp, const char *dir, const char *name)
{
	char path[PATH_MAX];

	pjoin(path, sizeof(path), dir, name);
	if (ferror(f) | fclose(f) || rename(tmp, path) != 0)
		die(3, "%s: %s", path, strerror(errno));
}

/* samples.csv: the runner's columns, two 1-second samples a run, no warmup rows (warmup=0) */
static void write_samples(const struct gen *g, const char *dir, const double *smp)
{
	static const char *const modes[] = { "processes", "threads" };
	char tmp[PATH_MAX];
	FILE *f = open_tmp(dir, "samples.csv", tmp, sizeof(tmp));

	fputs("mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,"
	      "idle_all_pct,late_ms\n", f);
	for (int r = 0; r < g->h.runs; r++)
		for (int m = 0; m < g->h.modes; m++)
			for (int t = 1; t <= g->h.counts; t++)
				for (int s = 0; s < g->h.samples; s++) {
					size_t i = (((size_t)m * g->h.counts + t - 1) * g->h.runs + r) *
						   g->h.samples + s;
					double v = smp[i];

					fprintf(f, "%s,%d,%d,measure,%d,1.000000,%.0f,%.1f,%.1f,%.1f,0.00,0.00,"
						   "0.100\n", modes[m], t, r + 1, s + 1, v, v, v / t, v / t);
				}
	close_as(f, tmp, dir, "samples.csv");
}

static void write_points(const struct gen *g, const char *dir)
{
	static const char *const modes[] = { "processes", "threads" };
	char tmp[PATH_MAX];
	FILE *f = open_tmp(dir, "points.csv", tmp, sizeof(tmp));

	fputs("mode,tasks,origin,reason\n", f);
	for (int m = 0; m < g->h.modes; m++)
		for (int t = 1; t <= g->h.counts; t++)
			fprintf(f, "%s,%d,given,every count\n", modes[m], t);
	close_as(f, tmp, dir, "points.csv");
}

/* meta: the keys runtest.sh writes, kernel k's label (k01...), release and start time */
static void write_meta(const struct gen *g, const char *dir, int k, const char *run_id,
		       const char *date)
{
	char tmp[PATH_MAX];
	FILE *f = open_tmp(dir, "meta", tmp, sizeof(tmp));

	fprintf(f, "test=%s\ndescription=synthetic history (%s)\nlabel=k%02d\nrun_id=%s\n"
		   "status=complete\nerror=\nfailed_mode=\nfailed_tasks=\ndate=%s\nhost=%s\n"
		   "kernel=Linux 6.%d.0-sim #1 SMP PREEMPT_DYNAMIC x86_64\nos=synthetic\n"
		   "cpu_model=Synthetic CPU\ntopology=packages=1 numa=1 cores=%d pus=%d\n"
		   "hwloc_version=2.9.0\nplacement=cores\naslr=off\nmodes=%s\npoints=",
		g->testcase, hm_cell_name[g->h.cell], k, run_id, date, g->host, k, g->h.counts,
		g->h.counts, g->h.modes == 2 ? "processes,threads" : "processes");
	for (int t = 1; t <= g->h.counts; t++)
		fprintf(f, "%s%d", t > 1 ? "," : "", t);
	fprintf(f, "\npoints_mode=list\nmax_points=%d\n", g->h.counts);
	if (g->duration)
		fprintf(f, "duration=%s\nwarmup=%s\nperiod_ms=%s\n", g->duration, g->warmup, g->period);
	else
		fprintf(f, "duration=%d\nwarmup=0\nperiod_ms=1000\n", g->h.samples);
	fprintf(f, "repeat=%d\nmin_runs=%d\nmax_runs=%d\nprecision=\npoint_budget=\nbudget=\n"
		   "order=alternate\nseed=%lu\nunmet=\nlate_warnings=0\nparams=\n"
		   "command=history_gen --cell %s --seed %lu\ncompiler=synthetic\ncflags=\n"
		   "git_revision=synthetic\nsweep_host=%s\nsweep_pid=%d\nsweep_start=history_gen/%lu/%d\n"
		   "system=governor=none turbo=none smt=off aslr=on thp=madvise swap=off "
		   "isolated=none prio=fifo vm=none load=0.00 others=0\nlock=none\ntune=off\n",
		g->h.runs, g->h.runs, g->h.runs, g->seed,
		hm_cell_name[g->h.cell], g->seed, g->host, 1000 + k, g->seed, k);
	close_as(f, tmp, dir, "meta");
}

/* summary.csv by sb-summary itself (the format has one writer) */
static void write_summary(const struct gen *g, const char *dir)
{
	char out[PATH_MAX], in[PATH_MAX];
	pid_t pid;
	int st;

	pjoin(out, sizeof(out), dir, "summary.csv");
	pjoin(in, sizeof(in), dir, "samples.csv");
	if ((pid = fork()) < 0)
		die(3, "fork: %s", strerror(errno));
	if (pid == 0) {
		execl(g->summary, g->summary, "-o", out, in, (char *)NULL);
		fprintf(stderr, "history_gen: %s: %s\n", g->summary, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die(3, "%s -o %s failed", g->summary, out);
}

static void mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		die(2, "%s: path too long", path);
	for (char *p = buf + 1; ; p++)
		if (*p == '/' || !*p) {
			char c = *p;

			*p = 0;
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				die(3, "%s: %s", buf, strerror(errno));
			if (!(*p = c))
				break;
		}
}

/* One sweep: written under a hidden name, renamed into place whole; `latest` follows it. */
static void write_sweep(const struct gen *g, int k, const double *smp)
{
	char test[PATH_MAX], tmp[PATH_MAX], dir[PATH_MAX], run_id[64], date[32], stamp[32];
	char link[PATH_MAX];

	pjoin(test, sizeof(test), g->out, g->testcase);
	/* kernel k's sweep starts on day k of 2026 at 02:00 UTC (--hour) */
	time_t when = (time_t)1767225600 + (time_t)(k - 1) * 86400 + 3600 * (time_t)g->hour;
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	snprintf(run_id, sizeof(run_id), "k%02d-%s", k, stamp);
	pjoin(dir, sizeof(dir), test, run_id);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", test, run_id) >= sizeof(tmp))
		die(2, "%s: path too long", test);
	if (access(dir, F_OK) == 0)
		die(2, "%s exists: an earlier history there (give another --out)", dir);
	mkdir_p(tmp);
	write_samples(g, tmp, smp);
	write_points(g, tmp);
	write_meta(g, tmp, k, run_id, date);
	if (g->summary)
		write_summary(g, tmp);
	if (rename(tmp, dir) != 0)
		die(3, "%s: %s", dir, strerror(errno));
	pjoin(link, sizeof(link), test, ".latest.tmp");
	pjoin(tmp, sizeof(tmp), test, "latest");
	unlink(link);
	if (symlink(run_id, link) != 0 || rename(link, tmp) != 0)
		die(3, "%s: %s", tmp, strerror(errno));
}

/* The sb-summary beside this program (build/selftest/.. /bin), unless --summary names one. */
static const char *find_summary(const char *argv0, char *buf, size_t len)
{
	const char *slash = strrchr(argv0, '/');

	snprintf(buf, len, "%.*s/../bin/sb-summary", slash ? (int)(slash - argv0) : 1,
		 slash ? argv0 : ".");
	return access(buf, X_OK) == 0 ? buf : NULL;
}

int main(int argc, char **argv)
{
	struct gen g = { .h = { .kernels = 30, .runs = 3, .counts = 24, .modes = 2, .samples = 2,
				 .run_sd = 2.0, .sweep_sd = 1.0, .base = 1e6, .cell = HM_AA },
			 .testcase = "histsim1", .host = "sim", .hour = 2, .seed = 1 };
	char sbs[PATH_MAX];
	struct hm_rng rng;
	double *runs, *smp;
	size_t n;

	parse(&g, argc, argv);
	if (!g.summary && !(g.summary = find_summary(argv[0], sbs, sizeof(sbs))))
		die(2, "no sb-summary beside history_gen: name it with --summary PATH (or none)");
	if (!strcmp(g.summary, "none"))
		g.summary = NULL;
	n = (size_t)g.h.modes * g.h.counts * g.h.runs;
	runs = malloc(n * sizeof(*runs));
	smp = malloc(n * g.h.samples * sizeof(*smp));
	if (!runs || !smp)
		die(3, "out of memory");
	hm_seed(&rng, g.seed, g.testcase);
	for (int k = 1; k <= g.h.kernels; k++) {
		hm_sweep(&g.h, &rng, k, runs, smp);
		write_sweep(&g, k, smp);
	}
	free(runs);
	free(smp);
	return 0;
}
