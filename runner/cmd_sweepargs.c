/* sb-sweepargs: runtest.sh's options as one table: parses and checks its arguments, hands the values back as NUL-separated NAME VALUE pairs, prints its --help. */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "options.h"
#include "pairs.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "util.h"

#define NAME_MAX_LEN 255	/* the longest file name (Linux, the BSDs): bounds the run id */
#define RUN_ID_TAIL 20		/* a run id is the label, -YYYYmmddTHHMMSS and maybe -N */
#define NOTSET SB_PAIR_NONE

/* The shape of one run and the stopping rule of a point (docs/RUNTEST.md, "Measurement design") */
#define DEF_WARMUP_MS 1000	/* one run: 1 s (auto: 1-2 s) warmup + 1 s measured */
#define DEF_DURATION_MS 1000
#define DEF_PERIOD 500
#define DEF_MIN_RUNS 3		/* independent runs a point */
#define DEF_MAX_RUNS 10
#define DEF_PRECISION 2000	/* target half-width of the 95% interval, in 1/1000 % of the mean */
#define DEF_POINT_BUDGET_MS 30000	/* the most one point may take (its --min-runs always run) */
#define QUICK_WARMUP_MS 500	/* --quick */
#define QUICK_DURATION_MS 500
#define QUICK_PERIOD 250
#define QUICK_RUNS 2
#define AUTO_WARMUP_MAX_S 2	/* the cap of a sweep run's steady-state warmup (--warmup auto) */

static const char *me = "./runtest.sh";	/* the command as the user runs it (--me) */

