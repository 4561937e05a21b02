/* sb-summary: samples.csv of a run -> summary.csv (will-it-scale's columns, then statistics per mode). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "export/bench_runs.h"
#include "export/ci_run.h"
#include "fmt/export.h"
#include "fmt/kcidb.h"
#include "fmt/squad.h"
#include "msg/msg.h"
#include "curve/curve.h"
#include "fmt/rate.h"
#include "curve/peak_label.h"
#include "fmt/plot_data.h"
#include "export/plot_model.h"
#include "io/outpath.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "io/results.h"

#define PROG "sb-summary"
#define CONF 95.0

enum { PROCESSES = SB_PROCESSES, THREADS = SB_THREADS, NMODES = SB_NMODES };
#define mode_name sb_mode_name

static const char usage_text[] =
	"usage: sb-summary [-o FILE] SAMPLES_CSV\n"
	"       sb-summary --point MODE:TASKS [--values] RUNDIR\n"
	"       sb-summary --table RUNDIR\n"
	"       sb-summary --format plot RUNDIR\n"
	"       sb-summary --format gab|bencher RUNDIR...\n"
	"       sb-summary --format kcidb [--origin NAME] [--commit SHA] [--checkout-id ID]\n"
	"                  [--build-id ID] [--gate EXIT] RUNDIR...\n"
	"       sb-summary --format squad [--gate EXIT] RUNDIR...\n"
	"Reads a run's samples.csv and writes its summary.csv (results/README.md)\n"
	"to standard output, or to FILE through a temporary name and a rename.\n"
	"--point: the point's progress figure (\"4.81M ops/s \302\261""0.4%\"), nothing when\n"
	"absent; with --values \"RUNS MEAN HALF_PCT\" (HALF_PCT: the 95% interval's\n"
	"half-width across run means, percent of the mean; \"-\" below 2 runs).\n"
	"--table: the end-of-sweep table of the run (up to 12 points; every count of a\n"
	"--points auto sweep; with points.csv, each count's reason), then each mode's peak\n"
	"with its plateau (\"peak 6 tasks (5-7 within the 95% interval)\").\n"
	"--format plot: the run's meta, summary.csv rows, peaks with their plateaus, the\n"
	"points short of the precision target and points.csv's origins, checked, for plot.py.\n"
	"--format gab: github-action-benchmark's customBiggerIsBetter JSON, --format bencher:\n"
	"Bencher's metric format; one entry per point, the run-level mean and its interval,\n"
	"every point of every RUNDIR in one file (two runs of one test named apart by label).\n"
	"--format kcidb: KernelCI's KCIDB v5.3 report: a checkout and a build per kernel\n"
	"(none with --build-id; no checkout with --checkout-id: an existing origin's), a\n"
	"test per sweep (scalebench.<test>: PASS, FAIL or ERROR) and per point\n"
	"(scalebench.<test>.<mode>.<tasks>, status DONE, number in ops/s; a sweep that is\n"
	"not complete gives FAIL or ERROR and no number), ids <origin>:<test>.<key>...\n"
	"where key comes from the sweep's start id and run id (a re-export never\n"
	"duplicates). --origin NAME ([a-z0-9_], default scalebench), --commit SHA (the\n"
	"checkout's commit; default meta's commit).\n"
	"--format squad: SQUAD's submission as one object: \"metrics\" {\"scalebench/<test>/\n"
	"<mode>/<tasks>\": [run means]}, \"tests\" {\"scalebench/<test>/sweep\": pass|fail},\n"
	"\"metadata\" (job_id, datetime, testbed, kernel, ... as strings); one testbed.\n"
	"--gate EXIT: sb-compare's (or sb-history changes') exit status against a\n"
	"baseline: a <test>.gate test, PASS on 0, FAIL on 1 (a regression), else ERROR\n"
	"(SQUAD: pass or fail). Without --gate there is no gate test.\n";

/* One row of summary.csv: a task count's points in both modes (NULL: not measured). */
struct line {
	unsigned long tasks;
	const struct sb_curve_point *p[NMODES];
	double linear;		/* NAN when there is no 1-task point */
};

