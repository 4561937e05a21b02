/* Exit codes, error messages and exit-time cleanup for the runner process. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testcase.h"
#include "util.h"

const char *sb_prog = "scalebench";
pid_t sb_runner_pid;
void (*sb_exit_kill_tasks)(void);
int sb_prepared;
void (*sb_before_prepare)(void);

#define MAX_HOOKS 8
static void (*hooks[MAX_HOOKS])(void);
static int nhooks;

extern void testcase_cleanup(void) __attribute__((weak));

void sb_util_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	sb_prog = slash ? slash + 1 : argv0;
	sb_runner_pid = getpid();
}

void sb_at_exit(void (*fn)(void))
{
	if (nhooks == MAX_HOOKS)
		sb_die(SB_EXIT_FAIL, "internal: too many exit hooks");
	hooks[nhooks++] = fn;
}

void sb_exit(int code)
{
	static int exiting;

	if (getpid() != sb_runner_pid)
		_exit(code);
	/* A failure inside a cleanup step must not run that step again. */
	if (exiting++ == 0 && sb_exit_kill_tasks)
		sb_exit_kill_tasks();
	if (exiting == 1 && sb_prepared && testcase_cleanup) {
		sb_prepared = 0;
		testcase_cleanup();
	}
	while (nhooks > 0)
		hooks[--nhooks]();
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

void sb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
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
