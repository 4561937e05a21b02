/* sb-machine: the machine-wide sweep lock, the system check and --tune, for runtest.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lock.h"
#include "os.h"
#include "reference.h"
#include "safefile.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "syscheck.h"
#include "tune.h"
#include "util.h"

static const char usage_head[] =
	"usage: sb-machine [--as NAME] COMMAND [OPTIONS]\n"
	"  path                   the lock file's path ($SB_MACHINE_LOCK, else root's\n"
	"                         /run/scalebench/scalebench.lock, 0700 directory, or another user's\n"
	"                         scalebench-UID/scalebench.lock in /run/lock, /var/lock or /tmp), its\n"
	"                         directory and the file made and checked (exit 3: unsafe)\n"
	"  holder [--ours PID]    who holds the lock: exit 0 and one line (\"held, without a name\" for a\n"
	"                         process that wrote none), or exit 1 when nobody does\n"
	"  lock --fd N --pid P [--no-wait] [--quiet] [--test T] [--command C]\n"
	"                         take the lock on descriptor N (open on the lock file, inherited from\n"
	"                         the caller, which holds it from then on) for the sweep of pid P;\n"
	"                         waits for the sweep holding it, or exits 3 with --no-wait\n"
	"  clear --fd N           the holder's name cleared (the caller holds the lock on N)\n"
	"  check [--short] [--probe-ms MS]\n"
	"                         the system check: the full report, or its one-line short form\n"
	"  reference [--ms MS] [--slices N] [--short] [--series]\n"
	"                         the reference loop (a fixed user-space CPU loop): how steady the\n"
	"                         machine runs, in words and as meta's one line\n"
	"  tune SAVE              governor performance, turbo off, ASLR off; old values into SAVE\n"
	"                         (the lock's path with .tuned: no other file)\n"
	"  restore SAVE (--fd N | --with-lock)\n"
	"                         write back what SAVE holds, then remove it, only while holding the\n"
	"                         lock: on N (the caller's), or taken within 5 s (else left to the next\n"
	"                         sweep); only the settings tune makes, from a file of this user's\n"
	"Options:\n";
static const char usage_tail[] =
	"Exit: 0 done, 1 (holder) nobody, 2 usage, 3 environment (the lock is taken and\n"
	"--no-wait, a file cannot be written).\n";

/* Every command's options: one struct, one table; each command parses its slice of it. */
struct mopts {
	const char *as, *test, *command;
	long ours, fd, pid, probe_ms, ms, slices;
	int with_lock, no_wait, quiet, brief, series;
};

static __attribute__((noreturn)) void help(void);

static void version(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	(void)opts;
	(void)row;
	(void)arg;
	(void)value;
	printf("%s (scalebench) %s git %s\n", sb_prog, SB_VERSION, SB_GIT_REVISION);
	sb_flush_stdout();
	exit(SB_EXIT_OK);
}

#define AT(f) offsetof(struct mopts, f)
#define FLAG(n, f, h)		{ .name = n, .kind = SB_CLI_FLAG, .field = AT(f), .help = h }
#define TEXT(n, a, f, h)	{ .name = n, .arg = a, .kind = SB_CLI_STRING, .field = AT(f), .help = h }
#define NUMBER(n, a, f, l, u, h) { .name = n, .arg = a, .kind = SB_CLI_LONG, .field = AT(f), .lo = l, .hi = u, .help = h }

/* In --help's order, each command's options together (the slices below). An option: a row here, a
 * field in struct mopts, its consumer. */
static const struct sb_cli_opt table[] = {
	TEXT("as", "NAME", as, "before the command: prefix the messages with NAME (runtest.sh)"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_HELP, .help = "this text" },
	{ .name = "version", .kind = SB_CLI_CALL, .set = version, .help = "scalebench's version and git revision" },
	NUMBER("ours", "PID", ours, 1, 1L << 30,
	       "holder: exit 0 only when PID holds it and is an ancestor of the caller"),
	FLAG("with-lock", with_lock, "restore: with the lock taken within 5 s (else left to the next sweep)"),
	NUMBER("fd", "N", fd, 0, 1 << 20, "lock, clear, restore: the descriptor open on the lock file"),
	NUMBER("pid", "P", pid, 1, 1L << 30, "lock: the sweep's pid"),
	FLAG("no-wait", no_wait, "lock: exit 3 at once when another sweep holds it"),
	FLAG("quiet", quiet, "lock: no notes (the wait and a failure are still said)"),
	TEXT("test", "T", test, "lock: the testcase, in the holder's lines"),
	TEXT("command", "C", command, "lock: the sweep's command, in the holder's lines"),
	NUMBER("probe-ms", "MS", probe_ms, 1, 60000, "check: the probe's length (default 300, or $SB_MACHINE_PROBE_MS)"),
	FLAG("short", brief, "check, reference: the one-line short form"),
	NUMBER("ms", "MS", ms, 1, 3600000, "reference: the loop's length (default 5000)"),
	NUMBER("slices", "N", slices, 1, SB_REFERENCE_MAX_SLICES, "reference: in N slices (default 10)"),
	FLAG("series", series, "reference: each slice's rate too"),
};