/* A run's samples.csv read: its points (r), each mode's curve and the rows by task count. */
struct summary {
	struct sb_run r;
	struct sb_curve cv[NMODES];
	struct line *lines;
	size_t nl;
};

/* The summary of samples.csv at path (exit 2 or 3 with the reader's message). */
static void summarise(const char *path, struct summary *s)
{
	char err[PATH_MAX + 512];
	size_t k[NMODES] = { 0 }, most = 0;
	double best1;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = sb_run_samples(path, &s->r, err, sizeof(err));
	if (rc != 0)
		sb_die(rc, "%s", err);
	for (int m = 0; m < NMODES; m++) {
		if (sb_curve_of_run(&s->r, mode_name[m], &s->cv[m]) != 0)
			sb_die(SB_EXIT_ENV, "out of memory");
		most += s->cv[m].n;
	}
	s->lines = calloc(most ? most : 1, sizeof(*s->lines));
	if (s->lines == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	best1 = sb_best1(&s->r);
	/* merge the modes' curves by task count */
	for (;;) {
		struct line *l = &s->lines[s->nl];
		long t = LONG_MAX;

		for (int m = 0; m < NMODES; m++)
			if (k[m] < s->cv[m].n && s->cv[m].pt[k[m]].tasks < t)
				t = s->cv[m].pt[k[m]].tasks;
		if (t == LONG_MAX)
			break;
		l->tasks = (unsigned long)t;
		for (int m = 0; m < NMODES; m++)
			if (k[m] < s->cv[m].n && s->cv[m].pt[k[m]].tasks == t)
				l->p[m] = &s->cv[m].pt[k[m]++];
		l->linear = sb_linear(best1, t);
		s->nl++;
	}
}

static void summary_free(struct summary *s)
{
	for (int m = 0; m < NMODES; m++)
		sb_curve_free(&s->cv[m]);
	free(s->lines);
	sb_run_free(&s->r);
}

/* The summary's lines as summary.csv's rows (sb_summary_write: the one column table). */
static void write_summary(FILE *out, const struct line *lines, size_t nl)
{
	struct sb_summary_row *rows = calloc(nl ? nl : 1, sizeof(*rows));

	if (rows == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < nl; i++) {
		rows[i].tasks = (long)lines[i].tasks;
		rows[i].linear = lines[i].linear;
		for (int m = 0; m < NMODES; m++) {
			const struct sb_curve_point *p = lines[i].p[m];
			const struct sb_stats *st = p ? &sb_point_values(p->p)->st : NULL;

			rows[i].mode[m].mean = p ? p->mean : NAN;
			if (!p)
				continue;
			rows[i].mode[m].idle = p->idle;
			rows[i].mode[m].stddev = st->n >= 2 ? st->stddev : NAN;
			rows[i].mode[m].ci = p->ci;
			rows[i].mode[m].min = st->min;
			rows[i].mode[m].max = st->max;
			rows[i].mode[m].n = (long)st->n;
			rows[i].mode[m].runs = (long)p->nruns;
			/* the precision reached: the interval's half-width in % of the mean */
			rows[i].mode[m].precision = !isnan(p->ci) && p->mean > 0 ? 100 * p->ci / p->mean : NAN;
			rows[i].mode[m].peak = p->peak;
		}
	}
	sb_summary_write(out, rows, nl);
	free(rows);
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

/* The interval's half-width in percent of the mean: "0.4%", "" when unknown. */
static const char *pct(double ci, double mean, char *buf, size_t len)
{
	if (isnan(ci) || isnan(mean) || mean == 0)
		return "";
	snprintf(buf, len, "%.1f%%", 100 * ci / mean);
	return buf;
}

/* The peak of each mode under the table: "  processes: peak 6 tasks (5-7 within the 95% interval)". */
static void print_peaks(FILE *out, const struct summary *s)
{
	for (int m = 0; m < NMODES; m++) {
		const struct sb_curve *cv = &s->cv[m];
		char buf[160];

		if (cv->has_peak)
			fprintf(out, "  %s: %s\n", mode_name[m],
				sb_peak_label(buf, sizeof(buf), (unsigned long)cv->pt[cv->best].tasks,
					      (unsigned long)cv->pt[cv->lo].tasks,
					      (unsigned long)cv->pt[cv->hi].tasks, cv->pt[cv->best].nruns,
					      CONF));
	}
}

/* points.csv's rows (why each count is measured), when the run has one. */
struct whys {
	struct sb_points_row *v;
	size_t n;
};

static int add_why(void *ctx, const struct sb_points_row *r)
{
	struct whys *w = ctx;
	void *p = realloc(w->v, (w->n + 1) * sizeof(*w->v));

	if (!p)
		return -1;
	w->v = p;
	w->v[w->n++] = *r;
	return 0;
}

/* The table's "why" of a count: its reason, or each mode's when they differ ("" when unknown). */
static const char *why(const struct whys *w, unsigned long tasks, char *buf, size_t len)
{
	const char *r[NMODES] = { NULL, NULL };

	for (size_t i = 0; i < w->n; i++)
		if ((unsigned long)w->v[i].tasks == tasks)
			r[w->v[i].mode] = w->v[i].reason;
	if (r[PROCESSES] && r[THREADS] && strcmp(r[PROCESSES], r[THREADS]) != 0)
		snprintf(buf, len, "processes: %s; threads: %s", r[PROCESSES], r[THREADS]);
	else
		snprintf(buf, len, "%s", r[PROCESSES] ? r[PROCESSES] : r[THREADS] ? r[THREADS] : "");
	return buf;
}

/*
 * --table: the end-of-sweep table, up to 12 of the points, evenly spread;
 * with points.csv, each count's reason, and every count of a --points auto
 * sweep (its counts are few and chosen: the peak's neighbours must show).
 */
static void print_table(FILE *out, const struct summary *s, const struct whys *w)
{
	const struct line *lines = s->lines;
	size_t n = s->nl;
	size_t k = n > 12 ? 12 : n, last = 0;

	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i].origin, "given") != 0)
			k = n;

	if (!n) {
		fputs("  (no completed point)\n", out);
		return;
	}
	fprintf(out, "  %6s %10s %7s %10s %7s %10s%s\n", "tasks", "processes", "+-", "threads", "+-",
		"vs linear", w->n ? "  why" : "");
	for (size_t j = 0; j < k; j++) {
		size_t i = k > 1 ? 1 + (size_t)((double)j * (double)(n - 1) / (double)(k - 1) + 0.5) : 1;
		const struct line *l = &lines[i - 1];
		double v[NMODES], ci[NMODES], lin = as_written(l->linear), best;
		char h[NMODES][32], c[NMODES][32], vs[32] = "-", wb[256];

		if (i == last)
			continue;
		last = i;
		for (int m = 0; m < NMODES; m++) {
			v[m] = l->p[m] ? as_written(l->p[m]->mean) : NAN;
			ci[m] = l->p[m] ? as_written(l->p[m]->ci) : NAN;
		}
		best = !isnan(v[PROCESSES]) && (isnan(v[THREADS]) || v[PROCESSES] >= v[THREADS]) ?
			v[PROCESSES] : v[THREADS];
		if (!isnan(lin) && lin > 0 && !isnan(best))
			snprintf(vs, sizeof(vs), "%.0f%%", 100 * best / lin);
		fprintf(out, "  %6lu %10s %7s %10s %7s %10s", l->tasks,
			sb_rate_human(v[PROCESSES], h[PROCESSES], sizeof(h[0])),
			pct(ci[PROCESSES], v[PROCESSES], c[PROCESSES], sizeof(c[0])),
			sb_rate_human(v[THREADS], h[THREADS], sizeof(h[0])),
			pct(ci[THREADS], v[THREADS], c[THREADS], sizeof(c[0])), vs);
		if (w->n)
			fprintf(out, "  %s", why(w, l->tasks, wb, sizeof(wb)));
		fputc('\n', out);
	}
	print_peaks(out, s);
}

