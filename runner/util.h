/* Exit codes, error messages and exit-time cleanup for the runner process. */
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
extern pid_t sb_runner_pid;	/* the parent: only it runs cleanups */

void sb_util_init(const char *argv0);

/* "prog: message" on stderr, then sb_exit(code). */
void sb_die(int code, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
void sb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Leave the runner: kill and reap the tasks, run testcase_cleanup if
 * testcase_prepare ran, then the registered hooks (newest first). In any
 * process other than the runner it only _exits.
 */
void sb_exit(int code) __attribute__((noreturn));
void sb_at_exit(void (*fn)(void));
extern void (*sb_exit_kill_tasks)(void);
extern int sb_prepared;
/* Set by modules that need the runner to act before testcase_prepare. */
extern void (*sb_before_prepare)(void);

/* Strict numbers: the whole string, in [min, max], or exit 2 naming opt. */
long long sb_parse_ll(const char *opt, const char *s, long long min, long long max);

#endif