/* What the arguments say: NOTSET or NULL where they say nothing. */
static struct args {
	long max, min, step, max_points, duration_ms, warmup_ms, period, repeat, precision;
	long min_runs, max_runs, point_budget_ms, budget_ms, seed, vm_cpus;
	const char *points, *mode, *placement, *label, *results, *profile, *commit;
	int help, list, smt, no_affinity, dry_run, quiet, plot, quick, profile_keep;
	int no_wait, no_lock, tune, no_history;
} a = {
	NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET,
	NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET,
	NULL, "both", NULL, NULL, NULL, NULL, NULL,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

enum kind {
	TITLE,		/* a heading of --help */
	FLAG,		/* no value: 1 into an int */
	COUNT,		/* a whole number >= lo, into a long */
	SECONDS,	/* seconds with up to 3 decimals, as milliseconds; lo 1: more than 0 */
	PERCENT,	/* the same, of a percentage, more than 0 */
	TEXT,		/* the value as given (check: its own test), into a const char * */
	CALL,		/* the value to check(), which keeps it */
	HELP,		/* -h, --help */
	ONLY,		/* in --help, taken by runtest.sh as its only argument: unknown here */
};

struct opt {
	const char *name;	/* "--max-procs", "-h, --help"; TITLE: the heading */
	const char *arg;	/* the value's name in --help, or NULL: it takes none */
	enum kind kind;
	size_t field;		/* offsetof(struct args, what it sets) */
	long lo;
	void (*check)(const char *opt, const char *val);
	const char *help;	/* its lines in --help ('\n' between them) */
};

static void check_mode(const char *, const char *);
static void check_param(const char *, const char *);
static void check_nonempty(const char *, const char *);
static void check_commit(const char *, const char *);
static void check_kernel(const char *, const char *);
static void check_vm(const char *, const char *);

#define AT(f) offsetof(struct args, f)
#define OPT_TITLE(t)			{ t, NULL, TITLE, 0, 0, NULL, "" }
#define OPT_FLAG(n, f, h)		{ n, NULL, FLAG, AT(f), 0, NULL, h }
#define OPT_COUNT(n, v, f, lo, h)	{ n, v, COUNT, AT(f), lo, NULL, h }
#define OPT_SECONDS(n, v, f, lo, h)	{ n, v, SECONDS, AT(f), lo, NULL, h }
#define OPT_TEXT(n, v, f, c, h)		{ n, v, TEXT, AT(f), 0, c, h }
#define OPT_CALL(n, v, c, h)		{ n, v, CALL, 0, 0, c, h }

/* In --help's order. An option: a row here, a field in struct args, its pair in emit(). */
static const struct opt table[] = {
	{ "--list", NULL, FLAG, AT(list), 0, NULL, NULL },	/* in --help's first lines */
	OPT_TITLE("Sweep (task counts):"),
	OPT_COUNT("--max-procs", "N", max, 1, "largest task count (default: the cores hwloc finds; PUs with --smt)"),
	OPT_COUNT("--min-procs", "N", min, 1, "smallest task count (default 1)"),
	OPT_TEXT("--points", "P", points, NULL,
		 "auto (the default): seeds (1, 2, the topology points, the powers\n"
		 "of two, the largest), then the counts each mode's curve needs (its\n"
		 "peak, its bends); all: every count (will-it-scale); \"topology\": 1,\n"
		 "one last-level cache, each NUMA node's worth, each package's worth,\n"
		 "3/4 of the machine and all of it; or exactly a LIST, e.g. 1,2,4,8,96\n"
		 "(topology and LIST cannot be combined with the range options)"),
	OPT_COUNT("--step", "S", step, 1, "every count: min, then the multiples of S, then max (--points all)"),
	OPT_COUNT("--max-points", "N", max_points, 1,
		  "--points auto: task counts a mode at most (default 24; seeds always run)"),
	OPT_FLAG("--smt", smt, "count hardware threads (PUs), not cores; places tasks on PUs"),
	OPT_TITLE("Each point:"),
	OPT_TEXT("--mode", "M", mode, check_mode,
		 "processes, threads, both (default; a testcase meant one way\n"
		 "runs that way) or all (every mode the binaries run)"),
	OPT_SECONDS("--duration", "S", duration_ms, 0, "measured seconds of each run (default 1; decimals allowed)"),
	OPT_SECONDS("--warmup", "S", warmup_ms, 0,
		    "seconds of warmup each run discards first (default: until the rate\n"
		    "settles, at most 2 s, where the runner can tell; else 1)"),
	OPT_COUNT("--period-ms", "MS", period, 1, "sample period (default 500)"),
	{ "--precision", "PCT", PERCENT, AT(precision), 0, NULL,
	  "run a point until its 95% interval is within +-PCT % of its mean\n"
	  "(default 2), within the budgets below" },
	OPT_COUNT("--min-runs", "N", min_runs, 1, "independent runs of every point at least (default 3)"),
	OPT_COUNT("--max-runs", "N", max_runs, 1, "runs of a point at most (default 10)"),
	/* a budget of 0 s: nothing beyond --min-runs, or no limit? Neither: refused */
	OPT_SECONDS("--point-budget", "S", point_budget_ms, 1,
		    "seconds a point may take (default 30, more than 0); --min-runs always run"),
	OPT_SECONDS("--budget", "S", budget_ms, 1, "seconds the whole sweep may take (default 11 s times the points)"),
	OPT_COUNT("--repeat", "R", repeat, 1, "exactly R runs of each point (no stopping rule, no budgets)"),
	OPT_COUNT("--seed", "N", seed, 0, "shuffle each round's order with seed N (default: alternate the direction)"),
	OPT_FLAG("--quick", quick, "exploration: 2 runs of 0.5 s warmup + 0.5 s measured a point"),
	OPT_TEXT("--placement", "P", placement, NULL, "cores, pus, spread or none (default cores, pus with --smt)"),
	OPT_FLAG("--no-affinity", no_affinity, "same as --placement none"),
	OPT_CALL("--param", "NAME=VALUE", check_param, "a testcase parameter (repeatable; recorded in meta)"),
	OPT_TITLE("Results:"),
	OPT_TEXT("--label", "NAME", label, NULL, "names the run (default: the kernel release, uname -r)"),
	OPT_TEXT("--results", "DIR", results, check_nonempty, "where runs go (default: results/ of this checkout)"),
	OPT_TEXT("--commit", "SHA", commit, check_commit,
		 "the measured kernel's commit, in meta and the history (default $SB_COMMIT)"),
	OPT_FLAG("--no-history", no_history,
		 "do not add the finished runs to DIR/history.db (or $SB_HISTORY: sb-history)"),
	OPT_FLAG("--dry-run", dry_run, "print the points, modes, placement and estimated time, then exit"),
	OPT_FLAG("--quiet", quiet, "no progress, no notes, no table (errors and warnings stay)"),
	OPT_FLAG("--plot", plot, "draw the scaling curve in the terminal at the end (plot/plot.py)"),
	OPT_TITLE("The machine (docs/RUNTEST.md, \"One sweep at a time\"):"),
	OPT_FLAG("--no-wait", no_wait,		/* machine/machine.sh */
		 "fail at once (exit 3, naming it) when another sweep holds the machine,\n"
		 "instead of waiting for it"),
	OPT_FLAG("--no-lock", no_lock, "measure without the machine lock, on top of any other sweep (in meta)"),
	OPT_FLAG("--tune", tune, "governor performance, turbo off, ASLR off for the sweep; restored at its end"),
	{ "--check-system", NULL, ONLY, 0, 0, NULL,
	  "what on this machine disturbs a measurement, and how to change it\n(as the only argument)" },
	OPT_TITLE("Profiles (docs/PROFILE.md):"),
	OPT_TEXT("--profile", "LIST", profile, check_nonempty,	/* profile/record.sh */
		 "after the measured runs, one extra run under perf at these points of\n"
		 "each mode: task counts, \"peak\" (the mode's best), \"max\" (its largest);\n"
		 "not empty"),
	OPT_FLAG("--profile-keep", profile_keep, "keep perf.data too (large)"),
	{ "-h, --help", NULL, HELP, 0, 0, NULL, "this text" },
	OPT_TITLE("In a VM (docs/VM.md): the same sweep inside QEMU guests booted on chosen kernels:"),
	OPT_CALL("--kernel", "IMAGE", check_kernel,
		 "boot IMAGE (a bzImage) and run the sweep in it (repeatable: several\n"
		 "kernels are measured in alternating rounds, one run per point each)"),
	OPT_COUNT("--vm-cpus", "N", vm_cpus, 1,
		  "vCPUs, pinned one-to-one to host cores (default: the largest point,\n"
		  "at most the host's cores)"),
	OPT_CALL("--vm-mem", "MIB", check_vm, "guest memory (default 1024)"),
	OPT_CALL("--vm-accel", "A", check_vm, "kvm, tcg or auto (default auto: KVM when /dev/kvm is usable)"),
	OPT_CALL("--vm-fs", "FS", check_vm, "how the guest sees the host's root: 9p, virtiofs or auto"),
	OPT_CALL("--vm-append", "ARGS", check_vm, "more kernel command line"),
	OPT_CALL("--vm-boot-timeout", "S", check_vm, "seconds a guest may take to come up"),
	{ "--version", NULL, ONLY, 0, 0, NULL, "scalebench's version and git revision (as the only argument)" },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

/* The lists the arguments build, in their order. */
static const char **tests, **params, **pass, **kernels, **vm_boot, **vm_rest;
static size_t ntests, nparams, npass, nkernels, nvm_boot, nvm_rest;

static void add(const char ***list, size_t *n, const char *s)
{
	if ((*list = realloc(*list, (*n + 1) * sizeof(**list))) == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	(*list)[(*n)++] = s;
}

/* A usage error: one line, runtest.sh's own, and exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_die(SB_EXIT_USAGE, "%s (see %s --help)", buf, me);
}

static void usage(void)
{
	printf("usage: %s TEST... [options]     run a scaling sweep of each TEST (\"all\": every one)\n", me);
	printf("       %s --list                 the testcases: name, modes, description, parameters\n", me);
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		char head[64];
		const char *h = p->help, *nl;

		if (p->help == NULL)
			continue;
		if (p->kind == TITLE) {
			printf("%s%s\n", p == table + 1 ? "\n" : "", p->name);	/* after --list's row */
			continue;
		}
		snprintf(head, sizeof(head), "%s%s%s", p->name, p->arg ? " " : "", p->arg ? p->arg : "");
		printf("  %-19s", head);
		for (int first = 1; (nl = strchr(h, '\n')) != NULL; h = nl + 1, first = 0)
			printf("%*s%.*s\n", first ? 1 : 22, "", (int)(nl - h), h);
		printf("%*s%s\n", h == p->help ? 1 : 22, "", h);
	}
	printf("\nWrites DIR/<test>/<label>-<YYYYmmddTHHMMSS>/{summary.csv,samples.csv,meta} and prints\n"
	       "the run directory on standard output. Exit: 0 done, 1 a point failed, 2 usage error,\n"
	       "3 environment error (build, results directory), 130 interrupted.\n"
	       "Testing: SB_BUILD selects the build directory (default build), SB_TESTS_DIR a\n"
	       "directory of <test>_processes/<test>_threads binaries to run instead of SB_BUILD/bin;\n"
	       "SB_VM_BOOT a program to use instead of vm/boot.sh.\n");
}

