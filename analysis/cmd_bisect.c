/* sb-bisect: a step of `git bisect run` on a performance point (sequential test), measure an end, report the result. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "exit.h"
#include "bisect/child.h"
#include "bisect/steps.h"
#include "msg.h"
#include "results.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */

static const char usage_text[] =
	"usage: sb-bisect --good DIR --bad DIR --point P (--host | --kernel IMAGE) [--build CMD] [options] [-- RUNTEST_OPTS]\n"
	"       sb-bisect measure (--host | --kernel IMAGE) [--build CMD] [options] -- TEST [RUNTEST_OPTS]\n"
	"       sb-bisect report [--results DIR] [--log FILE] [--format text|markdown]\n"
	"A step of 'git bisect run': builds the commit checked out, measures point P with runtest.sh\n"
	"until a sequential test says good (exit 0) or bad (1), or skips it (125: the build failed,\n"
	"the measurement failed, or the run cap came first). Ends that do not differ by more than\n"
	"their runs can detect, and every error, exit 128: git bisect run stops. P: MODE:TASKS,\n"
	"peak, peak:MODE or curve:MODE. Options: --results DIR (default: sb-bisect/ in the git\n"
	"directory), --tests-dir DIR (--host: the testcase binaries the build makes), --runtest PATH,\n"
	"--max-runs N (24; 96 with the drift), --alpha A, --beta B (0.002), --drift PCT (the drift between sweeps:\n"
	"learned from the history, else 2%; 0: the runs alone). --good and --bad may be given up to\n"
	"16 times each: an end measured as several sweeps. docs/BISECT.md, man sb-bisect.\n";

/* Usage errors exit 2, but 128 in a step (git bisect run would mark the commit bad for 1..127). */
static int usage_exit = SB_EXIT_USAGE;
#define USAGE(...) sb_die(usage_exit, __VA_ARGS__)

static double num(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= lo && v <= hi))
		USAGE("%s '%s': a number %g..%g", opt, s, lo, hi);
	return v;
}

/* A whole number lo..hi (not 2.5, not 1e3). */
static long whole(const char *opt, const char *s, long lo, long hi)
{
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9 || atol(s) < lo || atol(s) > hi)
		USAGE("%s '%s': a whole number %ld..%ld", opt, s, lo, hi);
	return atol(s);
}

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

/* One option with a value: "--name VALUE"; 1 when argv[*i] was it. */
static int opt(int argc, char **argv, int *i, const char *name, const char **val)
{
	if (strcmp(argv[*i], name) != 0)
		return 0;
	if (*i + 1 >= argc)
		USAGE("%s needs a value", name);
	*val = argv[++*i];
	return 1;
}

/* The options of every verb; the rest after "--" into o->pass. */
static void parse(int argc, char **argv, int first, struct sb_bisect_opts *o)
{
	const char *v = NULL;
	int i;

	for (i = first; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (strcmp(argv[i], "--host") == 0) {
			o->host = 1;
		} else if (opt(argc, argv, &i, "--good", &v) || opt(argc, argv, &i, "--bad", &v)) {
			int g = strcmp(argv[i - 1], "--good") == 0;
			size_t *n = g ? &o->ngood : &o->nbad;

			if (*n == SB_BISECT_MAXENDS)
				USAGE("%s: at most %d sweeps an end", argv[i - 1], SB_BISECT_MAXENDS);
			(g ? o->goods : o->bads)[(*n)++] = v;
			*(g ? &o->good : &o->bad) = (g ? o->goods : o->bads)[0];
		} else if (opt(argc, argv, &i, "--point", &o->point) || opt(argc, argv, &i, "--build", &o->build) ||
			   opt(argc, argv, &i, "--kernel", &o->kernel) || opt(argc, argv, &i, "--results", &o->results) ||
			   opt(argc, argv, &i, "--tests-dir", &o->tests_dir) || opt(argc, argv, &i, "--log", &o->log) ||
			   opt(argc, argv, &i, "--runtest", &o->runtest)) {
			continue;
		} else if (opt(argc, argv, &i, "--max-runs", &v)) {
			o->rule.max_runs = (size_t)whole("--max-runs", v, 2, 1000);
			o->max_runs_given = 1;
		} else if (opt(argc, argv, &i, "--alpha", &v)) {
			o->rule.alpha = num("--alpha", v, 1e-6, 0.25);
		} else if (opt(argc, argv, &i, "--beta", &v)) {
			o->rule.beta = num("--beta", v, 1e-6, 0.25);
		} else if (opt(argc, argv, &i, "--drift", &v)) {
			o->drift_pct = num("--drift", v, 0, 100);
		} else if (opt(argc, argv, &i, "--format", &v)) {
			if (strcmp(v, "text") != 0 && strcmp(v, "markdown") != 0)
				USAGE("--format '%s': text or markdown", v);
			o->format_md = v[0] == 'm';
		} else {
			USAGE("unknown option '%s'", argv[i]);
		}
	}
	o->pass = argv + i;
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

int main(int argc, char **argv)
{
	struct sb_bisect_opts o = { .rule = SB_RULE_DEFAULT, .drift_pct = -1, .grace_s = 60 };
	const char *verb = argc > 1 ? argv[1] : "";
	int rc;

	sb_msg_prog("sb-bisect");
	if (argc == 2 && (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0)) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc == 2 && strcmp(verb, "--version") == 0) {
		printf("sb-bisect (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		return 0;
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
