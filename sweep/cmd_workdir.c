/* sb-workdir: runtest.sh's working directory and its janitor: makes it, removes dead sweeps' ones, cleans up after runtest.sh however it ends; and the bounded wait for a child it stops. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "janitor.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "util.h"

#define STALE_EMPTY_S 600	/* a directory killed before its owners file: removed when empty this long */
#define POLL_MS 50

/* the signals that interrupt runtest.sh (its SIGNALS): the janitor outlives them by design */
static const int deaf[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
			    SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* process pid's field n (1-based) of /proc/PID/stat, after its name; 0 where /proc cannot tell */
static int stat_field(long pid, int n, char *buf, size_t size)
{
	char path[64], line[1024];
	const char *p;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok || (p = strrchr(line, ')')) == NULL)
		return 0;
	for (int field = 2; field < n; field++) {	/* (the name may hold anything) */
		p += strspn(p, " ");
		p += strcspn(p, " \n");
		if (*p == '\0' || *p == '\n')
			return 0;
	}
	p += strspn(p, " ");
	snprintf(buf, size, "%.*s", (int)strcspn(p, " \n"), p);
	return 1;
}

/* its start time in clock ticks since boot: with the pid, it names one process for good; "-": unknown */
static void proc_start(long pid, char *buf, size_t size)
{
	if (!stat_field(pid, 22, buf, size))
		snprintf(buf, size, "-");
}

/* 1 when that process provably no longer exists */
static int gone(long pid, const char *start)
{
	struct stat st;
	char path[64], now[32];

	if (stat("/proc/self", &st) != 0)
		return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (stat(path, &st) != 0)
		return 1;
	proc_start(pid, now, sizeof(now));
	return strcmp(start, "-") != 0 && strcmp(now, start) != 0;
}

static int is_empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (d == NULL)
		return 0;
	while (empty && (e = readdir(d)) != NULL)
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/* Working directories of earlier sweeps killed with their janitor (SIGKILL of the whole
 * process group): only this user's real directories (no link followed), whose owners file
 * names a runtest.sh and a janitor both provably gone. Anything else is left alone. */
static void remove_stale(const char *parent, const char *mine)
{
	DIR *d = opendir(parent);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char dir[PATH_MAX], owners[PATH_MAX + 8], s_start[32], j_start[32], line[256];
		long sweep, jan;
		struct stat st;
		FILE *f;

		if (strncmp(e->d_name, "runtest.", 8) != 0 || strlen(e->d_name) != 14)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", parent, e->d_name);
		if (strcmp(dir, mine) == 0 || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
			continue;
		snprintf(owners, sizeof(owners), "%s/owners", dir);
		if (lstat(owners, &st) != 0) {
			/* killed between mkdtemp and its owners file: empty, and 10 minutes old (a live
			 * sweep writes the file at once); rmdir removes nothing else */
			if (errno == ENOENT && lstat(dir, &st) == 0 && time(NULL) - st.st_mtime > STALE_EMPTY_S &&
			    is_empty_dir(dir))
				(void)rmdir(dir);
			continue;
		}
		if (!S_ISREG(st.st_mode) || st.st_uid != getuid() || (f = fopen(owners, "r")) == NULL)
			continue;
		if (fgets(line, sizeof(line), f) != NULL &&
		    sscanf(line, "%ld %31s %ld %31s", &sweep, s_start, &jan, j_start) == 4 && sweep > 0 && jan > 0 &&
		    gone(sweep, s_start) && gone(jan, j_start))
			sb_remove_tree(dir);
		fclose(f);
	}
	closedir(d);
}

/* the first n lines of dir/name into lines[] (each of PATH_MAX); 0 when the file has fewer */
static int read_lines(const char *dir, const char *name, char lines[][PATH_MAX], int n)
{
	char path[PATH_MAX + 16];
	FILE *f;
	int i = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	for (; i < n && fgets(lines[i], PATH_MAX, f) != NULL; i++)
		lines[i][strcspn(lines[i], "\n")] = '\0';
	fclose(f);
	return i == n;
}

