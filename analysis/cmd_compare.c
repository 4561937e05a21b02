/* sb-compare: ministat for files of numbers, or a comparison of scalebench run directories. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "compare/compare_runs.h"
#include "export/bench_runs.h"
#include "fmt/export.h"
#include "msg/msg.h"
#include "io/csv.h"
#include "io/number.h"
#include "stat/ministat.h"
#include "cli.h"

#define PROG "compare"
#define ERRLEN 1024

/* --help: the synopsis ("compare.sh" spelt as the command was run), the table's options, the exit codes. */
static const char usage_head[] =
	"usage: compare.sh [-Anqs] [-C column] [-c level] [-d delimiters] [-w width] FILE...\n"
	"       compare.sh [options] BASE NEW [NEW...]\n"
	"       compare.sh [options] BASE... --vs NEW...\n"
	"\n"
	"FILEs hold numbers, one data set a file ('-' is standard input): the output\n"
	"is FreeBSD ministat's. BASE and NEW are run directories (results/<test>/<run-id>)\n"
	"or test directories (their latest run): every point (mode, tasks) present in\n"
	"both is compared.\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit: 0 no significant regression beyond the threshold, 1 the gate finds one\n"
	"(its false alarms held at the level over the whole comparison),\n"
	"2 usage or input error, 3 environment error.\n";

/*
 * The command as the user ran it: compare.sh (checkout), scalebench-compare
 * (installed; both exec this tool under their own name) or sb-compare.
 */
static const char *me = "sb-compare";
static char usage_hint[300];

static void set_me(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0 && *(slash ? slash + 1 : argv0))
		me = slash ? slash + 1 : argv0;
	snprintf(usage_hint, sizeof(usage_hint), "%.250s --help for usage", me);
}

#define usage_error(...) sb_usage_die(usage_hint, __VA_ARGS__)

/* ministat's default width: 74, or the terminal's when output goes to one. */
static int default_width(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");

	if (!isatty(STDOUT_FILENO))
		return 74;
	if (cols != NULL && *cols != '\0') {
		char *end;
		long v;

		errno = 0;
		v = strtol(cols, &end, 10);
		if (*end == '\0' && errno == 0 && v >= 2 && v <= 10000)
			return (int)v;
		return 74;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 3)
		return ws.ws_col - 2;
	return 74;
}

static void finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		sb_die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
}

static int ministat_main(int nfiles, char **files, int column, const char *delim,
			 const struct sb_mopts *mo)
{
	static struct sb_mset sets[SB_MINISTAT_MAXSETS];
	struct sb_mset *ptrs[SB_MINISTAT_MAXSETS];
	FILE *fp[SB_MINISTAT_MAXSETS];
	char err[ERRLEN];
	int nsets = nfiles ? nfiles : 1;
	int rc;

	if (nfiles > SB_MINISTAT_MAXSETS)
		usage_error("%d data sets: at most %d can be compared", nfiles,
			    SB_MINISTAT_MAXSETS);
	/* Open everything first, as ministat does, so a bad name fails before any reading. */
	for (int i = 0; i < nsets; i++) {
		const char *name = nfiles ? files[i] : "-";

		if (strcmp(name, "-") == 0) {
			fp[i] = stdin;
		} else {
			int e;

			/* a pipe is read (<(cmd)); a FIFO without a writer reads as empty (fopen waited
			 * for one for good), a device is refused (/dev/zero was read until memory ran out) */
			fp[i] = sb_file_stream(name, &e);
			if (fp[i] == NULL)
				sb_die(SB_EXIT_USAGE, "cannot open %s: %s", name, e == SB_E_NOTREG ?
				       "a device or socket, not a file or a pipe ('-' reads standard input)" : strerror(e));
		}
	}
	for (int i = 0; i < nsets; i++) {
		/* ministat names standard input <stdin> when no file is given, '-' otherwise. */
		const char *legend = nfiles ? files[i] : "<stdin>";
		const char *what = fp[i] == stdin ? "<stdin>" : legend;

		if (sb_mset_init(&sets[i], legend) != 0)
			sb_die(SB_EXIT_ENV, "out of memory");
		rc = sb_mset_read(fp[i], what, column, delim, &sets[i], err, sizeof(err));
		if (fp[i] != stdin)
			fclose(fp[i]);
		if (rc == 0)
			rc = sb_mset_finish(&sets[i], what, err, sizeof(err));
		if (rc != 0)
			sb_die(rc, "%s", err);
		ptrs[i] = &sets[i];
	}
	rc = sb_ministat_print(stdout, ptrs, nsets, mo);
	if (rc != 0)
		sb_die(rc, "out of memory drawing the plot");
	finish_output();
	for (int i = 0; i < nsets; i++)
		sb_mset_free(&sets[i]);
	return 0;
}

