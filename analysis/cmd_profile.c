/* sb-profile: perf script output -> folded stacks and top symbols; profile diffs; profiled points. */
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
#include "fmt/export.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "msg/msg.h"
#include "curve/peak_label.h"
#include "curve/curve.h"
#include "fmt/rate.h"
#include "io/outpath.h"
#include "profile/profile.h"
#include "profile/profile_diff.h"
#include "profile/profile_drift.h"
#include "profile/profile_run.h"
#include "io/number.h"
#include "io/results.h"

#define PROG "sb-profile"
#define ERRLEN 1024

static const char usage_text[] =
	"usage: sb-profile script [-e EVENT] [-c COMM] -o DIR [PERF_SCRIPT_OUTPUT|-]\n"
	"       sb-profile top [--format text|csv] [-n N] FOLDED|TOP_CSV|DIR\n"
	"       sb-profile diff [--format text|markdown|csv] [-n N] [--children] BASE NEW\n"
	"       sb-profile compare [--format text|markdown|csv] [-n N] [--children]\n"
	"                          [--testcase] [--point MODE:TASKS] BASE_RUN NEW_RUN\n"
	"       sb-profile points SUMMARY_CSV MODE LIST\n"
	"       sb-profile rate -o FILE RUN_SUMMARY_CSV PROFILED_SUMMARY_CSV MODE TASKS\n"
	"       sb-profile summary [-n N] DIR\n"
	"       sb-profile --version\n"
	"\n"
	"script   reads 'perf script -F comm,tid,period,event,ip,sym,dso' output (samples\n"
	"         of EVENT, default the first event seen) and writes DIR/folded.txt,\n"
	"         DIR/top.csv and DIR/top.txt; with -c, also DIR/test-top.csv and\n"
	"         DIR/test-top.txt: the samples of commands whose name starts with COMM\n"
	"top      the top-symbols table of folded stacks or a top.csv\n"
	"diff     the symbols whose share changed most between two profiles (folded\n"
	"         stacks, top.csv, or profile directories): base %, new %, change in\n"
	"         percentage points; self share, or with-children share (--children)\n"
	"compare  for every point profiled in both runs, its throughput verdict and its diff\n"
	"         (of the whole machine's shares, or with --testcase the testcase's tasks')\n"
	"points   the task counts of LIST (numbers, peak, max) for MODE, from a summary.csv,\n"
	"         one a line; the peak's line adds a tab and its plateau's words\n"
	"rate     the profiled run's rate beside the measured mean, as key=value lines\n"
	"summary  one line: event, samples, rate, the top N symbols (default 3)\n"
	"\nOptions:\n";
static const char usage_tail[] =
	"\n"
	"Exit: 0 ok (compare: no significant regression at a listed point), 1 compare:\n"
	"a listed point is significantly slower, 2 usage or input error, 3 environment error.\n";

#define die sb_die	/* msg.c: removes the half-written file sb_msg_remove_on_die names */

#define usage_error(...) sb_usage_die("try 'sb-profile --help'", __VA_ARGS__)

/* An operand's whole number (points' LIST, rate's TASKS), worded as -n's. */
static long parse_long(const char *what, const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min)
		usage_error("%s: '%s' is not a whole number of at least %ld", what, s, min);
	return v;
}

/* ---- each command's options (all but script's, rate's and summary's have long forms) ---- */

static __attribute__((noreturn)) void cli_error(const struct sb_cli *cli, const char *msg)
{
	(void)cli;
	usage_error("%s", msg);
}

/* getopt has said what it did not know: the command's word follows. */
static __attribute__((noreturn)) void unknown(const struct sb_cli *cli, const char *typed, int optopt)
{
	(void)typed;
	(void)optopt;
	usage_error("%s: unknown option", cli->what);
}

#define CLI(tab, word) { .opts = tab, .nopts = sizeof(tab) / sizeof(tab[0]), .what = word, \
	.bad_number = "%s: '%s' is not a whole number of at least %ld", .usage_error = cli_error, \
	.unknown = unknown, .missing = unknown, .decimal = sb_decimal, \
	.bad_decimal = "%s '%s': expected a percentage from %g to %g (a sweep's offset sd)" }