/* run a command to its end, its output to /dev/null (as ours is) */
static void run(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/* a process that has had SIGTERM: waited for at most grace_ms, then SIGKILLed (1) */
static int stop(long pid, long grace_ms)
{
	char state[8];

	for (long waited = 0; waited < grace_ms; waited += POLL_MS) {
		/* gone, or dead and not yet reaped (its parent may reap late) */
		if (kill((pid_t)pid, 0) < 0 || (stat_field(pid, 3, state, sizeof(state)) && state[0] == 'Z'))
			return 0;
		sleep_ms(POLL_MS);
	}
	return kill((pid_t)pid, SIGKILL) == 0;
}

/* the runner at work: SIGTERM, then SIGKILL after the grace (a testcase_prepare that
 * blocks every signal would outlive us otherwise) */
static void stop_runner(const char *made, long grace_ms)
{
	char line[1][PATH_MAX];
	long pid;

	if (read_lines(made, "child", line, 1) && (pid = strtol(line[0], NULL, 10)) > 0 && kill((pid_t)pid, SIGTERM) == 0)
		(void)stop(pid, grace_ms);
}

/* sb-workdir --stop PID GRACE_MS WHAT: runtest.sh's stop_child, for a child it sent SIGTERM:
 * never a wait without a limit (a runner whose testcase_prepare waits for a server, blind to
 * the signal, would hold the sweep for good); the warning when it had to SIGKILL */
static int stop_child(char **argv)
{
	long pid = sb_parse_ll("PID", argv[0], 1, INT_MAX), grace_ms = sb_parse_ll("GRACE_MS", argv[1], 0, 3600000);
	char s[32];
	int n;

	if (stop(pid, grace_ms)) {
		n = snprintf(s, sizeof(s), "%ld.%03ld", grace_ms / 1000, grace_ms % 1000);
		while (s[n - 1] == '0')
			s[--n] = '\0';
		if (s[n - 1] == '.')
			s[n - 1] = '\0';
		printf("warning: %s (pid %ld) had not stopped %s s after SIGTERM: killed\n", argv[2], pid, s);
	}
	sb_flush_stdout();
	return SB_EXIT_OK;
}

/* After runtest.sh, however it ended: the runner stopped, the results probe removed, --tune's
 * settings back (once runtest.sh's lock is free), a run whose meta still says running marked
 * interrupted (sb-rundir), the directory removed. */
static void clean_up(const char *made, long grace_ms)
{
	char l[2][PATH_MAX];

	stop_runner(made, grace_ms);
	if (read_lines(made, "probe", l, 1))
		(void)unlink(l[0]);
	if (read_lines(made, "tuned", l, 2))
		run((char *const[]){ l[0], "restore", l[1], "--with-lock", NULL });
	if (read_lines(made, "active", l, 2))
		run((char *const[]){ l[0], "status", l[1], "interrupted", "--if", "running", NULL });
	sb_remove_tree(made);
}

/* sb-workdir DIR SWEEP_PID GRACE_MS: makes DIR/runtest.XXXXXX (so that no moment exists when
 * it is there and nobody will remove it), says "ok PATH" (or "err MESSAGE"), then reads its
 * standard input, a pipe only runtest.sh writes, to its end, and cleans up. */
int main(int argc, char **argv)
{
	char made[PATH_MAX], owners[PATH_MAX + 8], s_start[32], j_start[32], buf[512];
	long sweep, grace_ms;
	int null;
	FILE *f;

	sb_util_init(argv[0]);
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("sb-workdir (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		return SB_EXIT_OK;
	}
	if (argc == 5 && strcmp(argv[1], "--stop") == 0)
		return stop_child(argv + 2);
	if (argc != 4)
		sb_usage_error("usage: sb-workdir DIR SWEEP_PID GRACE_MS | --stop PID GRACE_MS WHAT");
	sweep = sb_parse_ll("SWEEP_PID", argv[2], 1, INT_MAX);
	grace_ms = sb_parse_ll("GRACE_MS", argv[3], 0, 3600000);
	for (size_t i = 0; i < sizeof(deaf) / sizeof(deaf[0]); i++)
		signal(deaf[i], SIG_IGN);
	snprintf(made, sizeof(made), "%s/runtest.XXXXXX", argv[1]);
	if (mkdtemp(made) == NULL) {
		printf("err %s\n", strerror(errno));
		return SB_EXIT_OK;
	}
	/* who owns it, for a later sweep that finds it after a SIGKILL of us both (remove_stale) */
	proc_start(sweep, s_start, sizeof(s_start));
	proc_start(getpid(), j_start, sizeof(j_start));
	snprintf(owners, sizeof(owners), "%s/owners", made);
	if ((f = fopen(owners, "w")) != NULL) {
		int bad = fprintf(f, "%ld %s %ld %s\n", sweep, s_start, (long)getpid(), j_start) < 0;

		if (fclose(f) != 0 || bad)
			f = NULL;
	}
	if (f == NULL) {
		int e = errno;	/* a full TMPDIR: its reason, not a silent end */

		sb_remove_tree(made);
		printf("err %s\n", strerror(e));
		return SB_EXIT_OK;
	}
	remove_stale(argv[1], made);
	printf("ok %s\n", made);
	fflush(stdout);
	if ((null = open("/dev/null", O_RDWR)) >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	clean_up(made, grace_ms);
	return SB_EXIT_OK;
}