/* What the command line asks for. */
struct cli {
	struct sb_mopts mo;
	struct sb_cmp_opts co;
	const char *delim;
	int column;
	char run_only[32], file_only[32];	/* the last option given of one kind of operand */
};

enum { ANY, RUNS, FILES };	/* the operands an option applies to (struct sb_cli_opt's group) */

static void set_delim(void *opts, const struct sb_cli_opt *o, const char *arg, int value)
{
	(void)o;
	(void)value;
	if (*arg == '\0')
		usage_error("-d: the delimiter list is empty");
	((struct cli *)opts)->delim = arg;
}

static void set_level(void *opts, const struct sb_cli_opt *o, const char *arg, int value)
{
	double v;

	(void)o;
	(void)value;
	if (sb_decimal(arg, &v) != 0 || sb_student_t(v, 1) < 0)
		usage_error("%s '%s': the confidence level must be 80, 90, 95, 98, 99 or 99.5",
			    "-c", arg);
	((struct cli *)opts)->mo.conf = v;
}

static void set_threshold(void *opts, const struct sb_cli_opt *o, const char *arg, int value)
{
	double v;

	(void)o;
	(void)value;
	errno = 0;
	if (sb_decimal(arg, &v) != 0 || v < 0 || errno == ERANGE)
		usage_error("%s '%s': expected a percentage >= 0", "--threshold", arg);
	/* a slowdown is at most 100%: from 100 on, no regression could count */
	if (v >= 100)
		usage_error("--threshold '%s': expected a percentage from 0 to below 100 "
			    "(a slowdown is at most 100%%: %s would pass every regression)", arg, arg);
	((struct cli *)opts)->co.threshold = v;
}

static void set_drift(void *opts, const struct sb_cli_opt *o, const char *arg, int value)
{
	double v;

	(void)o;
	(void)value;
	errno = 0;
	if (sb_decimal(arg, &v) != 0 || v < 0 || v > 100 || errno == ERANGE)
		usage_error("%s '%s': expected a percentage from 0 to 100 (a sweep's offset sd)", "--drift",
			    arg);
	((struct cli *)opts)->co.drift_pct = v;
}

static const struct sb_cli_choice sweep_values[] = { { "mean", 0 }, { "median", 1 }, { NULL, 0 } };

static const struct sb_cli_choice formats[] = {
	{ "text", SB_CMP_TEXT }, { "markdown", SB_CMP_MARKDOWN }, { "csv", SB_CMP_CSV },
	{ "gab", SB_CMP_GAB }, { "bencher", SB_CMP_BENCHER }, { NULL, 0 },
};
static const struct sb_cli_choice gates[] = {
	{ "curves", SB_GATE_CURVES }, { "holm", SB_GATE_HOLM }, { "bh", SB_GATE_BH },
	{ "point", SB_GATE_POINT }, { NULL, 0 },
};
static const struct sb_cli_choice fail_ons[] = {
	{ "regression", SB_FAIL_REGRESSION }, { "change", SB_FAIL_CHANGE }, { "never", SB_FAIL_NEVER },
	{ NULL, 0 },
};

