/* Messages of the analysis tools: "prog: ..." on stderr and exit, or into a caller's buffer. */
#ifndef SCALEBENCH_MSG_H
#define SCALEBENCH_MSG_H

#include <stddef.h>

#include "exit.h"

/* The tool's name that sb_die's messages start with ("sb-summary"). */
void sb_msg_prog(const char *prog);

/* A file sb_die removes before it exits (a half-written output); NULL: none. */
void sb_msg_remove_on_die(const char *path);

/* "prog: MESSAGE" on stderr (after what stdout holds), then exit(code). */
void sb_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* A usage error: "prog: MESSAGE (HINT)" on stderr, then exit(SB_EXIT_USAGE). */
void sb_usage_die(const char *hint, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* The message into err[errlen]; returns code (for "return sb_fail(...)"). */
int sb_fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
