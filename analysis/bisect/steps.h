/* The bisect's own log: which sweeps were taken at which commit, and each step's verdict (a TSV file, rewritten whole). */
#ifndef SCALEBENCH_BISECT_STEPS_H
#define SCALEBENCH_BISECT_STEPS_H

#include <stddef.h>

/*
 * Lines, tab-separated, in the order written:
 *   sweep   SHA - RUNDIR                      a finished sweep of sb-bisect measure at commit SHA
 *   sweep   SHA TARGET RUNDIR GOOD_DIR BAD_DIR  a step's finished sweep, between these ends (a
 *                                             line without them, from an older sb-bisect, is never reused)
 *   verdict SHA TARGET VERDICT RUNS MEAN POSITION GOOD_DIR BAD_DIR COMMAND
 * VERDICT is good, bad or skip; COMMAND the sb-bisect command line, shell-quoted.
 */
struct sb_stepline {
	char kind[8];		/* "sweep" or "verdict" */
	char sha[48], target[48];
	char *rundir;		/* sweep */
	char verdict[8];	/* verdict */
	long runs;
	double mean, position;
	char *good, *bad;	/* verdict, and a step's sweep (NULL: measure's, or an older log's) */
	char *command;
};

struct sb_steplog {
	struct sb_stepline *l;
	size_t n;
	char *text;		/* the file's text: the strings point into it */
};

/* Read path (absent: an empty log). Returns 0; 2 with file:line for a malformed line; 3. */
int sb_steplog_read(const char *path, struct sb_steplog *log, char *err, size_t errlen);
void sb_steplog_free(struct sb_steplog *log);

/*
 * Append one line (fields joined by tabs, no tab or newline inside a field)
 * to path: the old text and the line go to a temporary name, then rename.
 * Returns 0, 2 (a field with a tab or newline) or 3 with a message.
 */
int sb_steplog_append(const char *path, const char *const *fields, size_t nfields, char *err,
		      size_t errlen);

#endif
