/* sb-bisect: a step of `git bisect run` on a performance point (sequential test), measure an end, report the result. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "cli.h"
#include "msg/exit.h"
#include "bisect/child.h"
#include "bisect/steps.h"
#include "msg/msg.h"
#include "io/results.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */

static const char usage_head[] =
	"usage: sb-bisect --good DIR --bad DIR --point P (--host | --kernel IMAGE) [--build CMD] [options] [-- RUNTEST_OPTS]\n"
	"       sb-bisect measure (--host | --kernel IMAGE) [--build CMD] [options] -- TEST [RUNTEST_OPTS]\n"
	"       sb-bisect report [--results DIR] [--log FILE] [--format text|markdown] [--drift PCT]\n"
	"A step of 'git bisect run': builds the commit checked out, measures point P with runtest.sh\n"
	"until a sequential test says good (exit 0) or bad (1), or skips it (125: the build failed,\n"
	"the measurement failed, or the run cap came first). Ends that do not differ by more than\n"
	"their runs can detect, and every error, exit 128: git bisect run stops. P: MODE:TASKS,\n"
	"peak, peak:MODE or curve:MODE.\n"
	"Options:\n";
static const char usage_tail[] = "docs/BISECT.md, man sb-bisect.\n";

/* Usage errors exit 2, but 128 in a step (git bisect run would mark the commit bad for 1..127). */
static int usage_exit = SB_EXIT_USAGE;
#define USAGE(...) sb_die(usage_exit, __VA_ARGS__)

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/*
 * The command line, shell-quoted, for the step log and the report: one line
 * ('...', or bash's $'...' with \xNN for an argument with control characters).
 */
static char *quoted(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 4;
	if (!(p = s = malloc(len)))
		sb_die(SB_EXIT_ENV, "out of memory");
	for (int i = 0; i < argc; i++) {
		int plain = argv[i][0] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
						 "0123456789-_./:=,+@%") == strlen(argv[i]);
		int ctl = has_control(argv[i]);

		p += sprintf(p, "%s%s", i ? " " : "", plain ? "" : ctl ? "$'" : "'");
		for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
			if (ctl && (*c < 0x20 || *c == 0x7f || *c == '\\' || *c == '\''))
				p += sprintf(p, "\\x%02x", *c);
			else
				p += *c == '\'' ? sprintf(p, "'\\''") : sprintf(p, "%c", *c);
		if (!plain)
			*p++ = '\'', *p = '\0';
	}
	return s;
}

/* runtest.sh: --runtest, $SB_RUNTEST, scalebench-runtest beside this binary, or the checkout's. */
static const char *find_runtest(const char *given)
{
	static char path[PATH_MAX + 32];
	char self[PATH_MAX];
	ssize_t n;

	if (given)
		return given;
	if (getenv("SB_RUNTEST") && *getenv("SB_RUNTEST"))
		return getenv("SB_RUNTEST");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		*strrchr(self, '/') = '\0';
		snprintf(path, sizeof(path), "%s/scalebench-runtest", self);
		if (access(path, X_OK) == 0)
			return path;
		snprintf(path, sizeof(path), "%s/../../runtest.sh", self);
		if (access(path, X_OK) == 0)
			return path;
	}
	return "scalebench-runtest";
}

/* The default results directory: sb-bisect/ in the repository's git directory (made). */
static const char *default_results(void)
{
	char *argv[] = { "git", "rev-parse", "--path-format=absolute", "--git-common-dir", NULL }, *out = NULL;
	static char dir[PATH_MAX];
	size_t n;

	if (sb_child_run(argv, NULL, &out, 5) != 0 || !out || !out[0]) {
		free(out);
		return NULL;
	}
	n = strcspn(out, "\n");
	out[n] = '\0';
	snprintf(dir, sizeof(dir), "%s/sb-bisect", out);
	free(out);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return NULL;
	return dir;
}

/* A number the way strtod reads it whole (sb_cli's decimal()). */
static int decimal(const char *s, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	return !*s || *end || errno ? -1 : 0;
}

