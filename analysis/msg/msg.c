/* Messages of the analysis tools: "prog: ..." on stderr and exit, or into a caller's buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "msg.h"

static const char *prog = "sb";
static const char *remove_path;

void sb_msg_prog(const char *name)
{
	prog = name;
}

void sb_msg_remove_on_die(const char *path)
{
	remove_path = path;
}

void sb_die(int code, const char *fmt, ...)
{
	va_list ap;

	if (remove_path)
		unlink(remove_path);
	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

void sb_usage_die(const char *hint, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s)\n", hint);
	exit(SB_EXIT_USAGE);
}

int sb_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}
