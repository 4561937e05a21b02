/* sb-summary: samples.csv of a run -> summary.csv (will-it-scale's columns, then statistics per mode). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats.h"

#define PROG "sb-summary"
#define CONF 95.0

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_ENV = 3 };
enum { PROCESSES, THREADS, NMODES };
static const char *const mode_name[NMODES] = { "processes", "threads" };

static const char usage_text[] =
	"usage: sb-summary [-o FILE] SAMPLES_CSV\n"
	"       sb-summary --point MODE:TASKS [--values] RUNDIR\n"
	"       sb-summary --table RUNDIR\n"
	"Reads a run's samples.csv and writes its summary.csv (results/README.md)\n"
	"to standard output, or to FILE through a temporary name and a rename.\n"
	"--point: the point's progress figure (\"4.81M ops/s \302\261""0.4%\"), nothing when\n"
	"absent; with --values \"RUNS MEAN HALF_PCT\" (HALF_PCT: the 95% interval's\n"
	"half-width across run means, percent of the mean; \"-\" below 2 runs).\n"
	"--table: the end-of-sweep table of the run (up to 12 points).\n";

/* One measured sample. */
struct row {
	unsigned long tasks, run;
	int mode;
	double rate;
	double idle;		/* NAN when the runner could not measure it */
};

/* The statistics of one (mode, tasks) point. */
struct point {
	int present;
	struct sb_stats s;
	double ci;		/* NAN when n < 2 */
	double idle;		/* NAN when no sample had it */
	size_t nruns;		/* distinct runs */
};

static const char *in_path;
static const char *tmp_path;	/* removed on error */

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	if (tmp_path)
		unlink(tmp_path);
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die(EXIT_ENV, "out of memory");
	p = realloc(p, n * size);
	if (!p && n)
		die(EXIT_ENV, "out of memory");
	return p;
}

/* Split s in place at commas; returns the number of fields. */
static size_t split(char *s, char ***fields, size_t *cap)
{
	size_t n = 0;

	for (;;) {
		if (n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*fields = xrealloc(*fields, *cap, sizeof(**fields));
		}
		(*fields)[n++] = s;
		s = strchr(s, ',');
		if (!s)
			return n;
		*s++ = '\0';
	}
}

static unsigned long parse_count(const char *s, unsigned long line, const char *col)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v == 0)
		die(EXIT_USAGE, "%s:%lu: %s '%s' is not a whole number of at least 1",
		    in_path, line, col, s);
	return v;
}

static double parse_number(const char *s, unsigned long line, const char *col, int empty_ok)
{
	char *end;
	double v;

	if (*s == '\0' && empty_ok)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end || errno || !isfinite(v) || v < 0)
		die(EXIT_USAGE, "%s:%lu: %s '%s' is not a non-negative number", in_path, line, col, s);
	return v;
}

static int column(char **names, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], want) == 0)
			return (int)i;
	die(EXIT_USAGE, "%s:1: no column '%s' in the header", in_path, want);
}

static void chomp(char *s)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		s[--len] = '\0';
}

/* Every measured sample of the file; warmup rows are checked and skipped. */
static struct row *read_samples(FILE *f, size_t *nrows)
{
	char *line = NULL, **fields = NULL, *header = NULL;
	size_t len = 0, cap = 0, nhead, rcap = 0, n = 0;
	unsigned long num = 0;
	struct row *rows = NULL;
	int c_mode, c_tasks, c_run, c_phase, c_rate, c_idle;

	errno = 0;
	if (getline(&line, &len, f) < 0) {
		if (ferror(f))
			die(EXIT_ENV, "%s: %s", in_path, strerror(errno));
		die(EXIT_USAGE, "%s: empty file (no header)", in_path);
	}
	num = 1;
	chomp(line);
	header = strdup(line);
	if (!header)
		die(EXIT_ENV, "out of memory");
	nhead = split(header, &fields, &cap);
	c_mode = column(fields, nhead, "mode");
	c_tasks = column(fields, nhead, "tasks");
	c_run = column(fields, nhead, "run");
	c_phase = column(fields, nhead, "phase");
	c_rate = column(fields, nhead, "ops_per_s");
	c_idle = column(fields, nhead, "idle_all_pct");

