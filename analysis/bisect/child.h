/* A bisect's children (the build, runtest.sh): run one, pass a signal on, never wait on it without a limit. */
#ifndef SCALEBENCH_BISECT_CHILD_H
#define SCALEBENCH_BISECT_CHILD_H

#include <stddef.h>

/*
 * Catch the signals runtest.sh handles (INT TERM HUP QUIT USR1 USR2 ALRM PIPE
 * VTALRM PROF XCPU XFSZ): the first is passed to the running child as SIGTERM.
 */
void sb_child_signals(void);

/* The signal that arrived (0: none). */
int sb_child_interrupted(void);

/*
 * Run argv (PATH search) with env[] ("NAME=VALUE", NULL-terminated; NULL:
 * none) added to the environment; its stdout into *out (malloc'd, NUL
 * terminated) when out is not NULL, else ours; stderr ours. After a signal
 * the child has grace_s seconds to end, then SIGKILL. Returns its exit
 * status, 128 + the signal that killed it, or -1 (errno) when it could not
 * be started.
 */
int sb_child_run(char *const argv[], char *const env[], char **out, int grace_s);

/*
 * sb_child_run with the child in its own process group, its standard input
 * /dev/null, its standard output our stderr when out is NULL (the build): a signal's SIGTERM and the SIGKILL after grace_s go
 * to the whole group, and after an interruption what is left of the group
 * when its leader ends has the rest of the grace, then SIGKILL.
 */
int sb_child_run_group(char *const argv[], char *const env[], char **out, int grace_s);

#endif
