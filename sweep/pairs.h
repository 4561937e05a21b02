/* NAME VALUE pairs, each NUL-terminated, on stdout: how a C helper hands values to bash (read -r -d ''). */
#ifndef SCALEBENCH_PAIRS_H
#define SCALEBENCH_PAIRS_H

#define SB_PAIR_NONE (-1L)	/* sb_pair_n: an empty value */

void sb_pair(const char *name, const char *value);	/* NULL: empty */
void sb_pair_n(const char *name, long value);		/* SB_PAIR_NONE: empty */
/* One option's rows of a --help: "  NAME ARG" padded to width, its help beside
 * it, the help's further lines indented under the first (both tools' tables). */
void sb_help_row(const char *name, const char *arg, const char *help, int width);

#endif
