/* The janitor: a small process that removes the runner's private directory once the runner and its tasks are gone, even after SIGKILL. */
#ifndef SCALEBENCH_JANITOR_H
#define SCALEBENCH_JANITOR_H

/*
 * mkdtemp(tmpl), done by a new janitor process that removes the directory
 * with everything in it as soon as the runner and every task have gone,
 * however they went. Returns 0 (tmpl holds the name) or an errno value.
 * Call it before the runner becomes a subreaper: the janitor is not the
 * runner's child, not in the task group, holds none of its output.
 */
int sb_janitor_mkdtemp(char *tmpl);
/* The runner removed the directory itself: the janitor leaves at once. */
void sb_janitor_release(void);
/* Removes dir and everything below it, as far as it can (links not followed). */
void sb_remove_tree(const char *dir);

#endif
