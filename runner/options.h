/* Command-line options of a testcase binary. */
#ifndef SCALEBENCH_OPTIONS_H
#define SCALEBENCH_OPTIONS_H

enum sb_policy { SB_PLACE_CORES, SB_PLACE_PUS, SB_PLACE_SPREAD, SB_PLACE_NONE };
enum sb_format { SB_FMT_TEXT, SB_FMT_CSV, SB_FMT_SAMPLES };

/* --warmup auto: end the warmup once the rate has settled (warmup.c). */
#define SB_WARMUP_AUTO ((unsigned long)-1)

struct sb_options {
	unsigned long tasks;
	unsigned long samples;		/* measured; 0 = until interrupted */
	unsigned long warmup;		/* samples, or SB_WARMUP_AUTO */
	unsigned long warmup_min_ms;	/* --warmup auto: at least (--warmup-min, seconds with decimals) */
	unsigned long warmup_max_ms;	/* --warmup auto: at most (--warmup-max) */
	unsigned long warmup_period_ms;	/* --warmup auto: a warmup sample's period; 0: the default (warmup.c) */
	unsigned long period_ms;
	unsigned long stall_timeout;	/* seconds */
	unsigned long run;		/* the run column of --format samples */
	enum sb_policy placement;
	const char *cpus;		/* --cpus list or NULL */
	enum sb_format format;
	int verbose;
	int no_header;
	int print_header;
	int print_placement;
	int check;
	int info;
	int timing;
};

/* Parse argv (applying --param as it goes); --help and --list-options answer and exit 0; exits 2 on any error. */
void sb_options_parse(int argc, char **argv, struct sb_options *o);
/* Is OPT ("--stall-timeout") a row runtest.sh hands to every run (sweep=yes)? 1, and whether it takes a value. */
int sb_options_sweep(const char *opt, int *takes_arg);
const char *sb_placement_name(enum sb_policy p);

#endif
