/* points.csv's columns, declared once: sb-plan writes them (analysis/cmd_plan.c), analysis/io/points.c reads them. */
#ifndef SCALEBENCH_FORMAT_POINTS_H
#define SCALEBENCH_FORMAT_POINTS_H

#include <stdio.h>

/*
 * X(ID, name): points.csv's columns in file order, one row per planned point
 * (a mode's task count): the mode, the count, its origin (SB_POINTS_ORIGINS)
 * and the reason it is measured (free text without commas: the last column).
 * The reader takes exactly these columns (one sweep writes and reads the file).
 */
#define SB_POINTS_COLUMNS(X) X(MODE, "mode") X(TASKS, "tasks") X(ORIGIN, "origin") X(REASON, "reason")

#define SB_POINTS_X_ENUM(id, name) SB_POINTS_COL_##id,
enum sb_points_col { SB_POINTS_COLUMNS(SB_POINTS_X_ENUM) SB_POINTS_NCOLS };
#undef SB_POINTS_X_ENUM

/* X(ID, name): where a point came from: auto's seeds, what it added, the counts given */
#define SB_POINTS_ORIGINS(X) X(SEED, "seed") X(ADDED, "added") X(GIVEN, "given")

/* The header line without its newline: "mode,tasks,origin,reason" (the leading comma skipped) */
#define SB_POINTS_X_HEADER(id, name) "," name
#define SB_POINTS_HEADER (SB_POINTS_COLUMNS(SB_POINTS_X_HEADER) + 1)

/* One row, in the columns' order. */
static inline void sb_points_put_row(FILE *f, const char *mode, unsigned long tasks, const char *origin,
				     const char *reason)
{
	fprintf(f, "%s,%lu,%s,%s\n", mode, tasks, origin, reason);
}

#endif
