/* sb-profile: perf script output -> folded stacks and top symbols; profile diffs; profiled points. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "ministat.h"
#include "msg.h"
#include "peak_label.h"
#include "curve.h"
#include "rate.h"
#include "outpath.h"
#include "profile.h"
#include "results.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "stats.h"

#define PROG "sb-profile"
#define ERRLEN 1024
#define CONF 95.0

enum fmt { F_TEXT, F_MARKDOWN, F_CSV };

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
	"\n"
	"Exit: 0 ok (compare: no significant regression at a listed point), 1 compare:\n"
	"a listed point is significantly slower, 2 usage or input error, 3 environment error.\n";

#define die sb_die	/* msg.c: removes the half-written file sb_msg_remove_on_die names */

#define usage_error(...) sb_usage_die("try 'sb-profile --help'", __VA_ARGS__)

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

static enum fmt parse_fmt(const char *s, int md)
{
	if (strcmp(s, "text") == 0)
		return F_TEXT;
	if (strcmp(s, "csv") == 0)
		return F_CSV;
	if (md && strcmp(s, "markdown") == 0)
		return F_MARKDOWN;
	usage_error("--format: unknown format '%s' (text, %scsv)", s, md ? "markdown, " : "");
}

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
	const char *event = NULL, *dir = NULL, *in = "-", *comm = NULL;
	struct sb_prof p = { 0 }, focus = { 0 };
	char err[ERRLEN], path[4096];
	FILE *f;
	int c, rc;

	while ((c = getopt(argc, argv, "e:o:c:")) != -1) {
		switch (c) {
		case 'e': event = optarg; break;
		case 'o': dir = optarg; break;
		case 'c': comm = optarg; break;
		default: usage_error("script: unknown option");
		}
	}
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

static const struct option fmt_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "children", no_argument, NULL, 'c' },
	{ "point", required_argument, NULL, 'p' },
	{ "testcase", no_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 },
};

static int cmd_top(int argc, char **argv)
{
	struct sb_prof p = { 0 };
	enum fmt fmt = F_TEXT;
	long n = 25;
	char err[ERRLEN];
	int c, rc;

	while ((c = getopt_long(argc, argv, "n:", fmt_opts, NULL)) != -1) {
		switch (c) {
		case 'f': fmt = parse_fmt(optarg, 0); break;
		case 'n': n = parse_long("-n", optarg, 1); break;
		default: usage_error("top: unknown option");
		}
	}
	if (argc - optind != 1)
		usage_error("top: one profile wanted");
	if ((rc = sb_prof_load(&p, argv[optind], err, sizeof(err))) != 0)
		die(rc, "%s", err);
	rc = fmt == F_CSV ? sb_prof_write_top_csv(&p, stdout) : sb_prof_write_top_text(&p, stdout, n);
	sb_prof_free(&p);
	if (rc != 0 || fflush(stdout) != 0)
		die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
	return SB_EXIT_OK;
}

/* ---- diff ---- */

struct delta {
	const char *name, *dso;
	int kernel;
	double base, new, change;
};

static int cmp_delta(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;
	double ax = fabs(x->change), ay = fabs(y->change);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel - y->kernel;
	return strcmp(x->name, y->name);
}

static const struct sb_sym *find_sym(const struct sb_prof *p, const char *name, int kernel)
{
	for (size_t i = 0; i < p->nsyms; i++)
		if (p->syms[i].kernel == kernel && strcmp(p->syms[i].name, name) == 0)
			return &p->syms[i];
	return NULL;
}

static double share(const struct sb_prof *p, const struct sb_sym *s, int children)
{
	return s == NULL ? 0 : sb_prof_pct(p, children ? s->children : s->self);
}

/* The union of both profiles' symbols, largest change first; *n rows. */
static struct delta *diff_rows(const struct sb_prof *b, const struct sb_prof *x, int children,
			       size_t *n)
{
	struct delta *d = malloc((b->nsyms + x->nsyms + 1) * sizeof(*d));
	size_t k = 0;

	if (d == NULL)
		die(SB_EXIT_ENV, "out of memory");
	for (int side = 0; side < 2; side++) {
		const struct sb_prof *p = side ? x : b, *o = side ? b : x;

		for (size_t i = 0; i < p->nsyms; i++) {
			const struct sb_sym *s = &p->syms[i], *t = find_sym(o, s->name, s->kernel);

			if (side == 1 && t != NULL)
				continue;	/* counted from the base side */
			d[k].name = s->name;
			d[k].dso = s->dso[0] ? s->dso : (t && t->dso[0] ? t->dso : "");
			d[k].kernel = s->kernel;
			d[k].base = side ? share(o, t, children) : share(p, s, children);
			d[k].new = side ? share(p, s, children) : share(o, t, children);
			d[k].change = d[k].new - d[k].base;
			/* unchanged at the printed precision: not a change */
			if (fabs(d[k].change) >= 0.005)
				k++;
		}
	}
	qsort(d, k, sizeof(*d), cmp_delta);
	*n = k;
	return d;
}

