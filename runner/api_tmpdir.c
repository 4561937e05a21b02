/* The testcase API's sb_tmpdir(): a private directory for a testcase's files, removed however the run ends. */
#define _GNU_SOURCE	/* O_TMPFILE, O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "os.h"
#include "janitor.h"
#include "util.h"

/* Linked in only when a testcase calls sb_tmpdir(), so only such testcases have `dir`. */
SB_PARAM_STR(dir, "", "directory to create the test's files in (default $SCALEBENCH_TMPDIR, $TMPDIR or /tmp)");

extern const char *testcase_tmpdir_default __attribute__((weak));
extern const char *testcase_tmpdir_fs __attribute__((weak));
extern const int testcase_tmpdir_o_direct __attribute__((weak));

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

/* Where the private directory goes, and who chose it (for messages). */
static const char *base_dir(const char **from)
{
	const char *base;

	if (dir && *dir)
		return *from = "--param dir", dir;
	if ((base = getenv("SCALEBENCH_TMPDIR")) && *base)
		return *from = "$SCALEBENCH_TMPDIR", base;
	if (&testcase_tmpdir_default && testcase_tmpdir_default && *testcase_tmpdir_default)
		return *from = "the testcase's default", testcase_tmpdir_default;
	if ((base = getenv("TMPDIR")) && *base)
		return *from = "$TMPDIR", base;
	return *from = "the default", "/tmp";
}

/* 0 if files can be made in base, else why not (root passes access(), so try). */
static int writable(const char *base)
{
	char probe[PATH_MAX];
	int fd;

	if (access(base, W_OK | X_OK) < 0)
		return errno;
	/* An unnamed file: nothing to remove, even if we are killed now. */
	if ((fd = open(base, O_TMPFILE | O_RDWR, 0600)) >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return errno;
	/* No O_TMPFILE on this filesystem: a directory, gone at once. */
	if ((size_t)snprintf(probe, sizeof(probe), "%s/scalebench.XXXXXX", base) >= sizeof(probe))
		return ENAMETOOLONG;
	if (!mkdtemp(probe))
		return errno;
	(void)rmdir(probe);
	return 0;
}

/*
 * Before anything runs (--check, and every run before testcase_prepare):
 * the directory exists, is one, can be written, is on the filesystem the
 * testcase needs (SB_TMPDIR_FS) and takes O_DIRECT if it needs that
 * (SB_TMPDIR_O_DIRECT). A place the user chose is an input error (2);
 * the built-in defaults failing are the environment's (3).
 */
void sb_tmpdir_check(void)
{
	const char *from, *base = base_dir(&from), *fs;
	int code = strstr(from, "default") ? SB_EXIT_ENV : SB_EXIT_USAGE;
	char hint[64];
	struct stat st;
	int fd, e;

	snprintf(hint, sizeof(hint), "%s%s%schoose another with --param dir",
		 strcmp(from, "--param dir") ? "from " : "", strcmp(from, "--param dir") ? from : "",
		 strcmp(from, "--param dir") ? "; " : "");
	if (stat(base, &st) < 0)
		sb_die(code, "the directory for the test's files (%s) %s: %s", from, base, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		sb_die(code, "the directory for the test's files (%s) %s: not a directory", from, base);
	if ((e = writable(base)) != 0)
		sb_die(e == ENOSPC || e == EDQUOT ? SB_EXIT_ENV : code,
		       "the directory for the test's files (%s) %s: not writable: %s", from, base, strerror(e));
	if (&testcase_tmpdir_fs && testcase_tmpdir_fs && strcmp(fs = sb_os_fs_name(base), testcase_tmpdir_fs))
		sb_die(code, "%s is on %s, not %s, which this testcase measures (%s)",
		       base, fs, testcase_tmpdir_fs, hint);
	if (&testcase_tmpdir_o_direct && testcase_tmpdir_o_direct) {
		/* An unnamed file: nothing to remove, even if we are killed now. */
		fd = open(base, O_TMPFILE | O_RDWR | O_DIRECT, 0600);
		if (fd >= 0)
			close(fd);
		else if (errno == EINVAL)
			sb_die(code, "O_DIRECT not supported on %s at %s (%s)", sb_os_fs_name(base), base, hint);
		/* Other errors (no O_TMPFILE here): the run's own O_DIRECT open will tell. */
	}
}

const char *sb_tmpdir(void)
{
	const char *from, *base;

	if (path[0])
		return path;
	/* Only the runner can remove it at the end, so only the runner makes it
	 * (sb_tmpdir_make does, before testcase_prepare and any task). */
	if (getpid() != sb_runner_pid)
		sb_fatalx("internal: sb_tmpdir() has no directory in a task");
	base = base_dir(&from);
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

static const char *made(void)
{
	return path[0] ? path : NULL;
}

void sb_tmpdir_make(void)
{
	(void)sb_tmpdir();
}

/* The testcase's own default belongs in the `dir` parameter's help; a failure names the directory. */
__attribute__((constructor)) static void describe_dir(void)
{
	static char help[256];

	sb_api_set_fail_dir(made);
	if (&testcase_tmpdir_default && testcase_tmpdir_default) {
		snprintf(help, sizeof(help), "directory to create the test's files in "
			 "(default $SCALEBENCH_TMPDIR, else %s)", testcase_tmpdir_default);
		sb_param_dir.help = help;
	}
}
