/* samples.csv's columns, declared once: the runner writes them (runner/output.c), analysis/io/samples.c reads them. */
#ifndef SCALEBENCH_FORMAT_SAMPLES_H
#define SCALEBENCH_FORMAT_SAMPLES_H

/*
 * X(ID, name, csv, kind, member): samples.csv's columns in file order.
 *   csv     1 when the runner's --format csv has the column too (csv is samples.csv
 *           without the run's mode, tasks and run)
 *   kind    how the runner writes the value (SB_SAMPLES_K_*)
 *   member  the field of the runner's struct sb_sample (runner/output.h) it comes from
 * With -v both formats end with task_0 ... task_N-1. A reader finds the columns it
 * needs by name and ignores the others, so a column added here breaks no reader, old
 * or new. Adding a column: its row here, its field in struct sb_sample, the sampler
 * filling it. mode, tasks, run and phase stay the first four: runtest.sh's
 * samples_rows checks that each row it keeps starts with them.
 */
#define SB_SAMPLES_COLUMNS(X) \
	X(MODE,		"mode",		0, MODE,	ntasks)	/* (member unused) */ \
	X(TASKS,	"tasks",	0, COUNT,	ntasks) \
	X(RUN,		"run",		0, COUNT,	run) \
	X(PHASE,	"phase",	1, PHASE,	measured) \
	X(SAMPLE,	"sample",	1, COUNT,	index) \
	X(ELAPSED,	"elapsed_s",	1, SECONDS,	elapsed) \
	X(OPS,		"ops",		1, OPS,		ops) \
	X(RATE,		"ops_per_s",	1, RATE,	rate) \
	X(TASK_MIN,	"task_min",	1, RATE,	task_min) \
	X(TASK_MAX,	"task_max",	1, RATE,	task_max) \
	X(IDLE,		"idle_pct",	1, PCT,		idle) \
	X(IDLE_ALL,	"idle_all_pct",	1, PCT,		idle_all) \
	X(LATE,		"late_ms",	1, MS,		late_ms)

/* How a value is written */
enum sb_samples_kind {
	SB_SAMPLES_K_MODE,	/* the mode's name, SB_SAMPLES_PROCESSES or SB_SAMPLES_THREADS */
	SB_SAMPLES_K_PHASE,	/* SB_SAMPLES_WARMUP or SB_SAMPLES_MEASURE */
	SB_SAMPLES_K_COUNT,	/* a whole number */
	SB_SAMPLES_K_OPS,	/* a whole number (operations) */
	SB_SAMPLES_K_SECONDS,	/* %.6f */
	SB_SAMPLES_K_RATE,	/* ops/s, %.1f */
	SB_SAMPLES_K_PCT,	/* %, %.2f; empty when not measurable */
	SB_SAMPLES_K_MS,	/* milliseconds, %.3f */
};

/* The columns' indexes: SB_SAMPLES_COL_RATE ... */
#define SB_SAMPLES_X_ENUM(id, name, csv, kind, member) SB_SAMPLES_COL_##id,
enum sb_samples_col { SB_SAMPLES_COLUMNS(SB_SAMPLES_X_ENUM) SB_SAMPLES_NCOLS };
#undef SB_SAMPLES_X_ENUM

/* The columns' names, by index */
#define SB_SAMPLES_X_NAME(id, name, csv, kind, member) name,
static const char *const sb_samples_col_name[SB_SAMPLES_NCOLS] = { SB_SAMPLES_COLUMNS(SB_SAMPLES_X_NAME) };
#undef SB_SAMPLES_X_NAME

/* The words of the mode and phase columns */
#define SB_SAMPLES_PROCESSES "processes"
#define SB_SAMPLES_THREADS "threads"
#define SB_SAMPLES_WARMUP "warmup"
#define SB_SAMPLES_MEASURE "measure"

#endif