/* --max-runs: a whole number lo..hi (not 2.5, not 1e3). */
static void set_max_runs(void *opts, const struct sb_cli_opt *row, const char *s, int value)
{
	(void)value;
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9 || atol(s) < row->lo || atol(s) > row->hi)
		USAGE("--%s '%s': a whole number %ld..%ld", row->name, s, row->lo, row->hi);
	((struct sb_bisect_opts *)opts)->rule.max_runs = (size_t)atol(s);
	((struct sb_bisect_opts *)opts)->max_runs_given = 1;
}

/* --good DIR, --bad DIR: an end's sweep; given again, another sweep of that end. */
static void set_end(void *opts, const struct sb_cli_opt *row, const char *s, int value)
{
	struct sb_bisect_opts *o = opts;
	int g = row->name[0] == 'g';
	size_t *n = g ? &o->ngood : &o->nbad;

	(void)value;
	if (*n == SB_BISECT_MAXENDS)
		USAGE("--%s: at most %d sweeps an end", row->name, SB_BISECT_MAXENDS);
	(g ? o->goods : o->bads)[(*n)++] = s;
	*(g ? &o->good : &o->bad) = (g ? o->goods : o->bads)[0];
}

static const struct sb_cli_choice formats[] = { { "text", 0 }, { "markdown", 1 }, { NULL, 0 } };

#define AT(f) offsetof(struct sb_bisect_opts, f)
#define TEXT(n, a, f, h)	{ .name = n, .arg = a, .kind = SB_CLI_STRING, .field = AT(f), .help = h }
#define NUMBER(n, a, f, lo, hi, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_DECIMAL, .field = AT(f), .dlo = lo, .dhi = hi, .help = h }

/* In --help's order: every verb's options. An option: a row here, a field in struct sb_bisect_opts
 * (bisect/bisect.h), its consumer. */
static const struct sb_cli_opt table[] = {
	{ .name = "good", .arg = "DIR", .kind = SB_CLI_CALL, .set = set_end,
	  .help = "a step: the good end's run directory (again: another sweep of\n"
	  "that end, up to 16)" },
	{ .name = "bad", .arg = "DIR", .kind = SB_CLI_CALL, .set = set_end,
	  .help = "a step: the bad end's run directory (again: another sweep, up to 16)" },
	TEXT("point", "P", point, "a step: what is measured (MODE:TASKS, peak, peak:MODE, curve:MODE)"),
	{ .name = "host", .kind = SB_CLI_FLAG, .field = AT(host), .help = "the range is user space: run on this host" },
	TEXT("kernel", "IMAGE", kernel, "the range is a kernel: boot IMAGE in a VM at each step"),
	TEXT("build", "CMD", build, "what makes the commit checked out (a shell command)"),
	TEXT("results", "DIR", results, "where sweeps and the step log go (default: sb-bisect/ in the\n"
	     "git directory)"),
	TEXT("tests-dir", "DIR", tests_dir, "--host: the testcase binaries the build makes"),
	TEXT("runtest", "PATH", runtest, "the runtest.sh to run"),
	{ .name = "max-runs", .arg = "N", .kind = SB_CLI_CALL, .lo = 2, .hi = 1000, .set = set_max_runs,
	  .help = "runs of a commit at most (default 24; 96 with the drift)" },
	NUMBER("alpha", "A", rule.alpha, 1e-6, 0.25, "the chance to call a good commit bad (default 0.002)"),
	NUMBER("beta", "B", rule.beta, 1e-6, 0.25, "the chance to call a bad commit good (default 0.002)"),
	NUMBER("drift", "PCT", drift_pct, 0, 100, "a step's and the report's drift between sweeps (default:\n"
	       "learned from the history, else 2%; 0: the runs alone)"),
	TEXT("log", "FILE", log, "report: a git bisect log (default: git bisect log's)"),
	{ .name = "format", .arg = "F", .kind = SB_CLI_CHOICE, .field = AT(format_md), .choices = formats,
	  .bad = "--format '%s': text or markdown", .help = "report: text (default) or markdown" },
	{ .letter = 'h', .name = "help", .kind = SB_CLI_DOC, .help = "this text (as the only argument)" },
	{ .name = "version", .kind = SB_CLI_DOC, .help = "sb-bisect's version (as the only argument)" },
};

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	USAGE("%s", msg);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]),
	.decimal = decimal, .bad_decimal = "%s '%s': a number %g..%g",
	.usage_error = cli_error,
};