#define AT(f) offsetof(struct cli, f)
#define FLAG(l, n, f, g, h)		{ l, n, NULL, SB_CLI_FLAG, AT(f), 0, 0, NULL, NULL, NULL, g, h, NULL, 0, 0 }
#define INT(l, a, f, lo, hi, g, h)	{ l, NULL, a, SB_CLI_INT, AT(f), lo, hi, NULL, NULL, NULL, g, h, NULL, 0, 0 }
#define CALL(l, n, a, fn, g, h)		{ l, n, a, SB_CLI_CALL, 0, 0, 0, NULL, NULL, fn, g, h, NULL, 0, 0 }
#define CHOICE(n, a, f, c, bad, h)	{ 0, n, a, SB_CLI_CHOICE, AT(f), 0, 0, c, bad, NULL, RUNS, h, NULL, 0, 0 }

/* In --help's order. An option: a row here, a field in struct cli, its consumer. */
static const struct sb_cli_opt table[] = {
	FLAG('A', NULL, mo.no_plot, ANY, "no plot (statistics and comparisons)"),
	FLAG('n', NULL, mo.stats_only, ANY, "statistics only: no plot, no comparison"),
	FLAG('q', NULL, mo.quiet, ANY, "no legend and no table heading"),
	FLAG('s', NULL, mo.separate, ANY, "one avg/median/stddev bar line per data set"),
	INT('w', "WIDTH", mo.width, 2, 100000, ANY, "plot width (default 74, or the terminal's)"),
	INT('C', "COLUMN", column, 1, INT_MAX, FILES, "column of each line to read (default 1)"),
	CALL('d', NULL, "DELIMITERS", set_delim, FILES, "column delimiters (default space and tab)"),
	CALL('c', "confidence", "L", set_level, ANY, "80, 90, 95, 98, 99 or 99.5 (default 95)"),
	CHOICE("format", "F", co.format, formats,
	       "--format '%s': expected text, markdown, csv, gab or bencher",
	       "text, markdown, csv, or new/base in % as dashboard JSON:\n"
	       "gab (github-action-benchmark) or bencher (run\n"
	       "directories; default text)"),
	{ 0, "point", "MODE:TASKS", SB_CLI_STRING, AT(co.point), 0, 0, NULL, NULL, NULL, RUNS,
	  "the full ministat block of one point", NULL, 0, 0 },
	CALL(0, "threshold", "PCT", set_threshold, RUNS,
	     "a significant change smaller than PCT % is not a\n"
	     "regression (default 0; below 100)"),
	CHOICE("fail-on", "WHAT", co.fail_on, fail_ons,
	       "--fail-on '%s': expected regression, change or never",
	       "regression (default), change or never: what exits 1"),
	CHOICE("gate", "PROCEDURE", co.gate, gates, "--gate '%s': expected curves, holm, bh or point",
	       "curves (default: each mode's curve and every point,\n"
	       "weighted Holm), holm, bh (points only) or point (each\n"
	       "point at the level: the gate before issue 24)"),
	/* mark_vs takes it out of argv first: getopt would move it away from its operands */
	{ 0, "vs", NULL, SB_CLI_DOC, 0, 0, 0, NULL, NULL, NULL, RUNS,
	  "BASE... --vs NEW...: each side is pooled from several\n"
	  "sweeps (their runs are one side's independent values)\n"
	  "(gab, bencher: sweeps of several testcases, each\n"
	  "testcase compared on its own, all in one file)", NULL, 0, 0 },
	CALL(0, "drift", "PCT", set_drift, RUNS,
	     "the machine's drift between sweeps, a sweep's offset\n"
	     "sd in % (0: none, the runs inside each sweep only);\n"
	     "default: learned from the history, else 2%"),
	{ 0, "history", "FILE", SB_CLI_STRING, AT(co.history), 0, 0, NULL, NULL, NULL, RUNS,
	  "the history to learn the drift from (default\n"
	  "$SB_HISTORY, else history.db of the base's results)", NULL, 0, 0 },
	CHOICE("sweep-value", "WHAT", co.sweep_median, sweep_values, "--sweep-value '%s': expected mean or median",
	       "a sweep's value: the mean of its runs (default) or\n"
	       "their median (where every sweep has 5 runs or more)"),
	FLAG(0, "force", co.force, RUNS,
	     "compare different testcases, runs without common\n"
	     "points, failed or interrupted runs"),
	{ 'h', "help", NULL, SB_CLI_HELP, 0, 0, 0, NULL, NULL, NULL, ANY, "this text", NULL, 0, 0 },
};