	while (getline(&line, &len, f) >= 0) {
		size_t nf;
		struct row r;

		num++;
		chomp(line);
		nf = split(line, &fields, &cap);
		if (nf != nhead)
			die(EXIT_USAGE, "%s:%lu: %zu fields, the header has %zu (truncated or malformed line)",
			    in_path, num, nf, nhead);
		if (strcmp(fields[c_mode], "processes") == 0)
			r.mode = PROCESSES;
		else if (strcmp(fields[c_mode], "threads") == 0)
			r.mode = THREADS;
		else
			die(EXIT_USAGE, "%s:%lu: mode '%s' is neither processes nor threads",
			    in_path, num, fields[c_mode]);
		r.tasks = parse_count(fields[c_tasks], num, "tasks");
		r.run = parse_count(fields[c_run], num, "run");
		r.rate = parse_number(fields[c_rate], num, "ops_per_s", 0);
		r.idle = parse_number(fields[c_idle], num, "idle_all_pct", 1);
		if (strcmp(fields[c_phase], "warmup") == 0)
			continue;
		if (strcmp(fields[c_phase], "measure") != 0)
			die(EXIT_USAGE, "%s:%lu: phase '%s' is neither warmup nor measure",
			    in_path, num, fields[c_phase]);
		if (n == rcap) {
			rcap = rcap ? rcap * 2 : 256;
			rows = xrealloc(rows, rcap, sizeof(*rows));
		}
		rows[n++] = r;
	}
	if (ferror(f))
		die(EXIT_ENV, "%s: %s", in_path, strerror(errno));
	free(line);
	free(fields);
	free(header);
	*nrows = n;
	return rows;
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	if (x->mode != y->mode)
		return x->mode < y->mode ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return 0;
}

/*
 * r[0..n-1]: the samples of one (mode, tasks), sorted by run. With several
 * runs the values are the runs' means (independent), else the samples.
 */
static void compute(const struct row *r, size_t n, double *buf, struct point *p)
{
	size_t nv = 0, nidle = 0, i = 0;
	double idle = 0;

	while (i < n) {
		size_t j = i;
		double sum = 0;

		for (; j < n && r[j].run == r[i].run; j++) {
			sum += r[j].rate;
			if (!isnan(r[j].idle)) {
				idle += r[j].idle;
				nidle++;
			}
		}
		buf[nv++] = sum / (double)(j - i);
		i = j;
	}
	if (sb_runs_independent(nv)) {
		if (sb_stats_compute(buf, nv, &p->s) < 0)
			die(EXIT_ENV, "internal: no values");
	} else {
		for (i = 0; i < n; i++)
			buf[i] = r[i].rate;
		if (sb_stats_compute(buf, n, &p->s) < 0)
			die(EXIT_ENV, "internal: no values");
	}
	p->present = 1;
	p->nruns = nv;
	p->ci = p->s.n >= 2 ? sb_ci_halfwidth(&p->s, CONF) : NAN;
	p->idle = nidle ? idle / (double)nidle : NAN;
}

static void put(FILE *out, double v)
{
	if (isnan(v))
		fputs(",", out);
	else
		fprintf(out, ",%.6f", v);
}

/* One row of summary.csv: a task count's points in both modes. */
struct line {
	unsigned long tasks;
	struct point p[NMODES];
	double linear;		/* NAN when there is no 1-task point */
};

/* The summary's rows (tasks ascending) of the measured samples rows[0..n-1]. */
static struct line *summarise(struct row *rows, size_t n, size_t *nlines)
{
	double *buf = xrealloc(NULL, n ? n : 1, sizeof(*buf));
	struct line *lines = xrealloc(NULL, n ? n : 1, sizeof(*lines));
	double best1 = NAN;
	size_t i = 0, nl = 0;