/* The options of every verb; the rest after "--" into o->pass. */
static void parse(int argc, char **argv, int first, struct sb_bisect_opts *o)
{
	struct sb_cli_scan s;
	enum sb_cli_step st;

	sb_cli_scan_init(&s, argc - first, argv + first);
	while ((st = sb_cli_next(&cli, &s, o)) != SB_CLI_END && st != SB_CLI_DASH_DASH)
		if (st == SB_CLI_OPERAND)
			USAGE("unknown option '%s'", s.word);
	o->pass = argv + first + s.i;
}

/* What a step and measure need besides the options: where to run, where results go. */
static void setup(struct sb_bisect_opts *o, int code)
{
	if (!!o->host == !!o->kernel)
		sb_die(code, "give --host (a user-space range) or --kernel IMAGE (a kernel range), one of them");
	if (o->kernel && o->tests_dir)
		sb_die(code, "--tests-dir goes with --host: a guest runs the installed testcases");
	/* (the step log holds these paths, a line a sweep: refused before anything runs) */
	if (o->results && has_control(o->results))
		sb_die(code, "--results: a directory name with a control character (a tab, a newline ...)");
	if (!o->results && !(o->results = default_results()))
		sb_die(code, "no --results DIR, and no git directory to keep the sweeps in");
	if (mkdir(o->results, 0777) != 0 && errno != EEXIST)
		sb_die(code, "%s: %s", o->results, strerror(errno));
	o->runtest = find_runtest(o->runtest);
}

/* sb-bisect measure: build, one sweep labelled by the commit, its directory on stdout. */
static int measure(struct sb_bisect_opts *o)
{
	char sha[48], *dir = NULL, err[512], *log;
	const char *f[4];
	struct sb_run run;
	int rc, lrc;

	setup(o, SB_EXIT_USAGE);
	if (!o->pass[0])
		USAGE("measure: the testcase and runtest.sh options after --");
	if (sb_tree_head(sha) < 0)
		return SB_EXIT_USAGE;
	if ((rc = sb_tree_build(o)) != 0) {
		if (sb_child_interrupted()) {
			sb_bisect_say("interrupted during the build: nothing measured");
			return SB_EXIT_INTERRUPTED;
		}
		sb_bisect_say("the build failed (exit %d)", rc);
		return SB_EXIT_FAIL;
	}
	rc = sb_sweep(o, sha, o->pass, &dir);
	if (sb_child_interrupted())
		return SB_EXIT_INTERRUPTED;
	if (rc != 0)
		return rc < 0 ? SB_EXIT_ENV : rc;
	/* checked before it goes into the log (a step reads every line of it) */
	lrc = sb_run_load(dir, &run, err, sizeof(err));
	if (lrc == 0 && strcmp(run.status, "complete") != 0)
		lrc = -1, snprintf(err, sizeof(err), "meta's status is %s", run.status);
	sb_run_free(&run);
	if (lrc != 0) {
		sb_bisect_say("runtest.sh ended well, but what it printed is not a complete sweep (%s): %s", dir, err);
		free(dir);
		return SB_EXIT_ENV;
	}
	f[0] = "sweep", f[1] = sha, f[2] = "-", f[3] = dir;
	log = sb_steplog_path(o);
	if (!log || sb_steplog_append(log, f, 4, err, sizeof(err)) != 0)
		sb_die(SB_EXIT_ENV, "%s", log ? err : "out of memory");
	free(log);
	if (printf("%s\n", dir) < 0 || fflush(stdout) != 0) {
		sb_bisect_say("cannot write the run directory %s to standard output", dir);
		free(dir);
		return SB_EXIT_ENV;
	}
	free(dir);
	return 0;
}

