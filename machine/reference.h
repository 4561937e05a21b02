/* The reference loop: a fixed user-space CPU loop timed in slices, to show how steady the machine runs. */
#ifndef SCALEBENCH_REFERENCE_H
#define SCALEBENCH_REFERENCE_H

#include <stdio.h>

/*
 * The loop's version: a reading names it (loop=N), and readings of different
 * loops are never compared. Change it whenever spin() changes.
 */
#define SB_REFERENCE_LOOP 1

#define SB_REFERENCE_MAX_SLICES 10000

/* A reading: the loop's rate in each slice, and their summary. */
struct sb_reference {
	int nslices;
	int slice_ms;
	double rates[SB_REFERENCE_MAX_SLICES];	/* loop iterations per second, slice by slice */
	double ends[SB_REFERENCE_MAX_SLICES];	/* when each slice ended, s from the first's start */
	double median;		/* the slices' median rate */
	double span_pct;	/* (max - min) / median, % */
	double sd_pct;		/* the slices' sd / their mean, %; 0 for one slice */
	double seconds;		/* the time the slices took, warmup excluded */
};

/*
 * Run the loop for nslices slices of slice_ms each (after a warmup of one
 * slice, at most 100 ms), reading the clock only between chunks of about
 * 1 ms of pure computation. Fills r; returns 0, or -1 when the clock fails.
 */
int sb_reference_run(struct sb_reference *r, int nslices, int slice_ms);

/* The reading as meta's one line: "loop=1 rate=412345678 span=1.83 sd=0.61 slices=10 slice_ms=30". */
void sb_reference_line(FILE *out, const struct sb_reference *r);

/* The reading in words: "steady: the reference loop's 500 ms rates span 1.8% over 5.0 s ...". */
void sb_reference_words(FILE *out, const struct sb_reference *r);

/*
 * sb-machine reference [--ms MS] [--slices N] [--short] [--series], its
 * options parsed (cmd_machine.c's table). The words and meta's line on stdout; exit 0, 2 (usage) or
 * 3 (the clock failed: no reading is printed).
 */
int sb_reference_cmd(long long ms, long long n, int brief, int series);

/* The span (%) at which the words say unsteady. */
#define SB_REFERENCE_UNSTEADY_PCT 5.0

#endif