/* --point: "4.81M ops/s \302\261""0.4%", nothing when the point is absent. */
static void print_point(FILE *out, const struct sb_curve_point *p)
{
	char h[32];
	double mean, ci;

	if (!p)
		return;
	mean = as_written(p->mean);
	ci = as_written(p->ci);
	fprintf(out, "%s ops/s", sb_rate_human(mean, h, sizeof(h)));
	if (!isnan(ci) && mean > 0)
		fprintf(out, " \302\261%.1f%%", 100 * ci / mean);
	fputc('\n', out);
}

/*
 * --values: "RUNS MEAN HALF_PCT". MEAN is the mean of the run means (of the
 * samples with one run); HALF_PCT "-" below SB_INDEPENDENT_RUNS runs or with
 * a zero mean. An absent point: "0 - -".
 */
static void print_values(FILE *out, const struct sb_curve_point *p)
{
	if (!p) {
		fputs("0 - -\n", out);
		return;
	}
	fprintf(out, "%zu %.6f ", p->nruns, p->mean);
	if (sb_runs_independent(p->nruns) && !isnan(p->ci) && p->mean > 0)
		fprintf(out, "%.2f\n", 100 * p->ci / p->mean);
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
		sb_die(SB_EXIT_ENV, "out of memory");
	fd = mkstemp(*tmp);
	if (fd < 0)
		sb_die(SB_EXIT_ENV, "cannot create a file next to %s: %s", path, strerror(errno));
	sb_msg_remove_on_die(*tmp);
	if (fchmod(fd, 0666 & ~mask) < 0)
		sb_die(SB_EXIT_ENV, "%s: %s", *tmp, strerror(errno));
	f = fdopen(fd, "w");
	if (!f)
		sb_die(SB_EXIT_ENV, "%s: %s", *tmp, strerror(errno));
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
	sb_die(SB_EXIT_USAGE, "--point '%s': expected MODE:TASKS (processes or threads, tasks at least 1); "
	    "try 'sb-summary --help'", arg);
}