/* ---- values ----------------------------------------------------------------------- */

static long count(const char *opt, const char *s, long lo)	/* a whole number >= lo */
{
	char *end;
	long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))	/* (no sign, no blank: strtol takes both) */
		bad("%s: '%s' is not a whole number", opt, s);
	if (strlen(s) > 9)
		bad("%s: '%s' is too large", opt, s);
	v = strtol(s, &end, 10);
	if (*end)
		bad("%s: '%s' is not a whole number", opt, s);
	if (v < lo)
		bad("%s: '%s' must be at least %ld", opt, s, lo);
	return v;
}

/* "5", "0.5", "1.25" seconds (or percent) as thousandths */
static long thousandths(const char *opt, const char *s, const char *unit)
{
	const char *dot = strchr(s, '.');
	size_t nint = dot ? (size_t)(dot - s) : strlen(s), nfrac = dot ? strlen(dot + 1) : 0;
	long v = 0;

	if (!*s || strspn(s, "0123456789.") != strlen(s) || nint == 0 || (dot && nfrac == 0) ||
	    (dot && strchr(dot + 1, '.')))
		bad("%s: '%s' is not a number of %s like 5 or 0.5", opt, s, unit);
	if (nfrac > 3)
		bad("%s: '%s' has more than 3 decimals", opt, s);
	if (nint > 6)
		bad("%s: '%s' is too large", opt, s);
	for (size_t i = 0; i < nint; i++)
		v = v * 10 + (s[i] - '0');
	for (size_t i = 0; i < 3; i++)
		v = v * 10 + (i < nfrac ? dot[1 + i] - '0' : 0);
	return v;
}