#define ROW(l, n, a, k, f) { l, n, a, k, f, 0, 0, NULL, NULL, NULL, 0, NULL, NULL, 0, 0 }
#define ROWH(l, n, a, k, f, h) { l, n, a, k, f, 0, 0, NULL, NULL, NULL, 0, h, NULL, 0, 0 }
#define COUNT(f, h) { 'n', NULL, "N", SB_CLI_LONG, f, 1, LONG_MAX, NULL, NULL, NULL, 0, h, NULL, 0, 0 }
#define FORMAT(c, bad, h) { 0, "format", "F", SB_CLI_CHOICE, offsetof(struct view_opts, fmt), 0, 0, c, bad, \
	NULL, 0, h, NULL, 0, 0 }

struct script_opts {
	const char *event, *dir, *comm;
};

static const struct sb_cli_opt script_opts[] = {
	ROWH('e', NULL, "EVENT", SB_CLI_STRING, offsetof(struct script_opts, event),
	     "script: the samples of EVENT (default: the first event seen)"),
	ROWH('o', NULL, "DIR", SB_CLI_STRING, offsetof(struct script_opts, dir), "script: where the files go"),
	ROWH('c', NULL, "COMM", SB_CLI_STRING, offsetof(struct script_opts, comm),
	     "script: test-top.* too, of the commands whose name starts with COMM"),
};

/* top's, diff's and compare's */
struct view_opts {
	int fmt;		/* enum sb_prof_fmt */
	long n;
	int children, testcase, havept;
	struct sb_prof_point want;	/* --point */
	double drift; const char *history;	/* compare: --drift PCT (-1: learned), --history FILE */
};

static void set_point(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	struct view_opts *o = opts;

	(void)row;
	(void)value;
	if (sb_prof_point_parse(arg, &o->want) != 0)
		usage_error("--point '%s': expected MODE:TASKS, e.g. processes:4", arg);
	o->havept = 1;
}

static const struct sb_cli_choice top_formats[] = {
	{ "text", SB_PROF_TEXT }, { "csv", SB_PROF_CSV }, { NULL, 0 },
};
static const struct sb_cli_choice diff_formats[] = {
	{ "text", SB_PROF_TEXT }, { "csv", SB_PROF_CSV }, { "markdown", SB_PROF_MARKDOWN }, { NULL, 0 },
};

/* compare's long options are getopt's for top and diff too, refused there as unknown */
static const struct sb_cli_opt top_opts[] = {
	COUNT(offsetof(struct view_opts, n), NULL),
	FORMAT(top_formats, "--format: unknown format '%s' (text, csv)", NULL),
	ROW(0, "children", NULL, SB_CLI_REFUSED, 0),
	ROW(0, "point", "MODE:TASKS", SB_CLI_REFUSED, 0),
	ROW(0, "testcase", NULL, SB_CLI_REFUSED, 0),
};

static const struct sb_cli_opt diff_opts[] = {
	COUNT(offsetof(struct view_opts, n), NULL),
	FORMAT(diff_formats, "--format: unknown format '%s' (text, markdown, csv)", NULL),
	ROW(0, "children", NULL, SB_CLI_FLAG, offsetof(struct view_opts, children)),
	ROW(0, "point", "MODE:TASKS", SB_CLI_REFUSED, 0),
	ROW(0, "testcase", NULL, SB_CLI_REFUSED, 0),
};

static const struct sb_cli_opt compare_opts[] = {
	COUNT(offsetof(struct view_opts, n), "top, diff, compare: the N symbols first (default 25, 15, 10)"),
	FORMAT(diff_formats, "--format: unknown format '%s' (text, markdown, csv)",
	       "top: text or csv; diff, compare: text, markdown or csv (default text)"),
	ROWH(0, "children", NULL, SB_CLI_FLAG, offsetof(struct view_opts, children),
	     "diff, compare: the with-children shares, not the self shares"),
	{ 0, "point", "MODE:TASKS", SB_CLI_CALL, 0, 0, 0, NULL, NULL, set_point, 0, "compare: that point only", NULL, 0, 0 },
	ROWH(0, "testcase", NULL, SB_CLI_FLAG, offsetof(struct view_opts, testcase),
	     "compare: the testcase's tasks' shares, not the whole machine's"),
	{ 0, "drift", "PCT", SB_CLI_DECIMAL, offsetof(struct view_opts, drift), 0, 0, NULL, NULL, NULL, 0,
	  "compare: the verdicts' drift between sweeps (compare.sh's --drift)", NULL, 0, 100 },
	ROWH(0, "history", "FILE", SB_CLI_STRING, offsetof(struct view_opts, history), "compare: where it is learned"),
};

