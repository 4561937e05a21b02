/* The system check: what on this machine disturbs a measurement, each item with its value, why and how to change it. */
#ifndef SCALEBENCH_SYSCHECK_H
#define SCALEBENCH_SYSCHECK_H

#include <stdio.h>

/*
 * Look at the machine (probe_ms of CPU use among them) and print either the
 * full report (full: one item a paragraph) or the short form, one line of
 * key=value words for meta. *busy is set to 1 and busy_msg to a sentence when
 * the machine was busy during the probe. $SB_MACHINE_ROOT prefixes the /proc
 * and /sys files read (tests); the probe's CPU times are always the real ones.
 */
void sb_syscheck(FILE *out, int full, int probe_ms, int *busy, char *busy_msg, size_t size);

/* $SB_MACHINE_ROOT + path into buf: where the check reads (and --tune writes) path. */
const char *sb_sys_path(char *buf, size_t size, const char *path);

/* The first line of a file, without its newline; -1 when it cannot be read. */
int sb_sys_read(const char *path, char *buf, size_t size);

#endif