/* milliseconds as seconds: 5000 -> "5", 500 -> "0.5" (buf of 32) */
static const char *secs(long ms, char *buf)
{
	int n = snprintf(buf, 32, "%ld.%03ld", ms / 1000, ms % 1000);

	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[n - 1] = '\0';
	return buf;
}

static int is_hex(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return s[n] == '\0' && n >= 7 && n <= 64;
}

static void check_mode(const char *opt, const char *v)
{
	(void)opt;
	if (strcmp(v, "processes") && strcmp(v, "threads") && strcmp(v, "both") && strcmp(v, "all"))
		bad("--mode: unknown mode '%s' (processes, threads, both)", v);
}

static void check_param(const char *opt, const char *v)
{
	size_t n = 0;

	while (isalnum((unsigned char)v[n]) || v[n] == '_')
		n++;
	if (n == 0 || v[n] != '=')
		bad("%s: '%s' is not NAME=VALUE", opt, v);
	if (strpbrk(v, "\n\r"))
		bad("%s: the value of '%.*s' spans lines", opt, (int)n, v);
	add(&params, &nparams, v);
	add(&pass, &npass, "--param");
	add(&pass, &npass, v);
}

static void check_nonempty(const char *opt, const char *v)
{
	if (*v)
		return;
	if (strcmp(opt, "--results") == 0)
		bad("--results: empty directory name");
	bad("--profile: empty list (give task counts, 'peak' or 'max')");	/* as --points '' is */
}

static void check_commit(const char *opt, const char *v)
{
	if (!is_hex(v))
		bad("%s: '%s' is not a commit hash (7 to 64 hex digits)", opt, v);
}

static void check_kernel(const char *opt, const char *v)
{
	struct stat st;

	if (!*v)
		bad("%s: empty file name", opt);
	/* bad input, exit 2 as elsewhere (vm/boot.sh says 3 only for an unreadable one) */
	if (stat(v, &st) != 0)
		sb_die(SB_EXIT_USAGE, "%s %s: no such file", opt, v);
	if (!S_ISREG(st.st_mode))
		sb_die(SB_EXIT_USAGE, "%s %s: not a file (a kernel image, bzImage)", opt, v);
	add(&kernels, &nkernels, v);
}

static void check_vm(const char *opt, const char *v)	/* --vm-mem M: vm/boot.sh's --mem M */
{
	char *name = malloc(strlen(opt));

	if (name == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	sprintf(name, "--%s", opt + 5);
	add(&vm_boot, &nvm_boot, name);
	add(&vm_boot, &nvm_boot, v);
}

/* ---- the arguments ---------------------------------------------------------------- */

static const struct opt *find(const char *opt)
{
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		if (p->kind == TITLE || p->kind == ONLY)
			continue;
		if (strcmp(p->name, opt) == 0 || (p->kind == HELP && strcmp(opt, "-h") == 0) ||
		    (p->kind == HELP && strcmp(opt, "--help") == 0))
			return p;
	}
	return NULL;
}

