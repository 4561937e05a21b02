/* The run's lifecycle: check, prepare, start, sample, stop, clean up, and every way out. */
#ifndef SCALEBENCH_RUN_H
#define SCALEBENCH_RUN_H

#include "options.h"

/* Run testcase `name` as o says (or only check it, or print its placement); never returns. */
void sb_run(const struct sb_options *o, const char *name) __attribute__((noreturn));

#endif
