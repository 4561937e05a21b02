/* sb-machine: the machine-wide sweep lock, the system check and --tune, for runtest.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lock.h"
#include "os.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "syscheck.h"
#include "tune.h"
#include "util.h"

static const char usage_text[] =
	"usage: sb-machine [--as NAME] COMMAND\n"
	"  path                   the lock file's path ($SB_MACHINE_LOCK, else scalebench.lock in\n"
	"                         /run/lock, /var/lock or /tmp)\n"
	"  holder                 who holds the lock: exit 0 and one line, or exit 1 when nobody does\n"
	"  lock --fd N --pid P [--no-wait] [--quiet] [--test T] [--command C]\n"
	"                         take the lock on descriptor N (open on the lock file, inherited from\n"
	"                         the caller, which holds it from then on) for the sweep of pid P;\n"
	"                         waits for the sweep holding it, or exits 3 with --no-wait;\n"
	"                         --quiet: no notes (the wait and a failure are still said)\n"
	"  check [--short] [--probe-ms MS]\n"
	"                         the system check: the full report, or its one-line short form\n"
	"  tune SAVE              governor performance, turbo off, ASLR off; old values into SAVE\n"
	"  restore SAVE [--with-lock]\n"
	"                         write back what SAVE holds, then remove it; --with-lock: only while\n"
	"                         holding the lock (taken within 5 s, else left to the next sweep)\n"
	"--as NAME prefixes the messages with NAME (runtest.sh). Exit: 0 done, 1 (holder) nobody,\n"
	"2 usage, 3 environment (the lock is taken and --no-wait, a file cannot be written).\n";

static const char *arg_value(int *i, int argc, char **argv)
{
	if (*i + 1 >= argc)
		sb_usage_error("%s needs a value", argv[*i]);
	return argv[++*i];
}

static void utc_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The holder's lines, replacing the file's content (readers tolerate a moment of emptiness). */
static void write_holder(int fd, long pid, const char *test, const char *command)
{
	char buf[2048], start[64];
	int n;

	utc_now(start, sizeof(start));
	n = snprintf(buf, sizeof(buf), "pid=%ld\ntest=%s\nstart=%s\ncommand=%s\n", pid, test, start, command);
	if (n < 0 || ftruncate(fd, 0) < 0)
		return;	/* a read-only lock file (another user's): the lock holds, only the name is missing */
	if (n >= (int)sizeof(buf))
		n = (int)sizeof(buf) - 1;
	if (pwrite(fd, buf, (size_t)n, 0) != n)
		sb_warn("warning: cannot write the holder's name into the lock file: %s", strerror(errno));
	/* Everyone may take it next: a lock file made by root must not lock other users out. */
	fchmod(fd, 0666);
}

/*
 * The lock without waiting; 0, or -1 with errno. A lock that names no holder
 * is tried again for 100 ms: a runner looking whether a sweep holds the
 * machine holds it shared for an instant, and a sweep writes its name just
 * after it takes it.
 */
static int try_lock(int fd)
{
	struct timespec pause = { 0, 5 * 1000000L };
	struct sb_lock_holder h;

	for (int i = 0; i < 20; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK || sb_lock_read_holder(fd, &h) == 0)
			break;
		nanosleep(&pause, NULL);
	}
	return flock(fd, LOCK_EX | LOCK_NB);
}