static const struct sb_cli_opt rate_opts[] = {
	ROWH('o', NULL, "FILE", SB_CLI_STRING, 0, "rate: the key=value lines into FILE"),	/* into a const char * */
};

static const struct sb_cli_opt summary_opts[] = {
	COUNT(0, "summary: the top N symbols (default 3)"),	/* into a long */
};

static const struct sb_cli script_cli = CLI(script_opts, "script");
static const struct sb_cli top_cli = CLI(top_opts, "top");
static const struct sb_cli diff_cli = CLI(diff_opts, "diff");
static const struct sb_cli compare_cli = CLI(compare_opts, "compare --profile");
static const struct sb_cli rate_cli = CLI(rate_opts, "rate");
static const struct sb_cli summary_cli = CLI(summary_opts, "summary");

/* ---- files: through a temporary name and a rename ---- */

typedef int (*writer_fn)(const void *arg, FILE *out);

static void write_atomic(const char *path, writer_fn fn, const void *arg)
{
	static char tmp[4096];
	FILE *f;
	const char *slash = strrchr(path, '/');
	int n;

	if (slash)
		n = snprintf(tmp, sizeof(tmp), "%.*s/.%s.%ld.tmp", (int)(slash - path), path, slash + 1,
			     (long)getpid());
	else
		n = snprintf(tmp, sizeof(tmp), ".%s.%ld.tmp", path, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		die(SB_EXIT_ENV, "%s: path too long", path);
	sb_outpath_check(path);
	f = fopen(tmp, "w");
	if (f == NULL)
		die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(errno));
	sb_msg_remove_on_die(tmp);
	if (fn(arg, f) != 0 || fflush(f) != 0 || ferror(f)) {
		int e = errno;

		fclose(f);
		die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(e));
	}
	if (fclose(f) != 0)
		die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(errno));
	sb_outpath_check(path);
	if (rename(tmp, path) != 0)
		die(SB_EXIT_ENV, "cannot write %s: %s", path, strerror(errno));
	sb_msg_remove_on_die(NULL);
}

static int w_folded(const void *p, FILE *out) { return sb_prof_write_folded(p, out); }
static int w_top_csv(const void *p, FILE *out) { return sb_prof_write_top_csv(p, out); }
static int w_top_text(const void *p, FILE *out) { return sb_prof_write_top_text(p, out, 40); }

/* ---- script ---- */