static void usage_error(const char *fmt, const char *what) __attribute__((noreturn));

/* One line, as the other tools say it (the whole usage before it buried the message). */
static void usage_error(const char *fmt, const char *what)
{
	sb_usage_die("try 'sb-summary --help'", fmt, what);
}

/* What the command line asks for. */
struct args {
	const char *out_path, *point, *input;
	char **inputs;		/* --format gab|bencher: every run directory */
	int ninputs;
	int plot, values, table, mode;
	int export;		/* 1 + enum sb_export, 0: none */
	int kci;		/* FMT_KCIDB or FMT_SQUAD, 0: neither */
	struct sb_kci_opts ko;	/* --origin, --commit, --checkout-id, --build-id, --gate */
	unsigned long tasks;
};

/* --format's values: gab and bencher are their enum sb_export */
enum { FMT_CSV = 100, FMT_PLOT, FMT_KCIDB, FMT_SQUAD };

static void set_format(void *opts, const struct sb_cli_opt *o, const char *arg, int value)
{
	struct args *a = opts;

	(void)o;
	(void)arg;
	if (value == FMT_PLOT)
		a->plot = 1;
	else if (value == FMT_KCIDB || value == FMT_SQUAD)
		a->kci = value;
	else if (value != FMT_CSV)
		a->export = 1 + value;	/* an enum sb_export */
}

