/* Where an analysis tool may rename a finished file into place: a regular file or a new name, nothing else. */
#ifndef SCALEBENCH_OUTPATH_H
#define SCALEBENCH_OUTPATH_H

/* Dies (exit 2, "prog: PATH: a FIFO, not a regular file: not replaced") unless PATH is a name (not empty), absent or a
 * regular file: a rename would put a regular file in place of a symlink, a device node (as root,
 * -o /dev/full replaced the machine's /dev/full), a FIFO or a socket. Call it before writing the
 * temporary file and again just before the rename. */
void sb_outpath_check(const char *path);

#endif