static int cmd_script(int argc, char **argv)
{
	struct script_opts o = { NULL, NULL, NULL };
	const char *in = "-", *event, *dir, *comm;
	struct sb_prof p = { 0 }, focus = { 0 };
	char err[ERRLEN], path[4096];
	FILE *f;
	int rc;

	sb_cli_parse(&script_cli, argc, argv, &o);
	event = o.event;
	dir = o.dir;
	comm = o.comm;
	if (dir == NULL)
		usage_error("script: -o DIR is required");
	if (argc - optind > 1)
		usage_error("script: one input at most");
	if (optind < argc)
		in = argv[optind];
	f = strcmp(in, "-") == 0 ? stdin : fopen(in, "r");
	if (f == NULL)
		die(SB_EXIT_USAGE, "cannot read %s: %s", in, strerror(errno));
	if (comm != NULL) {
		if (comm[0] == '\0' || strlen(comm) >= sizeof(p.focus_comm))
			usage_error("script: -c: '%s' is empty or too long", comm);
		snprintf(p.focus_comm, sizeof(p.focus_comm), "%s", comm);
		p.focus = &focus;
	}
	rc = sb_prof_read_script(&p, f, strcmp(in, "-") == 0 ? "stdin" : in, event, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (rc != 0)
		die(rc, "%s", err);
	if (p.total == 0)
		die(SB_EXIT_USAGE, "%s: no sample of event %s", in, p.event[0] ? p.event : "(any)");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		die(SB_EXIT_ENV, "cannot create %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/folded.txt", dir);
	write_atomic(path, w_folded, &p);
	snprintf(path, sizeof(path), "%s/top.csv", dir);
	write_atomic(path, w_top_csv, &p);
	snprintf(path, sizeof(path), "%s/top.txt", dir);
	write_atomic(path, w_top_text, &p);
	if (comm != NULL) {
		snprintf(focus.event, sizeof(focus.event), "%s", p.event);
		snprintf(path, sizeof(path), "%s/test-top.csv", dir);
		write_atomic(path, w_top_csv, &focus);
		snprintf(path, sizeof(path), "%s/test-top.txt", dir);
		write_atomic(path, w_top_text, &focus);
		if (focus.total == 0)
			fprintf(stderr, PROG ": warning: no sample of a command named %s*\n", comm);
	}
	if (p.kernel > 0 && p.kernel_unresolved / p.kernel > 0.5)
		fprintf(stderr, PROG ": warning: %.0f%% of the kernel samples have no symbol (stored as "
			"addresses): kernel symbols are hidden when kernel.kptr_restrict is 2, or 1 "
			"without CAP_SYSLOG; try 'sysctl kernel.kptr_restrict=0' as root\n",
			100.0 * p.kernel_unresolved / p.kernel);
	sb_prof_free(&p);
	sb_prof_free(&focus);
	return SB_EXIT_OK;
}

/* ---- top ---- */

static int cmd_top(int argc, char **argv)
{
	struct sb_prof p = { 0 };
	struct view_opts o = { .fmt = SB_PROF_TEXT, .n = 25 };
	char err[ERRLEN];
	int rc;

	sb_cli_parse(&top_cli, argc, argv, &o);
	if (argc - optind != 1)
		usage_error("top: one profile wanted");
	if ((rc = sb_prof_load(&p, argv[optind], err, sizeof(err))) != 0)
		die(rc, "%s", err);
	rc = o.fmt == SB_PROF_CSV ? sb_prof_write_top_csv(&p, stdout) :
	     sb_prof_write_top_text(&p, stdout, (size_t)o.n);
	sb_prof_free(&p);
	if (rc != 0 || fflush(stdout) != 0)
		die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
	return SB_EXIT_OK;
}

/* ---- diff ---- */

static int cmd_diff(int argc, char **argv)
{
	struct sb_prof b = { 0 }, x = { 0 };
	struct view_opts o = { .fmt = SB_PROF_TEXT, .n = 15 };
	int rc;
	char err[ERRLEN];
	struct sb_prof_delta *d;
	size_t nd;

	sb_cli_parse(&diff_cli, argc, argv, &o);
	if (argc - optind != 2)
		usage_error("diff: BASE and NEW wanted");
	if ((rc = sb_prof_load(&b, argv[optind], err, sizeof(err))) != 0 ||
	    (rc = sb_prof_load(&x, argv[optind + 1], err, sizeof(err))) != 0)
		die(rc, "%s", err);
	d = sb_prof_diff_rows(&b, &x, o.children, &nd);
	if (d == NULL)
		die(SB_EXIT_ENV, "out of memory");
	if (o.fmt == SB_PROF_TEXT)
		printf("profile diff: %s (base) -> %s (new), %s share in %% of all samples\n",
		       argv[optind], argv[optind + 1], o.children ? "with-children" : "self");
	else if (o.fmt == SB_PROF_MARKDOWN)
		printf("Profile diff: `%s` (base) -> `%s` (new)\n\n", argv[optind], argv[optind + 1]);
	sb_prof_print_diff(stdout, d, nd, (size_t)o.n, (enum sb_prof_fmt)o.fmt, o.children, "", 1);
	free(d);
	sb_prof_free(&b);
	sb_prof_free(&x);
	if (fflush(stdout) != 0)
		die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
	return SB_EXIT_OK;
}

/* ---- summary.csv: one mode's curve ---- */

/* MODE's curve from the summary.csv at path (sb_curve_of_summary); *cols: the peak is the file's. */
static void read_summary(const char *path, const char *mode, struct sb_curve *cv, int *cols)
{
	struct sb_summary_row *rows;
	size_t nrows;
	char err[ERRLEN];
	int m, rc;

	for (m = 0; m < SB_NMODES && strcmp(sb_mode_name[m], mode) != 0; m++)
		;
	if (m == SB_NMODES)
		die(SB_EXIT_USAGE, "%s: unknown mode '%s' (processes, threads)", path, mode);
	if ((rc = sb_summary_read(path, &rows, &nrows, err, sizeof(err))) != 0)
		die(rc, "%s", err);
	if (sb_curve_of_summary(rows, nrows, m, cv, cols) != 0)
		die(SB_EXIT_ENV, "out of memory");
	free(rows);
}

/* A chosen count, and why when it is the peak (sb_peak_label's words). */
struct chosen {
	long tasks;
	char why[160];
};

static int cmp_chosen(const void *a, const void *b)
{
	const struct chosen *x = a, *y = b;

	if (x->tasks != y->tasks)
		return (x->tasks > y->tasks) - (x->tasks < y->tasks);
	return strcmp(y->why, x->why);	/* the one with a reason first */
}

/*
 * The curve's peak: summary.csv's best count (its highest mean: the best is
 * profiled whatever its plateau), and its plateau's words in why; an older
 * summary.csv without _peak columns: the highest mean, no words. -1: no point.
 */
static long peak_of(const struct sb_curve *cv, int cols, char *why, size_t len)
{
	why[0] = '\0';
	if (!cv->has_peak)
		return -1;
	if (cols)
		sb_peak_label(why, len, (unsigned long)cv->pt[cv->best].tasks,
			      (unsigned long)cv->pt[cv->lo].tasks, (unsigned long)cv->pt[cv->hi].tasks,
			      cv->pt[cv->best].nruns, SB_CURVE_CONF);
	return cv->pt[cv->best].tasks;
}

static int cmd_points(int argc, char **argv)
{
	struct sb_curve cv;
	struct chosen *out;
	size_t n, k = 0;
	int cols;
	char *list, *save = NULL, *t, why[160];

	if (argc != 4)
		usage_error("points: SUMMARY_CSV MODE LIST wanted");
	read_summary(argv[1], argv[2], &cv, &cols);
	n = cv.n;
	list = strdup(argv[3]);
	out = malloc((n + 64) * sizeof(*out));
	if (list == NULL || out == NULL)
		die(SB_EXIT_ENV, "out of memory");
	for (t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long want = -1;

		why[0] = '\0';
		if (strcmp(t, "peak") == 0) {
			want = peak_of(&cv, cols, why, sizeof(why));
			if (want < 0)
				continue;	/* nothing measured in this mode */
		} else if (strcmp(t, "max") == 0) {
			for (size_t i = 0; i < n; i++)
				if (want < 0 || cv.pt[i].tasks > want)
					want = cv.pt[i].tasks;
			if (want < 0)
				continue;
		} else {
			want = parse_long("points", t, 1);
			size_t i;
			for (i = 0; i < n && cv.pt[i].tasks != want; i++)
				;
			if (i == n)
				continue;	/* not measured (a failed sweep) */
		}
		if (k < n + 64) {
			out[k].tasks = want;
			snprintf(out[k++].why, sizeof(out->why), "%s", why);
		}
	}
	qsort(out, k, sizeof(*out), cmp_chosen);
	for (size_t i = 0; i < k; i++)
		if (i == 0 || out[i].tasks != out[i - 1].tasks)
			printf("%ld%s%s\n", out[i].tasks, out[i].why[0] ? "\t" : "", out[i].why);
	free(out);
	free(list);
	sb_curve_free(&cv);
	return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV;
}

/* ---- rate ---- */

struct rate {
	const char *mode;
	long tasks;
	double measured, profiled;
};

static int w_rate(const void *arg, FILE *out)
{
	const struct rate *r = arg;

	fprintf(out, "mode=%s\ntasks=%ld\nmeasured_ops_per_s=%.0f\nprofiled_ops_per_s=%.0f\n"
		"change_pct=%+.1f\n", r->mode, r->tasks, r->measured, r->profiled,
		r->measured > 0 ? 100.0 * (r->profiled - r->measured) / r->measured : 0);
	return ferror(out) ? -1 : 0;
}

static double value_at(const char *path, const char *mode, long tasks)
{
	struct sb_curve cv;
	const struct sb_curve_point *p;
	double r;
	int cols;

	read_summary(path, mode, &cv, &cols);
	p = sb_curve_at(&cv, tasks);
	r = p ? p->mean : NAN;
	sb_curve_free(&cv);
	if (isnan(r))
		die(SB_EXIT_USAGE, "%s: no %s value at %ld tasks", path, mode, tasks);
	return r;
}

static int cmd_rate(int argc, char **argv)
{
	struct rate r;
	const char *outp = NULL;

	sb_cli_parse(&rate_cli, argc, argv, &outp);
	if (outp == NULL || argc - optind != 4)
		usage_error("rate: -o FILE RUN_SUMMARY PROFILED_SUMMARY MODE TASKS wanted");
	r.mode = argv[optind + 2];
	r.tasks = parse_long("TASKS", argv[optind + 3], 1);
	r.measured = value_at(argv[optind], r.mode, r.tasks);
	r.profiled = value_at(argv[optind + 1], r.mode, r.tasks);
	write_atomic(outp, w_rate, &r);
	return SB_EXIT_OK;
}

/* ---- summary ---- */

/* The value of KEY in a key=value file, "" when absent; buf holds it. */
static const char *kv(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t kl = strlen(key);

	buf[0] = '\0';
	if (f == NULL)
		return buf;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, key, kl) == 0 && line[kl] == '=') {
			snprintf(buf, len, "%s", line + kl + 1);
			break;
		}
	}
	fclose(f);
	return buf;
}