static void apply(const struct opt *p, const char *opt, const char *val)
{
	char *field = (char *)&a + p->field;

	switch (p->kind) {
	case FLAG:
		*(int *)field = 1;
		break;
	case COUNT:
		*(long *)field = count(opt, val, p->lo);
		break;
	case SECONDS:
		*(long *)field = thousandths(opt, val, "seconds");
		if (p->lo && *(long *)field == 0)
			bad("%s: '%s' must be more than 0 seconds", opt, val);
		break;
	case PERCENT:
		*(long *)field = thousandths(opt, val, "percent");
		if (*(long *)field == 0)
			bad("%s: '%s' must be more than 0", opt, val);
		break;
	case TEXT:
		if (p->check)
			p->check(opt, val);
		*(const char **)field = val;
		break;
	case CALL:
		p->check(opt, val);
		break;
	case HELP:
		a.help = 1;
		break;
	case TITLE:
	case ONLY:
		break;
	}
}

/* ARGV as runtest.sh's parse_args read it: in order, each error as met */
static void parse(int argc, char **argv)
{
	const char *env = getenv("SB_COMMIT");

	a.commit = env && *env ? env : NULL;
	for (int i = 0; i < argc && !a.help; i++) {
		const char *arg = argv[i], *eq = NULL, *val = NULL;
		char opt[256];
		const struct opt *p;
		int takes, vm;

		if (strcmp(arg, "--") == 0) {
			add(&vm_rest, &nvm_rest, arg);
			for (i++; i < argc; i++) {
				add(&tests, &ntests, argv[i]);
				add(&vm_rest, &nvm_rest, argv[i]);
			}
			break;
		}
		if (arg[0] != '-') {
			add(&tests, &ntests, arg);
			add(&vm_rest, &nvm_rest, arg);
			continue;
		}
		snprintf(opt, sizeof(opt), "%s", arg);
		if (strncmp(arg, "--", 2) == 0 && (eq = strchr(arg, '=')) != NULL) {
			opt[eq - arg < (long)sizeof(opt) ? eq - arg : (long)sizeof(opt) - 1] = '\0';
			val = eq + 1;
		}
		p = find(opt);
		/* a runner option the sweep does not read itself (the runner's table, sweep=yes) */
		if (p == NULL && !sb_options_sweep(opt, &takes))
			bad("unknown option '%s'", opt);
		if (p != NULL)
			takes = p->arg != NULL;
		if (takes && !val) {
			if (i + 1 >= argc)
				bad("%s needs a value", opt);
			val = argv[++i];
		} else if (!takes && val) {
			bad("%s takes no value", opt);
		}
		vm = p && (p->check == check_kernel || p->check == check_vm || p->field == AT(vm_cpus));
		if (!vm) {
			if (!eq && takes)
				add(&vm_rest, &nvm_rest, argv[i - 1]);
			add(&vm_rest, &nvm_rest, argv[i]);
		}
		if (p != NULL) {
			apply(p, opt, val);
		} else {	/* to the runner as given */
			add(&pass, &npass, strdup(opt));
			if (takes)
				add(&pass, &npass, val);
		}
	}
	if (a.commit && !is_hex(a.commit))
		bad("SB_COMMIT: '%s' is not a commit hash (7 to 64 hex digits)", a.commit);
}

/* ---- the values: what needs nothing but the arguments ------------------------------ */

static const char *points_mode = "auto", *placement;
static long *point_list, npoints, largest = 1, period, samples, warmup_samples, duration_ms, warmup_ms;
static long min_runs, max_runs, precision, point_budget_ms;
static int adaptive = 1;
static char *label, rounded_note[256];

static int cmp_long(const void *x, const void *y)
{
	long l = *(const long *)x, r = *(const long *)y;

	return (l > r) - (l < r);
}

