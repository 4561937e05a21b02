/* --tune: set what the system check can fix for a sweep (governor, turbo, ASLR) and put it back afterwards. */
#ifndef SCALEBENCH_TUNE_H
#define SCALEBENCH_TUNE_H

/*
 * Save the current values of every setting it will change into save (a file
 * of "PATH<tab>VALUE" lines, written before anything changes, by a rename),
 * then change them, printing one line a change on stdout and one a setting
 * it cannot change on stderr. Returns the number of settings changed, -1 when
 * save cannot be written (nothing changed then).
 */
int sb_tune_apply(const char *save);

/*
 * Write back what save holds, one line a setting on stdout, then remove it.
 * save is honoured only when it is this user's regular file (sb_safe_open),
 * and each line only for a path --tune itself writes with a plain value
 * (a governor's name or a number): anything else is a warning, never written.
 * Returns 0, or -1 when a line was refused or a setting could not be
 * restored (save is kept only in that last case). A missing save file is
 * nothing to restore (0).
 */
int sb_tune_restore(const char *save);

#endif