	if (n)
		qsort(rows, n, sizeof(*rows), cmp_row);
	while (i < n) {
		struct line *l = &lines[nl++];

		memset(l, 0, sizeof(*l));
		l->tasks = rows[i].tasks;
		while (i < n && rows[i].tasks == l->tasks) {
			size_t j = i;
			int m = rows[i].mode;

			while (j < n && rows[j].tasks == l->tasks && rows[j].mode == m)
				j++;
			compute(rows + i, j - i, buf, &l->p[m]);
			i = j;
		}
		/* linear: the better mode at 1 task, times tasks (rows are sorted, 1 comes first) */
		if (l->tasks == 1)
			for (int m = 0; m < NMODES; m++)
				if (l->p[m].present && (isnan(best1) || l->p[m].s.mean > best1))
					best1 = l->p[m].s.mean;
		l->linear = isnan(best1) ? NAN : best1 * (double)l->tasks;
	}
	free(buf);
	*nlines = nl;
	return lines;
}

static void write_summary(FILE *out, const struct line *lines, size_t nl)
{
	fputs("tasks,processes,processes_idle,threads,threads_idle,linear", out);
	for (int m = 0; m < NMODES; m++)
		fprintf(out, ",%s_stddev,%s_ci,%s_min,%s_max,%s_n", mode_name[m], mode_name[m],
			mode_name[m], mode_name[m], mode_name[m]);
	fputs(",lkp_linear\n", out);
	/* will-it-scale's first row; lkp_linear 0 so lkp-tests' parser sees linear 0 too */
	fputs("0,0,100,0,100,0,,,,,,,,,,,0\n", out);

	for (size_t i = 0; i < nl; i++) {
		const struct line *l = &lines[i];

		fprintf(out, "%lu", l->tasks);
		for (int m = 0; m < NMODES; m++) {
			put(out, l->p[m].present ? l->p[m].s.mean : NAN);
			put(out, l->p[m].present ? l->p[m].idle : NAN);
		}
		put(out, l->linear);
		for (int m = 0; m < NMODES; m++) {
			const struct point *p = &l->p[m];

			if (!p->present) {
				fputs(",,,,,", out);
				continue;
			}
			put(out, p->s.n >= 2 ? p->s.stddev : NAN);
			put(out, p->ci);
			put(out, p->s.min);
			put(out, p->s.max);
			fprintf(out, ",%zu", p->s.n);
		}
		/* lkp-tests reads linear from the last field; 0 there means "unknown" to it */
		if (isnan(l->linear))
			fputs(",0\n", out);
		else
			fprintf(out, ",%.6f\n", l->linear);
	}
}

/* v as summary.csv holds it (6 decimals): the views show what the file says. */
static double as_written(double v)
{
	char buf[64];

	if (isnan(v))
		return v;
	snprintf(buf, sizeof(buf), "%.6f", v);
	return strtod(buf, NULL);
}

/* v with a unit: 4.81M, 12.3K, 250; "-" for NAN. */
static const char *human(double v, char *buf, size_t len)
{
	const char *u = "";

	if (isnan(v))
		return "-";
	if (v >= 1e9) {
		v /= 1e9;
		u = "G";
	} else if (v >= 1e6) {
		v /= 1e6;
		u = "M";
	} else if (v >= 1e3) {
		v /= 1e3;
		u = "K";
	}
	snprintf(buf, len, v >= 100 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v, u);
	return buf;
}

/* The interval's half-width in percent of the mean: "0.4%", "" when unknown. */
static const char *pct(double ci, double mean, char *buf, size_t len)
{
	if (isnan(ci) || isnan(mean) || mean == 0)
		return "";
	snprintf(buf, len, "%.1f%%", 100 * ci / mean);
	return buf;
}

