/* The testcase API's sb_tmpdir(): a private directory for a testcase's files, removed however the run ends. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "janitor.h"
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

void sb_tmpdir_remove(void)
{
	if (path[0])
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	path[0] = '\0';
	/* Removed (or warned about): the janitor has nothing left to do. */
	sb_janitor_release();
}

const char *sb_tmpdir(void)
{
	const char *base = dir;

	if (path[0])
		return path;
	/* Only the runner can remove it at the end, so only the runner makes it
	 * (sb_tmpdir_make does, before testcase_prepare and any task). */
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
	if ((size_t)snprintf(path, sizeof(path), "%s/scalebench.XXXXXX", base) >= sizeof(path)) {
		/* Never leave a truncated name for sb_tmpdir_remove to delete. */
		path[0] = '\0';
		sb_die(SB_EXIT_USAGE, "directory name too long: %s", base);
	}
	/* Made by the janitor, which removes it even if the runner is SIGKILLed. */
	int e = sb_janitor_mkdtemp(path);

	if (e) {
		path[0] = '\0';
		sb_die(e == ENOENT || e == ENOTDIR ? SB_EXIT_USAGE : SB_EXIT_ENV,
		       "cannot create a directory under %s: %s", base, strerror(e));
	}
	return path;
}

void sb_tmpdir_make(void)
{
	(void)sb_tmpdir();
}

/* The testcase's own default belongs in the `dir` parameter's help. */
__attribute__((constructor)) static void describe_dir(void)
{
	static char help[256];

	if (&testcase_tmpdir_default && testcase_tmpdir_default) {
		snprintf(help, sizeof(help), "directory to create the test's files in "
			 "(default $SCALEBENCH_TMPDIR, else %s)", testcase_tmpdir_default);
		sb_param_dir.help = help;
	}
}