static const struct sb_cli_choice formats[] = {
	{ "csv", FMT_CSV }, { "plot", FMT_PLOT }, { "gab", SB_EXPORT_GAB }, { "bencher", SB_EXPORT_BENCHER },
	{ "kcidb", FMT_KCIDB }, { "squad", FMT_SQUAD }, { NULL, 0 },
};

#define AT(f) offsetof(struct args, f)

/* --help's option list (the prose above says how they combine; parse_args checks it). */
static const struct sb_cli_opt table[] = {
	{ 'o', NULL, "FILE", SB_CLI_STRING, AT(out_path), 0, 0, NULL, NULL, NULL, 0, "write summary.csv into FILE (through a temporary name)", NULL, 0, 0 },
	{ 0, "point", "MODE:TASKS", SB_CLI_STRING, AT(point), 0, 0, NULL, NULL, NULL, 0, "the point's progress figure", NULL, 0, 0 },
	{ 0, "values", NULL, SB_CLI_FLAG, AT(values), 0, 0, NULL, NULL, NULL, 0, "--point: RUNS MEAN HALF_PCT instead", NULL, 0, 0 },
	{ 0, "table", NULL, SB_CLI_FLAG, AT(table), 0, 0, NULL, NULL, NULL, 0, "the end-of-sweep table and each mode's peak", NULL, 0, 0 },
	{ 0, "format", "F", SB_CLI_CHOICE, 0, 0, 0, formats,
	  "--format '%s': csv (summary.csv, the default), plot, gab, bencher, kcidb or squad", set_format,
	  0, "csv (the default), plot, gab, bencher, kcidb or squad", NULL, 0, 0 },
	{ 0, "origin", "NAME", SB_CLI_STRING, AT(ko.origin), 0, 0, NULL, NULL, NULL, 0, "kcidb: the origin (default scalebench)", NULL, 0, 0 },
	{ 0, "commit", "SHA", SB_CLI_STRING, AT(ko.commit), 0, 0, NULL, NULL, NULL, 0, "kcidb: the checkout's commit (default meta's)", NULL, 0, 0 },
	{ 0, "checkout-id", "ID", SB_CLI_STRING, AT(ko.checkout_id), 0, 0, NULL, NULL, NULL, 0, "kcidb: an existing origin's checkout", NULL, 0, 0 },
	{ 0, "build-id", "ID", SB_CLI_STRING, AT(ko.build_id), 0, 0, NULL, NULL, NULL, 0, "kcidb: an existing build", NULL, 0, 0 },
	{ 0, "gate", "EXIT", SB_CLI_INT, AT(ko.gate), 0, 255, NULL, NULL, NULL, 0, "kcidb, squad: sb-compare's exit status, a gate test", NULL, 0, 0 },
	{ 'h', "help", NULL, SB_CLI_HELP, 0, 0, 0, NULL, NULL, NULL, 0, "this text", NULL, 0, 0 },
};

static const struct sb_cli cli;

static void finish_output(FILE *out, const char *out_path, char *tmp);

static __attribute__((noreturn)) void help(void)
{
	fputs(usage_text, stdout);
	fputs("Options:\n", stdout);
	sb_cli_list(&cli, stdout);
	finish_output(stdout, NULL, NULL);	/* onto a full disk: exit 3, not 0 */
	exit(SB_EXIT_OK);
}

static __attribute__((noreturn)) void cli_error(const struct sb_cli *cli, const char *msg)
{
	(void)cli;
	usage_error("%s", msg);
}

/* An option is named by its letter, or as typed when long (getopt's optopt is 0 or no letter then). */
static __attribute__((noreturn)) void bad_option(const char *fmt, const char *typed, int optopt)
{
	char o[3] = { '-', (char)optopt, '\0' };

	usage_error(fmt, strncmp(typed, "--", 2) == 0 || !optopt ? typed : o);
}