/* The ends as absolute paths (they key the sweeps a step reuses), with no control character. */
static void ends(struct sb_bisect_opts *o)
{
	static char path[2][SB_BISECT_MAXENDS][PATH_MAX];

	for (int e = 0; e < 2; e++)
		for (size_t i = 0; i < (e ? o->nbad : o->ngood); i++) {
			const char **d = e ? &o->bads[i] : &o->goods[i];

			if (has_control(*d))
				sb_die(SB_BISECT_ABORT, "--%s: a directory name with a control character", e ? "bad" : "good");
			if (realpath(*d, path[e][i]))
				*d = path[e][i];
		}
	/* a sweep given twice would pass for a replicate that agrees exactly (one sweep at both ends
	 * is the equal ends' case, refused as no difference once loaded) */
	for (size_t i = 0; o->ngood + o->nbad > 2 && i < o->ngood + o->nbad; i++)
		for (size_t j = 0; j < i; j++) {
			const char *a = i < o->ngood ? o->goods[i] : o->bads[i - o->ngood];
			const char *b = j < o->ngood ? o->goods[j] : o->bads[j - o->ngood];

			if (strcmp(a, b) == 0)
				sb_die(SB_BISECT_ABORT, "%s: given twice as a sweep of the ends", a);
		}
	o->good = o->goods[0];
	o->bad = o->bads[0];
}

/* A child's time to end after SIGTERM: 60 s, or SB_BISECT_GRACE_S (1..3600). */
static int grace(void)
{
	const char *g = getenv("SB_BISECT_GRACE_S");

	if (!g || !*g)
		return 60;
	if (strspn(g, "0123456789") != strlen(g) || strlen(g) > 4 || atoi(g) < 1 || atoi(g) > 3600)
		sb_die(usage_exit, "SB_BISECT_GRACE_S '%s': a whole number of seconds 1..3600", g);
	return atoi(g);
}

/* Standard output written whole: 0, or dies with exit 3 (a full disk). */
static int out_done(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		sb_die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	struct sb_bisect_opts o = { .rule = SB_RULE_DEFAULT, .drift_pct = -1, .grace_s = 60 };
	const char *verb = argc > 1 ? argv[1] : "";
	int rc;

	sb_msg_prog("sb-bisect");
	if (sb_cli_alone(argc, argv, "--help") || sb_cli_alone(argc, argv, "-h")) {
		fputs(usage_head, stdout);
		sb_cli_list(&cli, stdout);
		fputs(usage_tail, stdout);
		return out_done();
	}
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("sb-bisect (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		return out_done();
	}
	if (strcmp(verb, "report") != 0)
		sb_child_signals();	/* (report has no child to stop: a closed pipe ends it as usual) */
	o.command = quoted(argc, argv);
	if (strcmp(verb, "report") != 0 && strcmp(verb, "measure") != 0)
		usage_exit = SB_BISECT_ABORT;
	o.grace_s = grace();
	if (strcmp(verb, "report") == 0) {
		parse(argc, argv, 2, &o);
		if (!o.results && !(o.results = default_results()))
			sb_die(SB_EXIT_USAGE, "no --results DIR, and no git directory");
		rc = sb_bisect_report(&o, stdout);
		if (rc == 0)
			rc = out_done();	/* was exit 0, the report lost */
	} else if (strcmp(verb, "measure") == 0) {
		parse(argc, argv, 2, &o);
		rc = measure(&o);
	} else {
		/* a step: every error stops the bisect (128), never 1..127 (that would mark the commit bad) */
		if (argc < 2)
			sb_die(SB_BISECT_ABORT, "no options: see sb-bisect --help");
		usage_exit = SB_BISECT_ABORT;
		parse(argc, argv, 1, &o);
		if (!o.good || !o.bad || !o.point)
			sb_die(SB_BISECT_ABORT, "a step needs --good DIR, --bad DIR and --point P");
		if (o.kernel && !o.build)
			sb_die(SB_BISECT_ABORT, "--kernel %s needs --build CMD (what makes it at each commit): without "
			       "a build every step would boot the same image", o.kernel);
		ends(&o);
		setup(&o, SB_BISECT_ABORT);
		rc = sb_bisect_step(&o);
	}
	free(o.command);
	return rc;
}
