/* sb-summary: samples.csv of a run -> summary.csv (will-it-scale's columns, then statistics per mode). */
#define _GNU_SOURCE
#include <errno.h>
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
	"Reads a run's samples.csv and writes its summary.csv (results/README.md)\n"
	"to standard output, or to FILE through a temporary name and a rename.\n";

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
	if (nv > 1) {
		if (sb_stats_compute(buf, nv, &p->s) < 0)
			die(EXIT_ENV, "internal: no values");
	} else {
		for (i = 0; i < n; i++)
			buf[i] = r[i].rate;
		if (sb_stats_compute(buf, n, &p->s) < 0)
			die(EXIT_ENV, "internal: no values");
	}
	p->present = 1;
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

static void write_summary(FILE *out, struct row *rows, size_t n)
{
	double *buf = xrealloc(NULL, n ? n : 1, sizeof(*buf));
	double best1 = NAN;
	size_t i = 0;

	fputs("tasks,processes,processes_idle,threads,threads_idle,linear", out);
	for (int m = 0; m < NMODES; m++)
		fprintf(out, ",%s_stddev,%s_ci,%s_min,%s_max,%s_n", mode_name[m], mode_name[m],
			mode_name[m], mode_name[m], mode_name[m]);
	fputs(",lkp_linear\n", out);
	/* will-it-scale's first row; lkp_linear 0 so lkp-tests' parser sees linear 0 too */
	fputs("0,0,100,0,100,0,,,,,,,,,,,0\n", out);

	if (n)
		qsort(rows, n, sizeof(*rows), cmp_row);
	while (i < n) {
		unsigned long tasks = rows[i].tasks;
		struct point p[NMODES] = { { 0 } };
		double linear;

		while (i < n && rows[i].tasks == tasks) {
			size_t j = i;
			int m = rows[i].mode;

			while (j < n && rows[j].tasks == tasks && rows[j].mode == m)
				j++;
			compute(rows + i, j - i, buf, &p[m]);
			i = j;
		}
		/* linear: the better mode at 1 task, times tasks (rows are sorted, 1 comes first) */
		if (tasks == 1)
			for (int m = 0; m < NMODES; m++)
				if (p[m].present && (isnan(best1) || p[m].s.mean > best1))
					best1 = p[m].s.mean;
		linear = isnan(best1) ? NAN : best1 * (double)tasks;

		fprintf(out, "%lu", tasks);
		for (int m = 0; m < NMODES; m++) {
			put(out, p[m].present ? p[m].s.mean : NAN);
			put(out, p[m].present ? p[m].idle : NAN);
		}
		put(out, linear);
		for (int m = 0; m < NMODES; m++) {
			if (!p[m].present) {
				fputs(",,,,,", out);
				continue;
			}
			put(out, p[m].s.n >= 2 ? p[m].s.stddev : NAN);
			put(out, p[m].ci);
			put(out, p[m].s.min);
			put(out, p[m].s.max);
			fprintf(out, ",%zu", p[m].s.n);
		}
		/* lkp-tests reads linear from the last field; 0 there means "unknown" to it */
		if (isnan(linear))
			fputs(",0\n", out);
		else
			fprintf(out, ",%.6f\n", linear);
	}
	free(buf);
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

int main(int argc, char **argv)
{
	const char *out_path = NULL;
	char *tmp = NULL;
	struct row *rows;
	size_t n;
	FILE *in, *out = stdout;
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, ":o:h")) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case ':':
			fputs(usage_text, stderr);
			die(EXIT_USAGE, "option -%c needs a value", optopt);
		default:
			fputs(usage_text, stderr);
			die(EXIT_USAGE, "unknown option -%c", optopt);
		}
	}
	if (argc - optind != 1) {
		fputs(usage_text, stderr);
		die(EXIT_USAGE, "expected one samples.csv");
	}
	in_path = argv[optind];
	in = fopen(in_path, "r");
	if (!in)
		die(errno == ENOENT ? EXIT_USAGE : EXIT_ENV, "%s: %s", in_path, strerror(errno));
	rows = read_samples(in, &n);
	fclose(in);

	if (out_path)
		out = open_temp(out_path, &tmp);
	write_summary(out, rows, n);
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
	free(rows);
	return EXIT_OK;
}
