/* Testcase parameters (--param name=value): setting and listing those the testcase registered (api.c). */
#ifndef SCALEBENCH_PARAMS_H
#define SCALEBENCH_PARAMS_H

#include <stdio.h>

/* Apply "name=value"; exit 2 on an unknown name or a bad value. */
void sb_params_set(const char *kv);
/* One line per parameter, "  name=default  help" for --help. */
void sb_params_usage(FILE *f);
/* "param=name<TAB>default<TAB>kind<TAB>help" lines for --info. */
void sb_params_info(FILE *f);

#endif