static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_' || *s == '[' || *s == ']')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* The table of a diff; csv_prefix: the leading CSV fields of each row ("" for none). */
static void print_diff(FILE *out, const struct delta *d, size_t n, size_t limit, enum fmt fmt,
		       int children, const char *csv_prefix, int csv_header)
{
	const char *what = children ? "with children" : "self";

	if (n > limit)
		n = limit;
	if (fmt == F_CSV) {
		if (csv_header)
			fprintf(out, "%sshare,space,symbol,dso,base_pct,new_pct,change_pp\n",
				csv_prefix[0] ? "mode,tasks,throughput_change_pct,throughput_halfwidth_pct,verdict," : "");
		for (size_t i = 0; i < n; i++) {
			fprintf(out, "%s%s,%s,", csv_prefix, children ? "children" : "self",
				d[i].kernel ? "kernel" : "user");
			sb_csv_field(out, d[i].name);
			fputc(',', out);
			sb_csv_field(out, d[i].dso);
			fprintf(out, ",%.2f,%.2f,%+.2f\n", d[i].base, d[i].new, d[i].change);
		}
		return;
	}
	if (fmt == F_MARKDOWN) {
		fprintf(out, "| symbol | space | base %% (%s) | new %% | change (pp) |\n", what);
		fputs("|---|---|---:|---:|---:|\n", out);
		for (size_t i = 0; i < n; i++) {
			fputs("| ", out);
			md_text(out, d[i].name);
			fprintf(out, " | %s | %.2f | %.2f | %+.2f |\n", d[i].kernel ? "kernel" : "user",
				d[i].base, d[i].new, d[i].change);
		}
		if (n == 0)
			fputs("| (no symbol changed its share) | | | | |\n", out);
		return;
	}
	fprintf(out, "  %8s %8s %8s  %-6s  %s\n", "base%", "new%", "change", "space",
		children ? "symbol (share with children)" : "symbol (self share)");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %8.2f %8.2f %+8.2f  %-6s  %s\n", d[i].base, d[i].new, d[i].change,
			d[i].kernel ? "kernel" : "user", d[i].name);
	if (n == 0)
		fputs("  (no symbol changed its share)\n", out);
}

static int cmd_diff(int argc, char **argv)
{
	struct sb_prof b = { 0 }, x = { 0 };
	enum fmt fmt = F_TEXT;
	long n = 15;
	int c, rc, children = 0;
	char err[ERRLEN];
	struct delta *d;
	size_t nd;

	while ((c = getopt_long(argc, argv, "n:", fmt_opts, NULL)) != -1) {
		switch (c) {
		case 'f': fmt = parse_fmt(optarg, 1); break;
		case 'n': n = parse_long("-n", optarg, 1); break;
		case 'c': children = 1; break;
		default: usage_error("diff: unknown option");
		}
	}
	if (argc - optind != 2)
		usage_error("diff: BASE and NEW wanted");
	if ((rc = sb_prof_load(&b, argv[optind], err, sizeof(err))) != 0 ||
	    (rc = sb_prof_load(&x, argv[optind + 1], err, sizeof(err))) != 0)
		die(rc, "%s", err);
	d = diff_rows(&b, &x, children, &nd);
	if (fmt == F_TEXT)
		printf("profile diff: %s (base) -> %s (new), %s share in %% of all samples\n",
		       argv[optind], argv[optind + 1], children ? "with-children" : "self");
	else if (fmt == F_MARKDOWN)
		printf("Profile diff: `%s` (base) -> `%s` (new)\n\n", argv[optind], argv[optind + 1]);
	print_diff(stdout, d, nd, (size_t)n, fmt, children, "", 1);
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
	int c;

	while ((c = getopt(argc, argv, "o:")) != -1) {
		if (c != 'o')
			usage_error("rate: unknown option");
		outp = optarg;
	}
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
	int c;
	FILE *f;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n')
			usage_error("summary: unknown option");
		n = parse_long("-n", optarg, 1);
	}
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

struct ppoint {
	char mode[32];
	long tasks;
};

static int cmp_ppoint(const void *a, const void *b)
{
	const struct ppoint *x = a, *y = b;
	int c = strcmp(x->mode, y->mode);

	return c ? c : (x->tasks > y->tasks) - (x->tasks < y->tasks);	/* processes first */
}

