/* meta's reader (key=value lines) and a run's status as a reader shows it. */
#ifndef SCALEBENCH_META_H
#define SCALEBENCH_META_H

#include <stddef.h>

/* Called for each key=value line of meta in file order; returns 0, or -1 when memory runs out. */
typedef int (*sb_meta_fn)(void *ctx, const char *key, const char *value);

/*
 * Read meta at path (key=value lines; blank and # lines skipped). key and
 * value point into *text, which the caller frees. Returns 0, 2 (message with
 * file:line) or 3.
 */
int sb_meta_read(const char *path, sb_meta_fn fn, void *ctx, char **text, char *err,
		 size_t errlen);

/*
 * A run's status as a reader shows it: meta's, except "abandoned" for a
 * `running` run whose sweep is gone: it was recorded on this host (host,
 * meta's sweep_host, is uname's node name) and pid (sweep_pid) is no process
 * now, or a process that started otherwise than start (sweep_start: the boot
 * id and the start time, where /proc tells them): the pid was reused. Another
 * host's run, or one without those keys (an older runtest.sh), stays
 * `running`: nothing here can tell. sb_run_load applies it to r->status.
 */
const char *sb_status_now(const char *status, const char *host, const char *pid,
			  const char *start);

/* A reading of the reference loop (meta's reference_start, reference_end: sb-machine reference --short). */
struct sb_reference_reading {
	int ok;			/* 1: read; 0: the key absent, empty (turned off) or not a reading */
	long loop;		/* the loop's version: readings of different loops are not compared */
	double rate;		/* the slices' median, loop iterations a second */
	double span_pct;	/* (max - min) / median of the slices, % */
	double sd_pct;		/* the slices' sd / mean, % */
};

/*
 * value as a reading: "loop=1 rate=412345678 span=1.83 sd=0.61 ..." (words
 * it does not know are skipped). A value it cannot read is no reading (ok 0):
 * the reference is evidence for the reader, and its absence fails nothing.
 */
void sb_reference_parse(const char *value, struct sb_reference_reading *out);

/* "BOOT_ID/STARTTIME" of process pid (meta's sweep_start) into buf; -1 where /proc cannot tell. */
int sb_start_id(long pid, char *buf, size_t size);

#endif