static void points(void)
{
	char *list, *s, *item;

	if (a.points == NULL) {
		if (a.step != NOTSET)
			points_mode = "all";
	} else if (!strcmp(a.points, "auto") || !strcmp(a.points, "all") || !strcmp(a.points, "topology")) {
		points_mode = a.points;
	} else {
		points_mode = "list";
	}
	if ((!strcmp(points_mode, "list") || !strcmp(points_mode, "topology")) &&
	    (a.max != NOTSET || a.min != NOTSET || a.step != NOTSET))
		bad("--points cannot be combined with --max-procs, --min-procs or --step");
	if (!strcmp(points_mode, "auto") && a.step != NOTSET)
		bad("--step measures every count: it goes with --points all, not auto");
	if (strcmp(points_mode, "auto") && a.max_points != NOTSET)
		bad("--max-points goes with --points auto");
	if (a.min != NOTSET && a.max != NOTSET && a.min > a.max)
		bad("--min-procs %ld is larger than --max-procs %ld", a.min, a.max);
	if (!strcmp(points_mode, "list")) {
		if (!*a.points)
			bad("--points: empty list");
		if ((s = list = strdup(a.points)) == NULL)
			sb_die(SB_EXIT_ENV, "out of memory");
		while ((item = strsep(&s, ",")) != NULL) {
			if ((point_list = realloc(point_list, (npoints + 1) * sizeof(*point_list))) == NULL)
				sb_die(SB_EXIT_ENV, "out of memory");
			point_list[npoints++] = count("--points", item, 1);
		}
		qsort(point_list, npoints, sizeof(*point_list), cmp_long);
		long n = 0;
		for (long i = 0; i < npoints; i++)
			if (n == 0 || point_list[n - 1] != point_list[i])
				point_list[n++] = point_list[i];
		npoints = n;
		free(list);
	}
	/* the largest count the arguments name: what the runner's --check is asked about */
	if (a.max > largest)
		largest = a.max;
	if (a.min > largest)
		largest = a.min;
	if (npoints > 0 && point_list[npoints - 1] > largest)
		largest = point_list[npoints - 1];
}