/* The profiled points of a run: profile/<mode>-<tasks>/ with a top.csv. */
static struct ppoint *profiled(const char *dir, size_t *n)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	struct ppoint *v = NULL;
	size_t k = 0, cap = 0;

	snprintf(path, sizeof(path), "%s/profile", dir);
	d = opendir(path);
	*n = 0;
	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		char *dash = strrchr(e->d_name, '-'), *end;
		long t;

		if (dash == NULL || dash == e->d_name || (size_t)(dash - e->d_name) >= sizeof(v->mode))
			continue;
		t = strtol(dash + 1, &end, 10);
		if (*end || end == dash + 1 || t < 1)
			continue;
		snprintf(path, sizeof(path), "%s/profile/%s/top.csv", dir, e->d_name);
		if (access(path, R_OK) != 0)
			continue;
		if (k == cap) {
			struct ppoint *nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
			if (nv == NULL)
				die(SB_EXIT_ENV, "out of memory");
			v = nv;
		}
		snprintf(v[k].mode, sizeof(v[k].mode), "%.*s", (int)(dash - e->d_name), e->d_name);
		v[k].tasks = t;
		k++;
	}
	closedir(d);
	if (v)
		qsort(v, k, sizeof(*v), cmp_ppoint);
	*n = k;
	return v;
}

/* The throughput verdict of one point, as compare reports it. */
static void verdict(const struct sb_run *b, const struct sb_run *x, const struct ppoint *pt,
		    char *word, size_t wlen, double *pct, double *half, int *slower)
{
	const struct sb_point *bp = sb_run_find(b, pt->mode, pt->tasks), *xp = sb_run_find(x, pt->mode, pt->tasks);
	const struct sb_values *bv, *xv;
	struct sb_tdiff d;
	size_t need;
	int means;

	*pct = *half = NAN;
	*slower = 0;
	if (bp == NULL || xp == NULL) {
		snprintf(word, wlen, "n/a: not measured in both");
		return;
	}
	means = bp->means.n > 0 && xp->means.n > 0;
	bv = means ? &bp->means : &bp->samples;
	xv = means ? &xp->means : &xp->samples;
	/* as compare's rows: SB_INDEPENDENT_RUNS run means a side, or ministat's 3 samples */
	need = means ? SB_INDEPENDENT_RUNS : SB_MINISTAT_MINVALUES;
	if (bv->n < need || xv->n < need || !(bv->st.mean > 0) ||
	    sb_tdiff(bv->n, bv->st.mean, bv->var, xv->n, xv->st.mean, xv->var, CONF, &d) != 0) {
		snprintf(word, wlen, "n/a: too few values");
		return;
	}
	*pct = d.rel_pct;
	*half = d.rel_halfwidth_pct;
	/* compare's rule: the relative interval printed beside it decides */
	if (!d.rel_significant)
		snprintf(word, wlen, "no difference proven");
	else
		snprintf(word, wlen, "%s", d.diff > 0 ? "faster" : "slower");
	*slower = d.rel_significant && d.diff < 0;
}

static int parse_point(const char *s, struct ppoint *pt)
{
	const char *colon = strchr(s, ':');
	char *end;

	if (colon == NULL || colon == s || (size_t)(colon - s) >= sizeof(pt->mode))
		return -1;
	snprintf(pt->mode, sizeof(pt->mode), "%.*s", (int)(colon - s), s);
	pt->tasks = strtol(colon + 1, &end, 10);
	return *end || end == colon + 1 || pt->tasks < 1 ? -1 : 0;
}