static const struct sb_cli cli;

/* usage with "compare.sh" spelt as the command was run */
static void print_usage(FILE *out)
{
	const char *p = usage_head, *q;

	while ((q = strstr(p, "compare.sh")) != NULL) {
		fwrite(p, 1, (size_t)(q - p), out);
		fputs(me, out);
		p = q + strlen("compare.sh");
	}
	fputs(p, out);
	sb_cli_list(&cli, out);
	fputs(usage_tail, out);
}

static __attribute__((noreturn)) void help(void)
{
	print_usage(stdout);
	finish_output();
	exit(SB_EXIT_OK);
}

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	usage_error("%s", msg);
}

/* A long option given a value it does not take is named as typed (getopt's optopt is no letter then). */
static __attribute__((noreturn)) void unknown(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)c;
	if (optopt && strncmp(typed, "--", 2) != 0)
		usage_error("unknown option -%c", optopt);
	usage_error("unknown option %s", typed);
}

static __attribute__((noreturn)) void missing(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)c;
	(void)optopt;
	usage_error("option %s needs a value", typed);
}

/* Which kind of operand the options given ask for: main checks it against the operands. */
static void seen(void *opts, const struct sb_cli_opt *opt, const char *label, const char *arg)
{
	struct cli *o = opts;

	(void)arg;

	if (opt->group == RUNS)
		snprintf(o->run_only, sizeof(o->run_only), "%s", label);
	else if (opt->group == FILES)
		snprintf(o->file_only, sizeof(o->file_only), "%s", label);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]), .quiet = 1,
	.bad_number = "%s '%s': expected an integer from %ld to %ld",
	.usage_error = cli_error, .unknown = unknown, .missing = missing, .help = help, .seen = seen,
};
/*
 * --vs splits the operands into two sides, each pooled from several sweeps.
 * getopt would move it away from the operands around it, so it is replaced
 * by a marker operand first (up to a "--"), which keeps its place.
 */
static const char vs_marker[] = "\001--vs";

static void mark_vs(int argc, char **argv)
{
	int seen = 0;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (sb_cli_doc(&cli, argv[i]) != NULL) {	/* --vs, the one row read here */
			if (seen++)
				usage_error("--vs given twice: BASE... --vs NEW... has two sides");
			argv[i] = (char *)vs_marker;
		}
}

/* The marker out of the operands -> how many remain; o->co.pool = the base side's count. */
static int take_vs(int argc, char **argv, struct cli *o)
{
	for (int i = 0; i < argc; i++)
		if (argv[i] == vs_marker) {
			if (i == 0 || i == argc - 1)
				usage_error("--vs needs run directories on both sides: BASE... --vs NEW...");
			memmove(argv + i, argv + i + 1, (size_t)(argc - i - 1) * sizeof(*argv));
			o->co.pool = i;
			snprintf(o->run_only, sizeof(o->run_only), "--vs");
			return argc - 1;
		}
	return argc;
}

/*
 * --format gab|bencher, BASE... --vs NEW... of several testcases: each
 * testcase's sweeps compared on their own (each side pooled, as --vs does),
 * every entry in one file; nothing is written unless all compare. Returns
 * the worst exit code, or -1 when the sweeps are of one testcase (the usual
 * path then takes them).
 */