static void profile_list(void)	/* --profile: task counts, peak, max; --profile-keep only with it */
{
	char *list, *s, *item;

	if (a.profile == NULL) {
		if (a.profile_keep)
			bad("--profile-keep needs --profile");
		return;
	}
	if ((s = list = strdup(a.profile)) == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	while ((item = strsep(&s, ",")) != NULL)
		if (strcmp(item, "peak") && strcmp(item, "max") &&
		    (!*item || strspn(item, "0123456789") != strlen(item) || item[0] == '0'))
			bad("--profile: '%s' is not a task count, 'peak' or 'max'", item);
	free(list);
}

static void choose_placement(void)
{
	placement = a.placement && *a.placement ? a.placement : NULL;
	if (a.no_affinity) {
		if (placement && strcmp(placement, "none"))
			bad("--no-affinity contradicts --placement %s", placement);
		placement = "none";
	}
	if (!placement)
		placement = a.smt ? "pus" : "cores";
}

/* one run's samples (the defaults, --quick, then what was given), whole sample periods */
static void run_shape(void)
{
	char s[32];

	duration_ms = a.quick ? QUICK_DURATION_MS : DEF_DURATION_MS;
	warmup_ms = a.quick ? QUICK_WARMUP_MS : DEF_WARMUP_MS;
	period = a.quick ? QUICK_PERIOD : DEF_PERIOD;
	if (a.duration_ms != NOTSET)
		duration_ms = a.duration_ms;
	if (a.warmup_ms != NOTSET)
		warmup_ms = a.warmup_ms;
	if (a.period != NOTSET)
		period = a.period;
	samples = (duration_ms + period / 2) / period;
	warmup_samples = (warmup_ms + period / 2) / period;
	if (samples < 1)
		bad("--duration %s s is less than one sample of --period-ms %ld", secs(duration_ms, s), period);
	if (samples * period != duration_ms || warmup_samples * period != warmup_ms)
		snprintf(rounded_note, sizeof(rounded_note),
			 "note: whole sample periods: %ld measured and %ld warmup samples of %ld ms",
			 samples, warmup_samples, period);
}

/* how many runs a point gets: adaptive (0: exactly min_runs = max_runs), min_runs,
 * max_runs, precision (1/1000 %; NOTSET: none), point_budget_ms (NOTSET: none) */
static void stop_rule(void)
{
	min_runs = DEF_MIN_RUNS, precision = DEF_PRECISION, point_budget_ms = DEF_POINT_BUDGET_MS;
	if (a.repeat != NOTSET) {
		if (a.precision != NOTSET || a.min_runs != NOTSET || a.max_runs != NOTSET ||
		    a.point_budget_ms != NOTSET || a.budget_ms != NOTSET)
			bad("--repeat %ld is exactly %ld runs a point: it cannot be combined with --precision, "
			    "--min-runs, --max-runs, --point-budget or --budget", a.repeat, a.repeat);
		adaptive = 0, min_runs = max_runs = a.repeat, precision = point_budget_ms = NOTSET;
		return;
	}
	/* (--quick keeps the precision target: with --max-runs above its runs it is adaptive again) */
	if (a.quick)
		min_runs = QUICK_RUNS;
	if (a.min_runs != NOTSET)
		min_runs = a.min_runs;
	if (a.max_runs != NOTSET)
		max_runs = a.max_runs;
	else if (a.quick && a.precision == NOTSET)
		max_runs = min_runs;
	else
		max_runs = min_runs > DEF_MAX_RUNS ? min_runs : DEF_MAX_RUNS;
	if (a.precision != NOTSET)
		precision = a.precision;
	if (a.point_budget_ms != NOTSET)
		point_budget_ms = a.point_budget_ms;
	if (min_runs > max_runs)
		bad("--min-runs %ld is more than --max-runs %ld", min_runs, max_runs);
	if (min_runs == max_runs)
		adaptive = 0, precision = point_budget_ms = NOTSET;
}

static void choose_label(void)
{
	struct utsname u;
	const char *l = a.label;

	if (l == NULL || !*l) {
		/* The kernel release, made safe for a directory name (6.8.0-rc1+ -> 6.8.0-rc1_). */
		if (uname(&u) != 0)
			sb_die(SB_EXIT_ENV, "uname failed");
		l = u.release[0] == '.' || u.release[0] == '-' ? u.release + 1 : u.release;
		if ((label = strdup(l)) == NULL)
			sb_die(SB_EXIT_ENV, "out of memory");
		for (char *c = label; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
				*c = '_';
	} else if (strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(l) ||
		   l[0] == '.' || l[0] == '-') {
		bad("--label: '%s' must be letters, digits, '.', '_' and '-', not starting with '.' or '-'", l);
	} else {
		label = (char *)l;
	}
	if (strlen(label) + RUN_ID_TAIL > NAME_MAX_LEN)
		bad("--label: %zu characters: too long for a directory name with the date (at most %d)",
		    strlen(label), NAME_MAX_LEN - RUN_ID_TAIL);
}

static void check(void)
{
	if (!a.list && ntests == 0)
		bad("no testcase given");
	for (size_t i = 0; i < ntests; i++)
		if (!*tests[i] || strspn(tests[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		    strlen(tests[i]))
			bad("'%s' is not a testcase name (letters, digits and _ only)", tests[i]);
	points();
	profile_list();
	choose_placement();
	run_shape();
	stop_rule();
	choose_label();
	if (a.tune && a.no_lock)
		bad("--tune needs the machine lock: the settings it saves and restores are the machine's, not --no-lock's");
	/* several kernels: rounds of one run of every point each (--repeat R: R rounds); a
	 * stopping rule is not applied across guests */
	if (nkernels > 1 && (a.precision != NOTSET || a.min_runs != NOTSET || a.max_runs != NOTSET ||
			     a.point_budget_ms != NOTSET || a.budget_ms != NOTSET))
		bad("several --kernel run in fixed rounds: give --repeat R (R rounds), not --precision, "
		    "--min-runs, --max-runs or budgets");
}

/* ---- the answer ------------------------------------------------------------------- */

static void pair_list(const char *name, const char **list, size_t n)	/* one pair an element */
{
	for (size_t i = 0; i < n; i++)
		sb_pair(name, list[i]);
}

static void emit(void)
{
	char s[32], csv[4096] = "";
	size_t off = 0;

	pair_list("opt_tests", tests, ntests);
	pair_list("opt_params", params, nparams);
	pair_list("opt_pass", pass, npass);
	pair_list("vm_kernels", kernels, nkernels);
	pair_list("vm_boot_opts", vm_boot, nvm_boot);
	pair_list("vm_rest", vm_rest, nvm_rest);
	for (long i = 0; i < npoints; i++)
		sb_pair_n("opt_point_list", point_list[i]);
	sb_pair_n("opt_max", a.max);
	sb_pair_n("opt_min", a.min);
	sb_pair_n("opt_step", a.step);
	sb_pair_n("opt_max_points", a.max_points);
	sb_pair_n("opt_repeat", a.repeat);
	sb_pair_n("opt_budget_ms", a.budget_ms);
	sb_pair_n("opt_seed", a.seed);
	sb_pair_n("vm_cpus", a.vm_cpus);
	sb_pair_n("vm_rounds", nkernels > 1 ? (a.repeat != NOTSET ? a.repeat : min_runs) : NOTSET);
	sb_pair("opt_mode", a.mode);
	sb_pair("opt_label", a.label);
	sb_pair("opt_results", a.results);
	sb_pair("opt_profile", a.profile);
	sb_pair("opt_commit", a.commit);
	sb_pair_n("opt_fixed_warmup", a.warmup_ms != NOTSET || a.quick);
	sb_pair_n("opt_smt", a.smt);
	sb_pair_n("opt_list", a.list);
	sb_pair_n("opt_dry_run", a.dry_run);
	sb_pair_n("opt_quiet", a.quiet);
	sb_pair_n("opt_plot", a.plot);
	sb_pair_n("opt_profile_keep", a.profile_keep);
	sb_pair_n("opt_no_wait", a.no_wait);
	sb_pair_n("opt_no_lock", a.no_lock);
	sb_pair_n("opt_tune", a.tune);
	sb_pair_n("opt_no_history", a.no_history);
	/* --profile's task counts ("1,2,peak" -> "1,2"): sb-plan measures them too */
	if (a.profile) {
		const char *c = a.profile;
		while (*c) {
			size_t n = strcspn(c, ",");
			if (isdigit((unsigned char)*c) && off + n + 2 < sizeof(csv))
				off += snprintf(csv + off, sizeof(csv) - off, "%s%.*s", off ? "," : "", (int)n, c);
			c += n + (c[n] == ',');
		}
	}
	sb_pair("profile_counts", csv);
	sb_pair("points_mode", points_mode);
	sb_pair_n("args_largest", largest);
	sb_pair("placement", placement);
	sb_pair_n("period", period);
	sb_pair_n("samples", samples);
	sb_pair_n("warmup_samples", warmup_samples);
	sb_pair("rounded_note", rounded_note);
	sb_pair("label", label);
	sb_pair_n("adaptive", adaptive);
	sb_pair_n("min_runs", min_runs);
	sb_pair_n("max_runs", max_runs);
	sb_pair_n("precision", precision);
	sb_pair_n("point_budget_ms", point_budget_ms);
	sb_pair_n("auto_warmup_max", AUTO_WARMUP_MAX_S);
	sb_pair_n("auto_warmup_max_ms", AUTO_WARMUP_MAX_S * 1000L);
	/* the times as meta and --dry-run say them: seconds, decimals only where there are some */
	sb_pair("duration_text", secs(samples * period, s));
	sb_pair("warmup_fixed_text", secs(warmup_samples * period, s));
	sb_pair("precision_text", precision == NOTSET ? "" : secs(precision, s));
	sb_pair("point_budget_text", point_budget_ms == NOTSET ? "" : secs(point_budget_ms, s));
}

/* sb-sweepargs [--me NAME] -- ARG...: the pairs on stdout, or "help 1" for -h/--help;
 * sb-sweepargs [--me NAME] --usage: runtest.sh's --help text */
int main(int argc, char **argv)
{
	int i = 1;

	sb_util_init("runtest.sh");	/* its messages are runtest.sh's */
	if (i + 1 < argc && strcmp(argv[i], "--me") == 0) {
		me = argv[i + 1];
		i += 2;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("sb-sweepargs (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (i < argc && strcmp(argv[i], "--usage") == 0 && i + 1 == argc) {
		usage();
		sb_flush_stdout();
		return SB_EXIT_OK;
	}
	if (i >= argc || strcmp(argv[i], "--") != 0) {
		fputs("sb-sweepargs: usage: sb-sweepargs [--me NAME] -- ARG... | [--me NAME] --usage\n", stderr);
		return SB_EXIT_USAGE;
	}
	parse(argc - i - 1, argv + i + 1);
	if (a.help) {
		sb_pair("help", "1");
	} else {
		check();
		emit();
	}
	sb_flush_stdout();
	return SB_EXIT_OK;
}