/* a value's error (a number's): one line, as sb_parse_ll's */
static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	sb_die(SB_EXIT_USAGE, "%s", msg);
}

/* what: the command's message for an argument it does not take ("%s" the argument) */
static __attribute__((noreturn)) void unknown(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)optopt;
	sb_usage_error(c->what, typed);
}

static __attribute__((noreturn)) void missing(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)c;
	(void)optopt;
	sb_usage_error("%s needs a value", typed);
}

#define CLI(first, n, msg, miss) { .opts = table + (first), .nopts = (n), .what = (msg), .dash_dash_unknown = 1, \
	.bad_number = "%s: '%s' is out of range (%ld..%ld)", .not_number = "%s: '%s' is not a whole number", \
	.usage_error = cli_error, .unknown = unknown, .missing = (miss), .help = help }
static const struct sb_cli all_cli = CLI(0, sizeof(table) / sizeof(table[0]), "", missing);
static const struct sb_cli main_cli = CLI(0, 3, "unknown command or wrong arguments: '%s' (see sb-machine --help)", unknown);
static const struct sb_cli holder_cli = CLI(3, 1, "holder takes no argument but --ours PID", unknown);
static const struct sb_cli restore_cli = CLI(4, 2, "restore: unknown arguments (SAVE --fd N, or SAVE --with-lock)", unknown);
static const struct sb_cli clear_cli = CLI(5, 1, "clear needs --fd N", unknown);
static const struct sb_cli lock_cli = CLI(5, 6, "lock: unknown argument '%s'", missing);
static const struct sb_cli check_cli = CLI(11, 2, "check: unknown argument '%s'", missing);
static const struct sb_cli reference_cli = CLI(12, 4, "reference: unknown argument or missing value: '%s'", unknown);

static __attribute__((noreturn)) void help(void)
{
	fputs(usage_head, stdout);
	sb_cli_list(&all_cli, stdout);
	fputs(usage_tail, stdout);
	sb_flush_stdout();
	exit(SB_EXIT_OK);
}

/* A command's options, argv[from] on, by its slice of the table (no operand). */
static void parse(const struct sb_cli *cli, int argc, char **argv, int from, struct mopts *o)
{
	sb_cli_scan(cli, argc - from, argv + from, o, NULL);
}

static void utc_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* 1 when fd's file is empty or a holder's lines ("pid=..."): a file a typo names is never emptied. */
static int lock_content(int fd)
{
	char head[4];
	ssize_t n = pread(fd, head, sizeof(head), 0);

	return n == 0 || (n == 4 && memcmp(head, "pid=", 4) == 0);
}

/*
 * The lock file, checked: its directory only this user (or root) can create
 * files in, the file itself this user's, regular, not a link; made when
 * missing. A descriptor open read-only, or exit 3 naming what is wrong (an
 * existing file is never changed then).
 */
static int open_lock(const char *path)
{
	char dir[4096], why[512];
	const char *env = getenv("SB_MACHINE_LOCK");
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	if ((env && *env ? sb_safe_parent(path, why, sizeof(why)) : sb_safe_dir(dir, why, sizeof(why))) < 0)
		sb_die(SB_EXIT_ENV, "refusing the machine lock %s: %s", path, why);
	fd = sb_safe_open(path, O_RDONLY, 1, NULL, why, sizeof(why));
	if (fd < 0)
		sb_die(SB_EXIT_ENV, "refusing the machine lock %s: %s%s", path, why,
		       env && *env ? " (SB_MACHINE_LOCK names a file that is not this sweep's to use)" : "");
	if (!lock_content(fd))
		sb_die(SB_EXIT_ENV, "refusing the machine lock %s: it holds something else than a holder's lines "
		       "(SB_MACHINE_LOCK names another file?): left as it is", path);
	return fd;
}

/* Descriptor fd (the caller's) is the checked lock file at path, or exit 3. */
static void check_lock_fd(int fd, const char *path)
{
	char why[512];

	if (sb_safe_fd(fd, why, sizeof(why)) < 0)
		sb_die(SB_EXIT_ENV, "refusing the machine lock %s: %s", path, why);
	if (!sb_safe_same(fd, path))
		sb_die(SB_EXIT_ENV, "refusing the machine lock %s: the descriptor is not that file (replaced?)", path);
}

