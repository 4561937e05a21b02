/* The harness's side of the testcase API (api*.c): what tasks, params and the run need from it. */
#ifndef SCALEBENCH_API_H
#define SCALEBENCH_API_H

#include "testcase.h"

/* In a new task or partner thread: the index that sb_task() returns and sb_fatal names. */
void sb_api_set_task(long nr);
/* 1 in a partner (process or thread) made by new_task, else 0. */
int sb_api_in_partner(void);

/* The testcase's declarations: its SB_MODES (both when it declares none)... */
unsigned int sb_api_modes(void);
/* SB_MEANT's modes (0: none declared) and what the other mode measures (NULL: none). */
unsigned int sb_api_meant(void);
const char *sb_api_meant_else(void);
/* ...and its parameters, in declaration order (NULL: none). */
struct sb_param *sb_api_params(void);

/*
 * api_tmpdir.c is linked only into a testcase that uses sb_tmpdir(), so
 * that only such a testcase has the `dir` parameter; elsewhere these weak
 * references are NULL. make: before testcase_prepare; remove: at the end
 * of the run, however it ends (idempotent).
 */
void sb_tmpdir_make(void) __attribute__((weak));
/* Exit 2 (3 for the built-in defaults) unless the directory can be used: --check runs it too. */
void sb_tmpdir_check(void) __attribute__((weak));
void sb_tmpdir_remove(void) __attribute__((weak));

/*
 * A hook, so that api.c never calls into api_tmpdir.c (which calls sb_fatalx):
 * api_tmpdir.c's constructor registers the function that gives the directory
 * made for this run (NULL before it is made), and a failure on a full disk
 * names it. Without api_tmpdir.o linked nothing registers it.
 */
void sb_api_set_fail_dir(const char *(*made)(void));

#endif
