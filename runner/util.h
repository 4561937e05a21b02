/* Exit codes, messages, strict numbers, and the one way out of a runner process. */
#ifndef SCALEBENCH_UTIL_H
#define SCALEBENCH_UTIL_H

#include <sys/types.h>

enum {
	SB_EXIT_OK = 0,
	SB_EXIT_FAIL = 1,	/* the measurement failed */
	SB_EXIT_USAGE = 2,	/* usage or input error */
	SB_EXIT_ENV = 3,	/* missing dependency, resource limit */
	SB_EXIT_INTR = 130,	/* SIGINT or SIGTERM */
};

extern const char *sb_prog;	/* basename of argv[0], prefixes every message */
extern pid_t sb_runner_pid;	/* the parent: only it cleans up */

void sb_util_init(const char *argv0);

/* "prog: message" on stderr, then sb_exit(code). */
void sb_die(int code, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* A malformed command line: "prog: message", "try 'prog --help'", exit 2. */
void sb_usage_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void sb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flush stdout; exit 3 if anything written to it was lost. */
void sb_flush_stdout(void);

/*
 * Leave the process with code. In the runner, first the finish step that
 * sb_exit_through named (run.c's, which alone knows what to undo and in
 * which order); in a task, at once.
 */
void sb_exit(int code) __attribute__((noreturn));
void sb_exit_through(void (*finish)(void));

/* ENOSPC, EDQUOT, EMFILE, ENFILE: a failure of the environment (exit 3), not of the measurement. */
int sb_errno_is_env(int e);

/* Strict numbers: the whole string, in [min, max], or exit 2 naming opt. */
long long sb_parse_ll(const char *opt, const char *s, long long min, long long max);

#endif
