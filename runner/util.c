/* Exit codes, messages, strict numbers, and the one way out of a runner process. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

const char *sb_prog = "scalebench";
pid_t sb_runner_pid;

static void (*finish_step)(void);

void sb_util_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	sb_prog = slash ? slash + 1 : argv0;
	sb_runner_pid = getpid();
}

void sb_exit_through(void (*finish)(void))
{
	finish_step = finish;
}

void sb_exit(int code)
{
	if (getpid() != sb_runner_pid)
		_exit(code);
	if (finish_step)
		finish_step();
	fflush(stdout);
	_exit(code);
}

static void vsay(const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s: %s\n", sb_prog, buf);
}

void sb_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	sb_exit(code);
}

void sb_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	fprintf(stderr, "try '%s --help'\n", sb_prog);
	sb_exit(SB_EXIT_USAGE);
}

void sb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void sb_flush_stdout(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		e = errno;
		sb_die(SB_EXIT_ENV, "writing the output failed%s%s", e ? ": " : "", e ? strerror(e) : "");
	}
}

int sb_errno_is_env(int e)
{
	/* no room, or a limit on open files (RLIMIT_NOFILE, the system's table) */
	return e == ENOSPC || e == EDQUOT || e == EMFILE || e == ENFILE;
}

long long sb_parse_ll(const char *opt, const char *s, long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		sb_die(SB_EXIT_USAGE, "%s: '%s' is not a whole number", opt, s);
	if (errno == ERANGE || v < min || v > max)
		sb_die(SB_EXIT_USAGE, "%s: '%s' is out of range (%lld..%lld)", opt, s, min, max);
	return v;
}
