/* sb-bisect's hands: the commit checked out, the build in the tree, one sweep through runtest.sh. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect.h"
#include "bisect/child.h"
#include "msg/exit.h"

void sb_bisect_say(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sb-bisect: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int sb_tree_head(char sha[48])
{
	char *argv[] = { "git", "rev-parse", "--verify", "-q", "HEAD", NULL };
	char *out = NULL;
	int rc = sb_child_run(argv, NULL, &out, 5);
	size_t n = out ? strspn(out, "0123456789abcdef") : 0;

	if (rc != 0 || (n != 40 && n != 64)) {
		sb_bisect_say("not in a git work tree with a commit checked out (git rev-parse HEAD)");
		free(out);
		return -1;
	}
	memcpy(sha, out, n);
	sha[n] = '\0';
	free(out);
	return 0;
}

char *sb_steplog_path(const struct sb_bisect_opts *o)
{
	char *p;

	if (asprintf(&p, "%s/bisect-steps.tsv", o->results) < 0)
		return NULL;
	return p;
}

int sb_tree_build(const struct sb_bisect_opts *o)
{
	char *argv[] = { "sh", "-c", (char *)o->build, NULL };
	int rc;

	if (!o->build)
		return 0;
	sb_bisect_say("building: %s", o->build);
	rc = sb_child_run_group(argv, NULL, NULL, o->grace_s);
	return rc < 0 ? 127 : rc;
}

/* The last non-empty line of text (runtest.sh prints the run directory last), in place. */
static char *last_line(char *text)
{
	size_t n = strlen(text);
	char *p;

	while (n > 0 && isspace((unsigned char)text[n - 1]))
		text[--n] = '\0';
	p = strrchr(text, '\n');
	return p ? p + 1 : text;
}

/* argv for runtest.sh: runtest, args..., the bisect's own options, o->pass...; malloc'd. */
static char **runtest_argv(const struct sb_bisect_opts *o, char *const args[], char *label)
{
	size_t n = 0, k = 0, np = 0;
	char **v;

	while (args[n])
		n++;
	while (o->pass && o->pass[np])
		np++;
	if (!(v = calloc(n + np + 10, sizeof(*v))))
		return NULL;
	v[k++] = (char *)o->runtest;
	for (size_t i = 0; i < n; i++)
		v[k++] = args[i];
	v[k++] = "--results";
	v[k++] = (char *)o->results;
	v[k++] = "--label";
	v[k++] = label;
	if (o->kernel) {
		v[k++] = "--kernel";
		v[k++] = (char *)o->kernel;
	}
	for (size_t i = 0; i < np; i++)
		v[k++] = o->pass[i];
	return v;
}

int sb_sweep(const struct sb_bisect_opts *o, const char *sha, char *const args[], char **rundir)
{
	char label[32], *commit = NULL, *tests = NULL, *env[3] = { NULL, NULL, NULL }, *out = NULL;
	char **argv;
	int rc = -1;

	*rundir = NULL;
	snprintf(label, sizeof(label), "bisect-%.12s", sha);
	if (asprintf(&commit, "SB_COMMIT=%s", sha) < 0)
		return -1;
	env[0] = commit;
	if (o->host && o->tests_dir) {
		char *abs = realpath(o->tests_dir, NULL);

		if (!abs || asprintf(&tests, "SB_TESTS_DIR=%s", abs) < 0) {
			sb_bisect_say("--tests-dir %s: not a directory here", o->tests_dir);
			free(abs);
			free(commit);
			return SB_EXIT_USAGE;
		}
		free(abs);
		env[1] = tests;
	}
	argv = runtest_argv(o, args, label);
	if (argv)
		rc = sb_child_run(argv, env, &out, o->grace_s);
	if (rc == 0 && out && *last_line(out)) {
		/* (absolute: runtest.sh shows it relative to here, and the step log is read from anywhere) */
		if (!(*rundir = realpath(last_line(out), NULL)))
			*rundir = strdup(last_line(out));
	} else if (rc == 0) {
		rc = SB_EXIT_ENV;	/* runtest.sh said nothing: not a run */
	}
	free(argv);
	free(out);
	free(commit);
	free(tests);
	return rc;
}
