/* sb_tmpdir(): a private directory for a testcase's files, removed however the run ends. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testcase.h"
#include "util.h"

/* Linked in only when a testcase calls sb_tmpdir(), so only such testcases have `dir`. */
SB_PARAM_STR(dir, "", "directory to create the test's files in (default $SCALEBENCH_TMPDIR, $TMPDIR or /tmp)");

extern const char *testcase_tmpdir_default __attribute__((weak));

static char path[PATH_MAX];

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(p) < 0 && errno != ENOENT)
		sb_warn("warning: cannot remove %s: %s", p, strerror(errno));
	return 0;
}

static void remove_tree(void)
{
	if (path[0])
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	path[0] = '\0';
}

const char *sb_tmpdir(void)
{
	const char *base = dir;

	if (path[0])
		return path;
	/* Only the runner can remove it at the end, so only the runner makes it
	 * (make_before_prepare below does, before any task exists). */
	if (getpid() != sb_runner_pid)
		sb_fatalx("internal: sb_tmpdir() has no directory in a task");
	if (!base || !*base)
		base = getenv("SCALEBENCH_TMPDIR");
	if ((!base || !*base) && &testcase_tmpdir_default)
		base = testcase_tmpdir_default;
	if (!base || !*base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/scalebench.XXXXXX", base) >= sizeof(path))
		sb_die(SB_EXIT_USAGE, "directory name too long: %s", base);
	if (!mkdtemp(path)) {
		int e = errno;

		path[0] = '\0';
		sb_die(e == ENOENT || e == ENOTDIR ? SB_EXIT_USAGE : SB_EXIT_ENV,
		       "cannot create a directory under %s: %s", base, strerror(e));
	}
	sb_at_exit(remove_tree);
	return path;
}

static void make_before_prepare(void)
{
	(void)sb_tmpdir();
}

/* Linked in only with sb_tmpdir(): then the directory exists before testcase_prepare. */
__attribute__((constructor)) static void register_tmpdir(void)
{
	static char help[256];

	sb_before_prepare = make_before_prepare;
	if (&testcase_tmpdir_default && testcase_tmpdir_default) {
		snprintf(help, sizeof(help), "directory to create the test's files in "
			 "(default $SCALEBENCH_TMPDIR, else %s)", testcase_tmpdir_default);
		sb_param_dir.help = help;
	}
}
