/* ministat-compatible data sets: reading columns of numbers, the plot, the table, Student's t. */
#ifndef SCALEBENCH_MINISTAT_H
#define SCALEBENCH_MINISTAT_H

#include <stddef.h>
#include <stdio.h>

#include "stats.h"

#define SB_MINISTAT_MAXSETS 7	/* one plot symbol each: x + * % # @ O */
#define SB_MINISTAT_MINVALUES 3

struct sb_mset {
	char *name;		/* shown in the legend */
	double *v;		/* values in input order */
	size_t n, cap;
	double *sorted;		/* filled by sb_mset_finish */
	struct sb_stats st;
	double var;		/* unrounded variance, n - 1 */
};

struct sb_mopts {
	int width;		/* plot width in characters, >= 2 */
	int separate;		/* -s: one bar line per data set */
	int no_plot;		/* -A: statistics and comparisons only */
	int stats_only;		/* -n: statistics only */
	int quiet;		/* -q: no legend, no table heading */
	double conf;		/* 80, 90, 95, 98, 99 or 99.5 */
};

/* Returns 0, or -1 when memory runs out. `name` is copied. */
int sb_mset_init(struct sb_mset *s, const char *name);
int sb_mset_add(struct sb_mset *s, double x);
void sb_mset_free(struct sb_mset *s);

/*
 * Sort and summarise. Returns 0; 2 with a message in err when the set has
 * fewer than SB_MINISTAT_MINVALUES values or its sums overflow; 3 when memory
 * runs out.
 */
int sb_mset_finish(struct sb_mset *s, const char *what, char *err, size_t errlen);

/*
 * Read column `column` (1-based) of every line of f, the columns split by
 * any of the characters in `delim`, into s. `what` names f in messages.
 * Lines without that column, or whose columns up to it include one starting
 * with '#', are skipped. Returns 0; 2 (input error, message naming what and
 * the line in err); 3 (read error or out of memory).
 */
int sb_mset_read(FILE *f, const char *what, int column, const char *delim,
		 struct sb_mset *s, char *err, size_t errlen);

/*
 * Print legend, plot, table and comparisons against sets[0], as ministat
 * does. Returns 0, or 3 when memory for the plot runs out.
 */
int sb_ministat_print(FILE *out, struct sb_mset *const *sets, int nsets,
		       const struct sb_mopts *o);

#endif