static int cmd_compare(int argc, char **argv)
{
	enum fmt fmt = F_TEXT;
	long n = 10;
	int c, rc, children = 0, regress = 0, havept = 0, testcase = 0;
	struct ppoint want, *pb, *px;
	size_t nb, nx, shown = 0;
	struct sb_run rb, rx;
	char err[ERRLEN];

	while ((c = getopt_long(argc, argv, "n:", fmt_opts, NULL)) != -1) {
		switch (c) {
		case 'f': fmt = parse_fmt(optarg, 1); break;
		case 'n': n = parse_long("-n", optarg, 1); break;
		case 'c': children = 1; break;
		case 't': testcase = 1; break;
		case 'p':
			if (parse_point(optarg, &want) != 0)
				usage_error("--point '%s': expected MODE:TASKS, e.g. processes:4", optarg);
			havept = 1;
			break;
		default: usage_error("compare --profile: unknown option");
		}
	}
	if (argc - optind != 2)
		usage_error("compare --profile: BASE and NEW run directories wanted");
	memset(&rb, 0, sizeof(rb));
	memset(&rx, 0, sizeof(rx));
	if ((rc = sb_run_load(argv[optind], &rb, err, sizeof(err))) != 0 ||
	    (rc = sb_run_load(argv[optind + 1], &rx, err, sizeof(err))) != 0)
		die(rc, "%s", err);
	pb = profiled(rb.dir, &nb);
	px = profiled(rx.dir, &nx);
	/* every input read and checked before the first line of the report */
	struct sb_prof *profs = calloc(2 * (nb + 1), sizeof(*profs));
	struct ppoint *common = calloc(nb + 1, sizeof(*common));
	if (profs == NULL || common == NULL)
		die(SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < nb; i++) {
		size_t j;
		char path[4096];

		for (j = 0; j < nx && cmp_ppoint(&pb[i], &px[j]) != 0; j++)
			;
		if (j == nx || (havept && cmp_ppoint(&pb[i], &want) != 0))
			continue;
		for (int side = 0; side < 2; side++) {
			snprintf(path, sizeof(path), "%s/profile/%s-%ld/%s", side ? rx.dir : rb.dir,
				 pb[i].mode, pb[i].tasks, testcase ? "test-top.csv" : "top.csv");
			if ((rc = sb_prof_load(&profs[2 * shown + side], path, err, sizeof(err))) != 0)
				die(rc, "%s", err);
		}
		common[shown++] = pb[i];
	}
	if (shown == 0 && havept)
		die(SB_EXIT_USAGE, "point %s:%ld is not profiled in both %s and %s", want.mode, want.tasks,
		    rb.dir, rx.dir);
	if (shown == 0)
		die(SB_EXIT_USAGE, "no point is profiled in both %s and %s (runtest.sh --profile)", rb.dir,
		    rx.dir);
	if (fmt == F_TEXT)
		printf("compare --profile %s: %s (base) -> %s (new), %s share in %% of %s samples\n",
		       rb.test[0] ? rb.test : "?", rb.name, rx.name, children ? "with-children" : "self",
		       testcase ? "the testcase's" : "all");
	else if (fmt == F_MARKDOWN)
		printf("### Profile changes: %s, %s (base) -> %s (new)\n", rb.test[0] ? rb.test : "?",
		       rb.name, rx.name);
	for (size_t i = 0; i < shown; i++) {
		char word[64], pre[256];
		double pct, half;
		int slower;
		size_t nd;
		struct delta *d = diff_rows(&profs[2 * i], &profs[2 * i + 1], children, &nd);

		verdict(&rb, &rx, &common[i], word, sizeof(word), &pct, &half, &slower);
		regress |= slower;
		if (fmt == F_CSV) {
			snprintf(pre, sizeof(pre), "%s,%ld,%s,%s,%s,", common[i].mode, common[i].tasks,
				 "", "", word);
			if (!isnan(pct))
				snprintf(pre, sizeof(pre), "%s,%ld,%.2f,%.2f,%s,", common[i].mode,
					 common[i].tasks, pct, half, word);
			print_diff(stdout, d, nd, (size_t)n, fmt, children, pre, i == 0);
		} else {
			if (fmt == F_MARKDOWN)
				printf("\n#### %s at %ld tasks: ", common[i].mode, common[i].tasks);
			else
				printf("\n%s at %ld tasks: ", common[i].mode, common[i].tasks);
			if (isnan(pct))
				printf("throughput %s\n", word);
			else
				printf("throughput %+.1f%% +/- %.1f%% (%s)\n", pct, half, word);
			if (fmt == F_MARKDOWN)
				putchar('\n');
			print_diff(stdout, d, nd, (size_t)n, fmt, children, "", 0);
		}
		free(d);
		sb_prof_free(&profs[2 * i]);
		sb_prof_free(&profs[2 * i + 1]);
	}
	free(profs);
	free(common);
	free(pb);
	free(px);
	sb_run_free(&rb);
	sb_run_free(&rx);
	if (fflush(stdout) != 0)
		die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
	return regress ? SB_EXIT_FAIL : SB_EXIT_OK;
}

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

	sb_msg_prog(PROG);
	if (argc < 2)
		usage_error("a command is required");
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("%s (scalebench) %s git %s\n", PROG, SB_VERSION, SB_GIT_REVISION);
		return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(usage_text, stdout);
		return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("sb-profile (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		return fflush(stdout) == 0 ? SB_EXIT_OK : SB_EXIT_ENV;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	usage_error("unknown command '%s'", argv[1]);
}
