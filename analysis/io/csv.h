/* The CSV scanner of the run-file readers (private to analysis/io/): files whole, fields, numbers. */
#ifndef SCALEBENCH_CSV_H
#define SCALEBENCH_CSV_H

#include <stddef.h>
#include <stdio.h>

/* A field of a CSV line: [s, e). */
struct sb_field {
	const char *s, *e;
};

/* The field as a string for a message, at most 40 characters of it ("%.*s"). */
#define SB_FIELD(f) (int)((f).e - (f).s > 40 ? 40 : (f).e - (f).s), (f).s

/* "dir/name", malloc'd; NULL without memory. */
char *sb_path_join(const char *dir, const char *name);
/* Whether dir/name exists. */
int sb_path_exists(const char *dir, const char *name);

/* The largest file a reader takes in (samples.csv of the longest sweeps is tens of megabytes). */
#define SB_FILE_MAX (1UL << 30)
/* sb_file_slurp's and sb_file_map's error for what is not a regular file (a FIFO, a device, a socket) */
#define SB_E_NOTREG 4096
/* strerror, with words for SB_E_NOTREG and EFBIG (over SB_FILE_MAX) */
const char *sb_file_strerror(int e);

/* Whole file into a NUL-terminated malloc'd buffer: only a regular file, opened O_NONBLOCK, at most
 * SB_FILE_MAX bytes. Returns 0 or an errno (SB_E_NOTREG, EFBIG). */
int sb_file_slurp(const char *path, char **buf, size_t *len);
/* path for a reader that takes a pipe too (--log <(git bisect log)): a regular file or a FIFO, opened
 * O_NONBLOCK then made blocking, so a FIFO without a writer reads as empty rather than stalling the
 * open. NULL with *e an errno (EISDIR, SB_E_NOTREG for a device or socket). */
FILE *sb_file_stream(const char *path, int *e);
/* The file mapped (or read) whole; *mapped says how sb_file_unmap frees it. Returns 0 or an errno. */
int sb_file_map(const char *path, char **buf, size_t *len, int *mapped);
void sb_file_unmap(char *buf, size_t len, int mapped);

/*
 * A CSV file mapped whole: not empty, ending with a newline (files are
 * renamed into place whole, so a missing one means the file was cut short)
 * and without a NUL byte (a damaged file: a field would end at it).
 * Returns 0, or 2 or 3 with the message in err.
 */
int sb_csv_map(const char *path, char **buf, size_t *len, int *mapped, char *err, size_t errlen);

/* The line [p, le) split at commas into f[0..max-1]; returns how many fields it has. */
int sb_csv_fields(char *p, char *le, struct sb_field *f, int max);

/* Whether the field is exactly s. */
int sb_field_is(struct sb_field f, const char *s);
/* Digits only, min..max, into *out: 0, or -1. */
int sb_field_long(struct sb_field f, long min, long max, long *out);
/* A finite decimal number (no hex, no inf or nan) into *out: 0, or -1. */
int sb_field_double(struct sb_field f, double *out);

#endif