static int cmd_lock(int argc, char **argv)
{
	long fd = -1, pid = 0;
	int no_wait = 0, quiet = 0;
	const char *test = "", *command = "";
	struct sb_lock_holder h;
	char who[1400], path[4096];

	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--fd") == 0)
			fd = sb_parse_ll("--fd", arg_value(&i, argc, argv), 0, 1 << 20);
		else if (strcmp(argv[i], "--pid") == 0)
			pid = sb_parse_ll("--pid", arg_value(&i, argc, argv), 1, 1L << 30);
		else if (strcmp(argv[i], "--no-wait") == 0)
			no_wait = 1;
		else if (strcmp(argv[i], "--quiet") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "--test") == 0)
			test = arg_value(&i, argc, argv);
		else if (strcmp(argv[i], "--command") == 0)
			command = arg_value(&i, argc, argv);
		else
			sb_usage_error("lock: unknown argument '%s'", argv[i]);
	}
	if (fd < 0 || pid <= 0)
		sb_usage_error("lock needs --fd N and --pid P");
	/* Waiting in the background of a sweep that is interrupted: go with it. */
	sb_os_die_with_parent(getppid());
	sb_lock_path(path, sizeof(path));
	if (try_lock((int)fd) < 0) {
		if (errno != EWOULDBLOCK)
			sb_die(SB_EXIT_ENV, "cannot lock %s: %s", path, strerror(errno));
		sb_lock_read_holder((int)fd, &h);
		sb_lock_describe(&h, who, sizeof(who));
		if (no_wait)
			sb_die(SB_EXIT_ENV, "another sweep holds this machine, %s (--no-wait; lock %s)", who, path);
		sb_warn("waiting for the sweep %s to finish: one sweep at a time on a machine (lock %s; --no-wait fails instead)",
			who, path);
		while (flock((int)fd, LOCK_EX) < 0)
			if (errno != EINTR)
				sb_die(SB_EXIT_ENV, "cannot lock %s: %s", path, strerror(errno));
		if (!quiet)
			sb_warn("the machine is free: sweeping");
	}
	/* A holder that released the lock cleared its name: a name left is a sweep that died holding it. */
	if (!quiet && sb_lock_read_holder((int)fd, &h) == 0 && h.pid != pid)
		sb_warn("note: took over the machine lock of %s, which ended without releasing it (killed, or a reboot)",
			sb_lock_describe(&h, who, sizeof(who)));
	write_holder((int)fd, pid, test, command);
	return SB_EXIT_OK;
}

/*
 * The lock for this process, tried for up to 5 s (a killed sweep's runner may
 * still hold the descriptor it inherited for a moment); 1 when taken. The
 * kernel releases it when we exit.
 */
static int lock_briefly(void)
{
	char path[4096];
	struct timespec pause = { 0, 50 * 1000000L };
	int fd = open(sb_lock_path(path, sizeof(path)), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT;
	for (int i = 0; i < 100; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 1;
		nanosleep(&pause, NULL);
	}
	close(fd);
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	int full = 1, probe_ms = 300, busy;
	char msg[512];

	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--short") == 0)
			full = 0;
		else if (strcmp(argv[i], "--probe-ms") == 0)
			probe_ms = (int)sb_parse_ll("--probe-ms", arg_value(&i, argc, argv), 1, 60000);
		else
			sb_usage_error("check: unknown argument '%s'", argv[i]);
	}
	sb_syscheck(stdout, full, probe_ms, &busy, msg, sizeof(msg));
	sb_flush_stdout();
	if (busy)
		sb_warn("warning: %s", msg);
	return SB_EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *cmd;

	sb_util_init(argv[0]);
	if (argc > 2 && strcmp(argv[1], "--as") == 0) {
		sb_prog = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		sb_usage_error("a command is needed: path, holder, lock, check, tune or restore");
	cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		fputs(usage_text, stdout);
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("%s (scalebench) %s git %s\n", sb_prog, SB_VERSION, SB_GIT_REVISION);
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "path") == 0 && argc == 2) {
		char path[4096];

		printf("%s\n", sb_lock_path(path, sizeof(path)));
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "holder") == 0 && argc == 2) {
		struct sb_lock_holder h;
		char who[1400];

		if (!sb_lock_held(&h))
			return SB_EXIT_FAIL;
		printf("%s\n", sb_lock_describe(&h, who, sizeof(who)));
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "lock") == 0)
		return cmd_lock(argc, argv);
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc, argv);
	if (strcmp(cmd, "tune") == 0 && argc == 3) {
		if (sb_tune_apply(argv[2]) < 0)
			sb_die(SB_EXIT_ENV, "--tune: cannot save the current settings into %s: %s", argv[2], strerror(errno));
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "restore") == 0 && (argc == 3 || (argc == 4 && strcmp(argv[3], "--with-lock") == 0))) {
		int rc;

		if (argc == 4 && !lock_briefly())
			return SB_EXIT_OK;	/* a sweep holds it: it restores a file it finds before it tunes */
		rc = sb_tune_restore(argv[2]);

		sb_flush_stdout();
		return rc < 0 ? SB_EXIT_ENV : SB_EXIT_OK;
	}
	sb_usage_error("unknown command or wrong arguments: '%s' (see sb-machine --help)", cmd);
}