/* --table: the end-of-sweep table, up to 12 of the points, evenly spread. */
static void print_table(FILE *out, const struct line *lines, size_t n)
{
	size_t k = n > 12 ? 12 : n, last = 0;

	if (!n) {
		fputs("  (no completed point)\n", out);
		return;
	}
	fprintf(out, "  %6s %10s %7s %10s %7s %10s\n", "tasks", "processes", "+-", "threads", "+-",
		"vs linear");
	for (size_t j = 0; j < k; j++) {
		size_t i = k > 1 ? 1 + (size_t)((double)j * (double)(n - 1) / (double)(k - 1) + 0.5) : 1;
		const struct line *l = &lines[i - 1];
		double v[NMODES], ci[NMODES], lin = as_written(l->linear), best;
		char h[NMODES][32], c[NMODES][32], vs[32] = "-";

		if (i == last)
			continue;
		last = i;
		for (int m = 0; m < NMODES; m++) {
			v[m] = l->p[m].present ? as_written(l->p[m].s.mean) : NAN;
			ci[m] = l->p[m].present ? as_written(l->p[m].ci) : NAN;
		}
		best = !isnan(v[PROCESSES]) && (isnan(v[THREADS]) || v[PROCESSES] >= v[THREADS]) ?
			v[PROCESSES] : v[THREADS];
		if (!isnan(lin) && lin > 0 && !isnan(best))
			snprintf(vs, sizeof(vs), "%.0f%%", 100 * best / lin);
		fprintf(out, "  %6lu %10s %7s %10s %7s %10s\n", l->tasks,
			human(v[PROCESSES], h[PROCESSES], sizeof(h[0])),
			pct(ci[PROCESSES], v[PROCESSES], c[PROCESSES], sizeof(c[0])),
			human(v[THREADS], h[THREADS], sizeof(h[0])),
			pct(ci[THREADS], v[THREADS], c[THREADS], sizeof(c[0])), vs);
	}
}

static const struct point *find_point(const struct line *lines, size_t n, int mode,
				      unsigned long tasks)
{
	for (size_t i = 0; i < n; i++)
		if (lines[i].tasks == tasks)
			return lines[i].p[mode].present ? &lines[i].p[mode] : NULL;
	return NULL;
}

/* --point: "4.81M ops/s \302\261""0.4%", nothing when the point is absent. */
static void print_point(FILE *out, const struct point *p)
{
	char h[32];
	double mean, ci;

	if (!p)
		return;
	mean = as_written(p->s.mean);
	ci = as_written(p->ci);
	fprintf(out, "%s ops/s", human(mean, h, sizeof(h)));
	if (!isnan(ci) && mean > 0)
		fprintf(out, " \302\261%.1f%%", 100 * ci / mean);
	fputc('\n', out);
}

/*
 * --values: "RUNS MEAN HALF_PCT". MEAN is the mean of the run means (of the
 * samples with one run); HALF_PCT "-" below SB_INDEPENDENT_RUNS runs or with
 * a zero mean. An absent point: "0 - -".
 */
static void print_values(FILE *out, const struct point *p)
{
	if (!p) {
		fputs("0 - -\n", out);
		return;
	}
	fprintf(out, "%zu %.6f ", p->nruns, p->s.mean);
	if (sb_runs_independent(p->nruns) && !isnan(p->ci) && p->s.mean > 0)
		fprintf(out, "%.2f\n", 100 * p->ci / p->s.mean);
	else
		fputs("-\n", out);
}

/* FILE.tmp.XXXXXX in FILE's directory, with the mode a plain fopen would give. */
static FILE *open_temp(const char *path, char **tmp)
{
	mode_t mask = umask(0);
	FILE *f;
	int fd;

	umask(mask);
	if (asprintf(tmp, "%s.tmp.XXXXXX", path) < 0)
		die(EXIT_ENV, "out of memory");
	fd = mkstemp(*tmp);
	if (fd < 0)
		die(EXIT_ENV, "cannot create a file next to %s: %s", path, strerror(errno));
	tmp_path = *tmp;
	if (fchmod(fd, 0666 & ~mask) < 0)
		die(EXIT_ENV, "%s: %s", *tmp, strerror(errno));
	f = fdopen(fd, "w");
	if (!f)
		die(EXIT_ENV, "%s: %s", *tmp, strerror(errno));
	return f;
}