static int export_by_test(int argc, char **argv, const struct cli *o, char *err, size_t errlen)
{
	char (*test)[256] = calloc((size_t)argc, sizeof(*test));
	char **pieces = calloc((size_t)argc, sizeof(*pieces)), **dirs = calloc((size_t)argc, sizeof(*dirs));
	size_t *lens = calloc((size_t)argc, sizeof(*lens));
	int rc = 0, ngroups = 0, several = 0;

	if (test == NULL || pieces == NULL || dirs == NULL || lens == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	for (int i = 0; i < argc; i++) {
		if (sb_export_test_of(argv[i], test[i], sizeof(test[i])) != 0)
			test[i][0] = '\0';
		several |= strcmp(test[i], test[0]) != 0;
	}
	if (!several)
		rc = -1;
	for (int i = 0; i < argc && rc >= 0 && rc < 2; i++) {
		struct sb_cmp_opts co = o->co;
		int nb = 0, n = 0, seen = 0, r;
		FILE *mem;

		for (int j = 0; j < i; j++)
			seen |= strcmp(test[j], test[i]) == 0;
		if (seen)
			continue;
		if (i >= o->co.pool || !test[i][0]) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s", argv[i], !test[i][0] ?
				     "no test= in its meta: cannot tell which testcase it measured" :
				     "its testcase has no BASE sweep before --vs");
			break;
		}
		for (int j = 0; j < argc; j++)
			if (strcmp(test[j], test[i]) == 0) {
				dirs[n++] = argv[j];
				nb += j < o->co.pool;
			}
		if (n == nb) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no NEW sweep after --vs", test[i]);
			break;
		}
		co.pool = nb;
		mem = open_memstream(&pieces[ngroups], &lens[ngroups]);
		if (mem == NULL)
			sb_die(SB_EXIT_ENV, "out of memory");
		r = sb_compare_runs(n, dirs, &co, mem, err, errlen);
		if (fclose(mem) != 0)
			sb_die(SB_EXIT_ENV, "out of memory");
		ngroups++;
		rc = r > rc ? r : rc;
	}
	if (rc >= 0 && rc < 2 &&
	    sb_json_join(stdout, pieces, (size_t)ngroups,
			 o->co.format == SB_CMP_GAB ? SB_EXPORT_GAB : SB_EXPORT_BENCHER) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "internal error: a comparison's JSON is malformed");
	for (int i = 0; i < ngroups; i++)
		free(pieces[i]);
	free(pieces);
	free(dirs);
	free(lens);
	free(test);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli o = {
		.mo = { .width = -1, .conf = 95 },
		.co = { .format = SB_CMP_TEXT, .fail_on = SB_FAIL_REGRESSION, .drift_pct = -1 },
		.delim = " \t", .column = 1,
	};
	int ndirs = 0, first;
	struct stat st;
	char err[ERRLEN];

	sb_msg_prog(PROG);
	set_me(argv[0]);
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("sb-compare (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		return 0;
	}
	mark_vs(argc, argv);
	first = sb_cli_parse(&cli, argc, argv, &o);
	argc -= first;
	argv += first;
	argc = take_vs(argc, argv, &o);
	if (o.mo.width < 0)
		o.mo.width = default_width();

	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "-") != 0 && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			ndirs++;
	if (ndirs == 0) {
		if (o.run_only[0])
			usage_error("%s applies to run directories, not to files of numbers",
				    o.run_only);
		return ministat_main(argc, argv, o.column, o.delim, &o.mo);
	}
	for (int i = 0; i < argc && ndirs != argc; i++)
		if (stat(argv[i], &st) != 0)
			sb_die(SB_EXIT_USAGE, "cannot open %s: %s", argv[i], strerror(errno));
	if (ndirs != argc)
		usage_error("give either files of numbers or run directories, not both");
	if (argc < 2)
		usage_error("run mode needs a BASE and at least one NEW run directory");
	if (o.file_only[0])
		usage_error("%s applies to files of numbers, not to run directories", o.file_only);
	if (o.co.history && !*o.co.history)	/* was "no history at  (", the default drift, exit 0 */
		usage_error("--history: empty file name");
	if (o.co.sweep_median && o.co.drift_pct == 0)
		usage_error("--sweep-value median: with --drift 0 the runs are the values, not the sweeps "
			    "(give the drift, or leave --drift out)");
	o.co.mopts = o.mo;
	o.co.conf = o.mo.conf;
	{
		int rc = -1;

		if (o.co.pool > 0 && (o.co.format == SB_CMP_GAB || o.co.format == SB_CMP_BENCHER))
			rc = export_by_test(argc, argv, &o, err, sizeof(err));
		if (rc < 0)
			rc = sb_compare_runs(argc, argv, &o.co, stdout, err, sizeof(err));

		if (rc >= 2)
			sb_die(rc, "%s", err);
		finish_output();
		return rc;
	}
}