/* "A% sym [k], B% sym" of the top n symbols of DIR/FILE; 0, or -1 when FILE is absent. */
static int top_line(const char *dir, const char *file, long n, double *samples)
{
	struct sb_prof p = { 0 };
	const struct sb_sym **v;
	char err[ERRLEN], path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	rc = sb_prof_read_top(&p, f, path, err, sizeof(err));
	fclose(f);
	if (rc != 0)
		die(rc, "%s", err);
	if (sb_prof_sorted(&p, &v) != 0)
		die(SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < p.nsyms && i < (size_t)n; i++)
		printf("%s%.1f%% %s%s", i ? ", " : "", v[i]->self, v[i]->name, v[i]->kernel ? " [k]" : "");
	if (p.nsyms == 0)
		printf("(no sample)");
	*samples = p.top_samples;
	free(v);
	sb_prof_free(&p);
	return 0;
}

static int cmd_summary(int argc, char **argv)
{
	char path[4096], event[128], a[64], b[64], m[64], pr[64], ch[64];
	const char *dir;
	double all = 0, test = 0;
	long n = 3;
	FILE *f;

	sb_cli_parse(&summary_cli, argc, argv, &n);
	if (argc - optind != 1)
		usage_error("summary: one profile directory wanted");
	dir = argv[optind];
	snprintf(path, sizeof(path), "%s/top.csv", dir);
	if (access(path, R_OK) != 0)
		die(SB_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/event", dir);
	f = fopen(path, "r");
	event[0] = '\0';
	if (f != NULL) {
		if (fgets(event, sizeof(event), f) == NULL)
			event[0] = '\0';
		event[strcspn(event, "\n")] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/rate", dir);
	kv(path, "measured_ops_per_s", m, sizeof(m));
	kv(path, "profiled_ops_per_s", pr, sizeof(pr));
	kv(path, "change_pct", ch, sizeof(ch));
	printf("%s", event[0] ? event : "event unknown");
	if (pr[0] && m[0])
		printf(", profiled run %s ops/s (%s%% vs the measured mean %s)",
		       sb_rate_human(strtod(pr, NULL), a, sizeof(a)), ch, sb_rate_human(strtod(m, NULL), b, sizeof(b)));
	printf("\n  whole machine: ");
	top_line(dir, "top.csv", n, &all);
	printf("\n");
	snprintf(path, sizeof(path), "%s/test-top.csv", dir);
	if (access(path, R_OK) == 0) {
		printf("  the testcase: ");
		top_line(dir, "test-top.csv", n, &test);
		if (all > 0)
			printf(" (its tasks: %.1f%% of the samples)", 100.0 * test / all);
		printf("\n");
	}
	return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV;
}

/* ---- compare ---- */

static int cmd_compare(int argc, char **argv)
{
	struct view_opts o = { .fmt = SB_PROF_TEXT, .n = 10, .drift = -1 };
	int rc, regress = 0;
	struct sb_prof_point *common;
	struct sb_prof *profs;
	struct sb_prof_drift *pd;
	size_t shown;
	struct sb_run rb, rx;
	char err[ERRLEN];

	sb_cli_parse(&compare_cli, argc, argv, &o);
	if (argc - optind != 2)
		usage_error("compare --profile: BASE and NEW run directories wanted");
	memset(&rb, 0, sizeof(rb));
	memset(&rx, 0, sizeof(rx));
	if ((rc = sb_run_load(argv[optind], &rb, err, sizeof(err))) != 0 ||
	    (rc = sb_run_load(argv[optind + 1], &rx, err, sizeof(err))) != 0)
		die(rc, "%s", err);
	shown = sb_prof_load_common(&rb, &rx, o.havept ? &o.want : NULL, o.testcase, &profs, &common);
	if ((rc = sb_prof_drift_open(&rb, &rx, o.drift, o.history, &pd, err, sizeof(err))) != 0)
		die(rc, "%s", err);
	regress = sb_prof_compare_report(stdout, &rb, &rx, common, profs, shown, pd, (enum sb_prof_fmt)o.fmt,
					 (size_t)o.n, o.children, o.testcase);
	sb_prof_drift_free(pd);
	free(profs);
	free(common);
	sb_run_free(&rb);
	sb_run_free(&rx);
	if (fflush(stdout) != 0)
		die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
	return regress ? SB_EXIT_FAIL : SB_EXIT_OK;
}

static const struct sb_cli word_cli;

static __attribute__((noreturn)) void help(void)
{
	const struct sb_cli *const lists[] = { &word_cli, &script_cli, &compare_cli, &rate_cli, &summary_cli };

	fputs(usage_text, stdout);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		sb_cli_list(lists[i], stdout);
	fputs(usage_tail, stdout);
	exit(fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV);
}

static void version(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	(void)opts;
	(void)row;
	(void)arg;
	(void)value;
	printf("%s (scalebench) %s git %s\n", PROG, SB_VERSION, SB_GIT_REVISION);
	exit(fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV);
}

static __attribute__((noreturn)) void no_command(const struct sb_cli *cli, const char *typed, int optopt)
{
	(void)cli;
	(void)optopt;
	usage_error("unknown command '%s'", typed);
}

/* the words that may stand for a command */
static const struct sb_cli_opt word_opts[] = {
	{ 'h', "help", NULL, SB_CLI_HELP, 0, 0, 0, NULL, NULL, NULL, 0, "this text", NULL, 0, 0 },
	{ 0, "version", NULL, SB_CLI_CALL, 0, 0, 0, NULL, NULL, version, 0, "scalebench's version", NULL, 0, 0 },
};
static const struct sb_cli word_cli = { .opts = word_opts, .nopts = 2, .dash_dash_unknown = 1,
	.usage_error = cli_error, .unknown = no_command, .missing = no_command, .help = help };

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "script", cmd_script }, { "top", cmd_top }, { "diff", cmd_diff },
		{ "compare", cmd_compare }, { "points", cmd_points }, { "rate", cmd_rate },
		{ "summary", cmd_summary },
	};
	struct sb_cli_scan top;

	sb_msg_prog(PROG);
	if (argc < 2)
		usage_error("a command is required");
	sb_cli_scan_init(&top, 2, argv);	/* the command word: -h, --help, --version answer */
	top.i = 1;
	sb_cli_next(&word_cli, &top, NULL);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	usage_error("unknown command '%s'", argv[1]);
}