/* The holder's lines replace the file's content: only in the checked file the caller holds locked. */
static void write_holder(int fd, const char *path, const char *text)
{
	char why[512];
	int w = sb_safe_open(path, O_WRONLY, 0, NULL, why, sizeof(why));
	size_t n = strlen(text);

	if (w < 0 || !sb_safe_same(fd, path) || !sb_safe_same(w, path)) {
		if (w >= 0)
			close(w);
		return;	/* the lock holds; only the name is missing */
	}
	if (ftruncate(w, 0) < 0 || (n && pwrite(w, text, n, 0) != (ssize_t)n))
		sb_warn("warning: cannot write the holder's name into the lock file: %s", strerror(errno));
	close(w);
}

static void write_holder_lines(int fd, const char *path, long pid, const char *test, const char *command)
{
	char buf[2048], start[64];
	int n;

	utc_now(start, sizeof(start));
	n = snprintf(buf, sizeof(buf), "pid=%ld\ntest=%s\nstart=%s\ncommand=%s\n", pid, test, start, command);
	if (n >= (int)sizeof(buf))
		buf[sizeof(buf) - 2] = '\n';
	write_holder(fd, path, buf);
}

/*
 * The lock without waiting; 0, or -1 with errno. A lock that names no holder
 * is tried again for 100 ms: a runner looking whether a sweep holds the
 * machine holds it for an instant, and a sweep writes its name just
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

static int cmd_lock(struct mopts *o)
{
	long fd = o->fd, pid = o->pid;
	int no_wait = o->no_wait, quiet = o->quiet;
	const char *test = o->test, *command = o->command;
	struct sb_lock_holder h;
	char who[1400], path[4096];

	if (fd < 0 || pid <= 0)
		sb_usage_error("lock needs --fd N and --pid P");
	/* Waiting in the background of a sweep that is interrupted: go with it. */
	sb_os_die_with_parent(getppid());
	sb_lock_path(path, sizeof(path));
	check_lock_fd((int)fd, path);
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
	write_holder_lines((int)fd, path, pid, test, command);
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
	char why[512];
	int fd = sb_safe_open(sb_lock_path(path, sizeof(path)), O_RDONLY, 0, NULL, why, sizeof(why));

	if (fd < 0) {
		if (errno != ENOENT)
			sb_warn("warning: not restoring: the machine lock %s: %s", path, why);
		return 0;	/* no lock file: nobody can have saved settings under it */
	}
	for (int i = 0; i < 100; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 1;
		nanosleep(&pause, NULL);
	}
	close(fd);
	return 0;
}

static int cmd_check(struct mopts *o)
{
	int full = !o->brief, probe_ms = 300, busy;
	char msg[512];

	/* $SB_MACHINE_PROBE_MS: the probe's length when --probe-ms is not given (a sweep's short check) */
	if (getenv("SB_MACHINE_PROBE_MS"))
		probe_ms = (int)sb_parse_ll("SB_MACHINE_PROBE_MS", getenv("SB_MACHINE_PROBE_MS"), 1, 60000);
	if (o->probe_ms > 0)
		probe_ms = (int)o->probe_ms;
	sb_syscheck(stdout, full, probe_ms, &busy, msg, sizeof(msg));
	sb_flush_stdout();
	if (busy)
		sb_warn("warning: %s", msg);
	return SB_EXIT_OK;
}

/* 1 when pid is this process's parent or an ancestor of it (Linux's /proc; elsewhere never). */
static int is_ancestor(long pid)
{
	long p = (long)getppid();

	for (int depth = 0; depth < 64 && p > 1; depth++) {
		char path[64], buf[512], *close_paren;
		long ppid;
		FILE *f;
		size_t n;

		if (p == pid)
			return 1;
		snprintf(path, sizeof(path), "/proc/%ld/stat", p);
		if (!(f = fopen(path, "re")))
			return 0;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* "pid (comm) state ppid ...": comm may hold anything, so from its last ')' */
		if (!(close_paren = strrchr(buf, ')')) || sscanf(close_paren + 1, " %*c %ld", &ppid) != 1)
			return 0;
		p = ppid;
	}
	return 0;
}

