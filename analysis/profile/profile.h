/* Profiles: perf script output and folded stacks read into stacks and per-symbol shares. */
#ifndef SCALEBENCH_PROFILE_H
#define SCALEBENCH_PROFILE_H

#include <stddef.h>
#include <stdio.h>

/* Folded stacks mark kernel frames with this suffix (the usual convention). */
#define SB_PROF_KSUFFIX "_[k]"

/* One symbol: its samples as the leaf (self) and anywhere in the stack (children). */
struct sb_sym {
	char *name;
	char *dso;		/* "" when unknown (folded input) */
	int kernel;
	double self, children;	/* samples, or percent when read from a top table */
	unsigned long stamp;	/* the last sample that counted it in children */
};

struct sb_stack {
	char *folded;		/* "comm;outer;...;leaf" */
	double count;
};

struct sb_prof {
	char event[128];	/* the event counted, "" when unknown */
	double total;		/* samples (or 100 for a top table) */
	double kernel;		/* samples whose leaf is in the kernel */
	double kernel_unresolved;	/* of those, leaves without a symbol */
	int pct_only;		/* read from a top table: self/children are percents */
	double top_samples;	/* a top table's samples (its self_samples summed) */
	unsigned long skipped;	/* samples of other events */
	struct sb_sym *syms;
	size_t nsyms, symcap;
	struct sb_stack *stacks;
	size_t nstacks, stackcap;
	/* hash indexes (open addressing; SIZE_MAX = empty) */
	size_t *symidx, symhash;
	size_t *stackidx, stackhash;
	unsigned long nsample;
	/* samples of commands starting with focus_comm also go to focus (the testcase's own) */
	struct sb_prof *focus;
	char focus_comm[64];
};

/* All readers return 0, 2 with "FILE:LINE: problem" in err, or 3 (no memory). */
int sb_prof_read_script(struct sb_prof *p, FILE *in, const char *name, const char *event,
			char *err, size_t errlen);
int sb_prof_read_folded(struct sb_prof *p, FILE *in, const char *name, char *err, size_t errlen);
int sb_prof_read_top(struct sb_prof *p, FILE *in, const char *name, char *err, size_t errlen);
/* A file or a profile directory (its top.csv, else folded.txt): the format is recognised. */
int sb_prof_load(struct sb_prof *p, const char *path, char *err, size_t errlen);
void sb_prof_free(struct sb_prof *p);

/* The symbols sorted by self share, then with-children share, then name. */
int sb_prof_sorted(const struct sb_prof *p, const struct sb_sym ***out);

/* Share of the total in percent (a top table already holds percents). */
double sb_prof_pct(const struct sb_prof *p, double v);

/* Writers; return 0, or -1 with errno on a write error. */
int sb_prof_write_folded(const struct sb_prof *p, FILE *out);
int sb_prof_write_top_csv(const struct sb_prof *p, FILE *out);
int sb_prof_write_top_text(const struct sb_prof *p, FILE *out, size_t limit);

/* CSV helpers shared by the tools. */
/* Split one CSV line (quotes allowed) in place into at most max fields; returns the count. */
size_t sb_csv_split(char *line, char **f, size_t max);

#endif