static __attribute__((noreturn)) void unknown(const struct sb_cli *cli, const char *typed, int optopt)
{
	(void)cli;
	bad_option("unknown option %s", typed, optopt);
}

static __attribute__((noreturn)) void missing(const struct sb_cli *cli, const char *typed, int optopt)
{
	(void)cli;
	bad_option("option %s needs a value", typed, optopt);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]), .quiet = 1,
	.bad_number = "%s '%s': expected a whole number from %ld to %ld",
	.usage_error = cli_error, .unknown = unknown, .missing = missing, .help = help,
};

/* --format kcidb and squad: their options, alone with run directories. */
static void check_kci(struct args *a, int noperands)
{
	struct sb_kci_opts *k = &a->ko;
	const char *ids[] = { k->checkout_id, k->build_id };

	if (!a->kci) {
		if (k->origin || k->commit || k->checkout_id || k->build_id || k->gate >= 0)
			usage_error("%s", "--origin, --commit, --checkout-id, --build-id and --gate go with "
				    "--format kcidb (--gate also with squad)");
		return;
	}
	if (a->plot || a->export || a->point || a->table || a->out_path || a->values)
		usage_error("%s", "--format kcidb or squad goes alone with run directories");
	if (noperands < 1)
		usage_error("%s", "expected one run directory or more");
	if (a->kci == FMT_SQUAD && (k->origin || k->commit || k->checkout_id || k->build_id))
		usage_error("%s", "--origin, --commit, --checkout-id and --build-id go with --format kcidb");
	if (!k->origin)
		k->origin = "scalebench";
	if (!*k->origin || strspn(k->origin, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(k->origin))
		sb_die(SB_EXIT_USAGE, "--origin '%s': KCIDB's origin is [a-z0-9_] only, not empty", k->origin);
	for (int i = 0; i < 2; i++)
		if (ids[i] && !sb_kcidb_id_ok(ids[i]))
			sb_die(SB_EXIT_USAGE, "--%s '%s': a KCIDB id is ORIGIN:ID, ORIGIN of [a-z0-9_]",
			       i ? "build-id" : "checkout-id", ids[i]);
	if (k->commit && (!*k->commit || strpbrk(k->commit, " \t\n")))
		sb_die(SB_EXIT_USAGE, "--commit '%s': expected a commit id", k->commit);
}

/* The options and the one operand into *a, every combination checked (exit 2). */
static void parse_args(int argc, char **argv, struct args *a)
{
	int first;

	a->ko.gate = -1;
	first = sb_cli_parse(&cli, argc, argv, a);
	check_kci(a, argc - first);
	a->inputs = argv + first;
	a->ninputs = argc - first;
	if (a->kci)
		return;
	if (a->export && argc - first < 1)
		usage_error("%s", "expected one run directory or more");
	if (argc - first != 1 && !a->export)
		usage_error("%s", a->point || a->table || a->plot || a->export ? "expected one run directory" :
				  "expected one samples.csv");
	a->input = argv[first];
	if (a->values && !a->point)
		usage_error("%s", "--values goes with --point");
	if ((a->point || a->table) && a->out_path)
		usage_error("%s", "-o goes with a summary.csv, not with --point or --table");
	if (a->point && a->table)
		usage_error("%s", "--point or --table, not both");
	if (a->plot && (a->point || a->table || a->out_path))
		usage_error("%s", "--format plot goes alone with a run directory");
	if (a->export && (a->plot || a->point || a->table || a->out_path))
		usage_error("%s", "--format gab or bencher goes alone with run directories");
	if (a->point)
		parse_point(a->point, &a->mode, &a->tasks);
}

/* out written whole: flushed, and with -o synced and renamed over the file. */
static void finish_output(FILE *out, const char *out_path, char *tmp)
{
	if (fflush(out) == EOF || ferror(out))
		sb_die(SB_EXIT_ENV, "writing %s: %s", out_path ? tmp : "standard output", strerror(errno));
	if (!out_path)
		return;
	if (fsync(fileno(out)) < 0 && errno != EINVAL)
		sb_die(SB_EXIT_ENV, "%s: %s", tmp, strerror(errno));
	if (fclose(out) == EOF)
		sb_die(SB_EXIT_ENV, "%s: %s", tmp, strerror(errno));
	sb_outpath_check(out_path);
	if (rename(tmp, out_path) < 0)
		sb_die(SB_EXIT_ENV, "cannot rename %s to %s: %s", tmp, out_path, strerror(errno));
	sb_msg_remove_on_die(NULL);
	free(tmp);
}

/* --format kcidb, squad, gab, bencher and plot: the model built whole (export/), then printed (fmt/). */
static void view(const struct args *a)
{
	char err[PATH_MAX + 512];
	int rc;

	if (a->kci) {
		struct sb_ci_runs runs;

		rc = sb_ci_load_all(a->ninputs, a->inputs, a->kci == FMT_KCIDB ? a->ko.commit : NULL, &runs, err,
				    sizeof(err));
		if (rc == 0)
			rc = a->kci == FMT_KCIDB ? sb_kcidb_write(stdout, &runs, &a->ko, err, sizeof(err)) :
				sb_squad_write(stdout, &runs, a->ko.gate, err, sizeof(err));
		sb_ci_free_all(&runs);
	} else if (a->export) {
		struct sb_bench b;

		rc = sb_bench_load(a->ninputs, a->inputs, &b, err, sizeof(err));
		if (rc == 0)
			sb_export_print(stdout, &b, (enum sb_export)(a->export - 1));
		sb_bench_free(&b);
	} else {
		struct sb_plot p;

		rc = sb_plot_build(a->input, &p);
		sb_plot_print(stdout, &p);	/* the records before a failed check too */
		snprintf(err, sizeof(err), "%s", p.err);
		sb_plot_free(&p);
	}
	if (rc != 0)
		sb_die(rc, "%s", err);
	finish_output(stdout, NULL, NULL);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	const char *in_path;
	char *tmp = NULL, *path = NULL, err[PATH_MAX + 512];
	struct summary sum;
	FILE *out = stdout;
	struct stat st;
	int rc;

	sb_msg_prog(PROG);
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("%s (scalebench) %s git %s\n", PROG, SB_VERSION, SB_GIT_REVISION);
		finish_output(stdout, NULL, NULL);
		return 0;
	}
	parse_args(argc, argv, &a);
	if (a.kci || a.export || a.plot) {
		view(&a);
		return SB_EXIT_OK;
	}
	in_path = a.input;
	if (stat(in_path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (asprintf(&path, "%s/samples.csv", in_path) < 0)
			sb_die(SB_EXIT_ENV, "out of memory");
		in_path = path;
	}
	summarise(in_path, &sum);

	if (a.out_path) {
		sb_outpath_check(a.out_path);
		out = open_temp(a.out_path, &tmp);
	}
	if (a.table) {
		struct whys w = { 0 };
		char *pp = NULL;

		/* a run directory's points.csv (sb-plan's): why each count was measured */
		if (path && asprintf(&pp, "%s/points.csv", a.input) >= 0) {
			rc = sb_points_read(pp, add_why, &w, err, sizeof(err));
			if (rc >= 2)
				sb_die(rc, "%s", err);
		}
		print_table(out, &sum, &w);
		free(w.v);
		free(pp);
	} else if (a.point && a.values)
		print_values(out, sb_curve_at(&sum.cv[a.mode], (long)a.tasks));
	else if (a.point)
		print_point(out, sb_curve_at(&sum.cv[a.mode], (long)a.tasks));
	else
		write_summary(out, sum.lines, sum.nl);
	finish_output(out, a.out_path, tmp);
	summary_free(&sum);
	free(path);
	return SB_EXIT_OK;
}
