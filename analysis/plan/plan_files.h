/* sb-plan's key=value files (plan_files.c): plan.conf and the state between two calls; each dies with its exit code on an error. */
#ifndef SCALEBENCH_PLAN_FILES_H
#define SCALEBENCH_PLAN_FILES_H

#include <stddef.h>

#include "plan.h"

/* The mode named by s's first len bytes (sb_mode_name), or -1. */
int sb_plan_mode_of(const char *s, size_t len);

/* s as a whole number (negative allowed); else exit 2 naming where and what. */
long sb_plan_snumber(const char *what, const char *s, const char *where);

/* "processes,threads" into c's modes; else exit 2 naming where. */
void sb_plan_set_modes(struct sb_plan_conf *c, const char *s, const char *where);

/* plan.conf at path into c (text: the file, freed by sb_plan_conf_free); an unknown key refused. */
void sb_plan_conf_read(const char *path, struct sb_plan_conf *c, char **text);
void sb_plan_conf_free(struct sb_plan_conf *c, char *text);

/* The plan between two calls, written whole through a temporary name, and read back (text as above). */
void sb_plan_state_write(const struct sb_plan *plan, const char *path);
void sb_plan_state_read(const char *path, struct sb_plan *plan, char **text);

#endif