/* --point's MODE:TASKS into mode and tasks, or a usage error. */
static void parse_point(const char *arg, int *mode, unsigned long *tasks)
{
	const char *colon = strchr(arg, ':');
	char *end;
	size_t len = colon ? (size_t)(colon - arg) : 0;

	*mode = -1;
	for (int m = 0; m < NMODES && colon; m++)
		if (strlen(mode_name[m]) == len && strncmp(arg, mode_name[m], len) == 0)
			*mode = m;
	if (*mode >= 0) {
		errno = 0;
		*tasks = strtoul(colon + 1, &end, 10);
		if (colon[1] >= '0' && colon[1] <= '9' && !*end && !errno && *tasks > 0)
			return;
	}
	die(EXIT_USAGE, "--point '%s': expected MODE:TASKS (processes or threads, tasks at least 1); "
	    "try 'sb-summary --help'", arg);
}

static void usage_error(const char *fmt, const char *what) __attribute__((noreturn));

static void usage_error(const char *fmt, const char *what)
{
	fputs(usage_text, stderr);
	die(EXIT_USAGE, fmt, what);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "point", required_argument, NULL, 'p' },
		{ "values", no_argument, NULL, 'v' },
		{ "table", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out_path = NULL, *point = NULL;
	char *tmp = NULL, *path = NULL;
	struct row *rows;
	struct line *lines;
	size_t n, nl;
	FILE *in, *out = stdout;
	int c, values = 0, table = 0, mode = 0;
	unsigned long tasks = 0;
	struct stat st;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 'p':
			point = optarg;
			break;
		case 'v':
			values = 1;
			break;
		case 't':
			table = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case ':':
			if (optopt) {
				char o[3] = { '-', (char)optopt, '\0' };

				usage_error("option %s needs a value", o);
			}
			usage_error("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt) {
				char o[3] = { '-', (char)optopt, '\0' };

				usage_error("unknown option %s", o);
			}
			usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		usage_error("%s", point || table ? "expected one run directory" : "expected one samples.csv");
	if (values && !point)
		usage_error("%s", "--values goes with --point");
	if ((point || table) && out_path)
		usage_error("%s", "-o goes with a summary.csv, not with --point or --table");
	if (point && table)
		usage_error("%s", "--point or --table, not both");
	if (point)
		parse_point(point, &mode, &tasks);

	in_path = argv[optind];
	if (stat(in_path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (asprintf(&path, "%s/samples.csv", in_path) < 0)
			die(EXIT_ENV, "out of memory");
		in_path = path;
	}
	in = fopen(in_path, "r");
	if (!in)
		die(errno == ENOENT ? EXIT_USAGE : EXIT_ENV, "%s: %s", in_path, strerror(errno));
	rows = read_samples(in, &n);
	fclose(in);
	lines = summarise(rows, n, &nl);

	if (out_path)
		out = open_temp(out_path, &tmp);
	if (table)
		print_table(out, lines, nl);
	else if (point && values)
		print_values(out, find_point(lines, nl, mode, tasks));
	else if (point)
		print_point(out, find_point(lines, nl, mode, tasks));
	else
		write_summary(out, lines, nl);
	if (fflush(out) == EOF || ferror(out))
		die(EXIT_ENV, "writing %s: %s", out_path ? tmp : "standard output", strerror(errno));
	if (out_path) {
		if (fsync(fileno(out)) < 0 && errno != EINVAL)
			die(EXIT_ENV, "%s: %s", tmp, strerror(errno));
		if (fclose(out) == EOF)
			die(EXIT_ENV, "%s: %s", tmp, strerror(errno));
		if (rename(tmp, out_path) < 0)
			die(EXIT_ENV, "cannot rename %s to %s: %s", tmp, out_path, strerror(errno));
		tmp_path = NULL;
		free(tmp);
	}
	free(lines);
	free(rows);
	free(path);
	return EXIT_OK;
}