static int cmd_holder(const struct mopts *o)
{
	struct sb_lock_holder h;
	char who[1400];
	long ours = o->ours;

	if (!sb_lock_held(&h))
		return SB_EXIT_FAIL;
	if (ours && (h.pid != ours || !is_ancestor(ours)))
		return SB_EXIT_FAIL;
	/* held (shared or not) by a process that wrote no holder's lines: held all the same */
	printf("%s\n", h.pid > 0 ? sb_lock_describe(&h, who, sizeof(who)) : "held, without a name");
	sb_flush_stdout();
	return SB_EXIT_OK;
}

/* --fd N (the caller's descriptor on the lock file, checked), or -1 when absent. */
static int fd_arg(const struct mopts *o, const char *path)
{
	if (o->fd < 0)
		return -1;
	check_lock_fd((int)o->fd, path);
	return (int)o->fd;
}

/* The saved settings live beside the lock, in its checked directory, and nowhere else. */
static void check_save(const char *save, const char *path)
{
	char want[4200];

	snprintf(want, sizeof(want), "%s.tuned", path);
	if (strcmp(save, want) != 0)
		sb_usage_error("the saved settings are the lock's %s, not %s", want, save);
}

static int cmd_restore(int argc, char **argv, const char *path, struct mopts *o)
{
	int fd;

	if (argc < 4)
		sb_usage_error("restore SAVE needs --fd N or --with-lock: it restores only while holding the lock");
	check_save(argv[2], path);
	parse(&restore_cli, argc, argv, 3, o);
	if (o->with_lock && o->fd < 0) {
		if (!lock_briefly())
			return SB_EXIT_OK;	/* a sweep holds it: it restores a file it finds before it tunes */
	} else if (o->with_lock || (fd = fd_arg(o, path)) < 0) {
		sb_usage_error("restore: unknown arguments (SAVE --fd N, or SAVE --with-lock)");
	} else if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		/* the caller's description holds it, so this succeeds; else another sweep does */
		sb_die(SB_EXIT_ENV, "not restoring %s: this sweep does not hold the lock %s", argv[2], path);
	}
	if (sb_tune_restore(argv[2]) < 0) {
		sb_flush_stdout();
		return SB_EXIT_ENV;
	}
	sb_flush_stdout();
	return SB_EXIT_OK;
}

static int cmd_clear(const struct mopts *o, const char *path)
{
	int fd = fd_arg(o, path);

	if (fd < 0)
		sb_usage_error("clear needs --fd N");
	write_holder(fd, path, "");
	return SB_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct mopts o = { .test = "", .command = "", .fd = -1, .ms = 5000, .slices = 10 };
	struct sb_cli_scan s;
	const char *cmd;
	char path[4096];

	sb_util_init(argv[0]);
	/* the options before the command: --as NAME, --help, --version */
	sb_cli_scan_init(&s, argc, argv);
	s.i = 1;
	while (sb_cli_next(&main_cli, &s, &o) == SB_CLI_OPTION)
		if (o.as)
			sb_prog = o.as;
	if (s.first >= argc)
		sb_usage_error("a command is needed: path, holder, lock, clear, check, reference, tune or restore");
	argv += s.first - 1;
	argc -= s.first - 1;
	cmd = argv[1];
	sb_lock_path(path, sizeof(path));
	if (strcmp(cmd, "path") == 0 && argc == 2) {
		close(open_lock(path));
		printf("%s\n", path);
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "holder") == 0) {
		parse(&holder_cli, argc, argv, 2, &o);
		return cmd_holder(&o);
	}
	if (strcmp(cmd, "lock") == 0) {
		parse(&lock_cli, argc, argv, 2, &o);
		return cmd_lock(&o);
	}
	if (strcmp(cmd, "clear") == 0) {
		parse(&clear_cli, argc, argv, 2, &o);
		return cmd_clear(&o, path);
	}
	if (strcmp(cmd, "check") == 0) {
		parse(&check_cli, argc, argv, 2, &o);
		return cmd_check(&o);
	}
	if (strcmp(cmd, "reference") == 0) {
		parse(&reference_cli, argc, argv, 2, &o);
		return sb_reference_cmd(o.ms, o.slices, o.brief, o.series);
	}
	if (strcmp(cmd, "tune") == 0 && argc == 3) {
		check_save(argv[2], path);
		close(open_lock(path));	/* its directory made and checked */
		if (sb_tune_apply(argv[2]) < 0)
			sb_die(SB_EXIT_ENV, "--tune: cannot save the current settings into %s: %s", argv[2], strerror(errno));
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (strcmp(cmd, "restore") == 0 && argc >= 3) {
		return cmd_restore(argc, argv, path, &o);
	}
	sb_usage_error("unknown command or wrong arguments: '%s' (see sb-machine --help)", cmd);
}
