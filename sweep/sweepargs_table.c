/* sb-sweepargs' option table: runtest.sh's options, parsed and checked one by one into struct args and the lists, and its --help. */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "options.h"
#include "pairs.h"
#include "sweepargs.h"
#include "util.h"

const char *me = "./runtest.sh";	/* the command as the user runs it (--me) */

/* What the arguments say (struct args: sweepargs.h); parse() fills it in. */
struct args a = {
	NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET,
	NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET, NOTSET,
	NULL, "both", NULL, NULL, NULL, NULL, NULL,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
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
static void check_warmup(const char *, const char *);

#define AT(f) offsetof(struct args, f)
#define OPT_TITLE(t)			{ t, NULL, TITLE, 0, 0, NULL, "" }
#define OPT_FLAG(n, f, h)		{ n, NULL, FLAG, AT(f), 0, NULL, h }
#define OPT_COUNT(n, v, f, lo, h)	{ n, v, COUNT, AT(f), lo, NULL, h }
#define OPT_SECONDS(n, v, f, lo, h)	{ n, v, SECONDS, AT(f), lo, NULL, h }
#define OPT_TEXT(n, v, f, c, h)		{ n, v, TEXT, AT(f), 0, c, h }
#define OPT_CALL(n, v, c, h)		{ n, v, CALL, 0, 0, c, h }

/* In --help's order. An option: a row here, a field in struct args (sweepargs.h), its pair in
 * cmd_sweepargs.c's emit(). */
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
	OPT_CALL("--warmup", "S|auto", check_warmup,
		 "seconds of warmup each run discards first, or auto (the default):\n"
		 "until the rate settles, at most 1 s, where the runner can tell; else 1"),
	OPT_SECONDS("--warmup-min", "S", warmup_min_ms, 0,
		    "auto: at least S seconds of warmup (default: the rule's 3 samples)"),
	OPT_SECONDS("--warmup-max", "S", warmup_max_ms, 0,
		    "auto: at most S seconds (default 1, or --warmup-min when more)"),
	OPT_COUNT("--period-ms", "MS", period, 1, "sample period (default 500)"),
	{ "--precision", "PCT", PERCENT, AT(precision), 0, NULL,
	  "run a point until its 95% interval is within +-PCT % of its mean\n"
	  "(default 2), within the budgets below" },
	OPT_COUNT("--min-runs", "N", min_runs, 1, "independent runs of every point at least (default 3)"),
	OPT_COUNT("--max-runs", "N", max_runs, 1, "runs of a point at most (default 10)"),
	/* a budget of 0 s: nothing beyond --min-runs, or no limit? Neither: refused */
	OPT_SECONDS("--point-budget", "S", point_budget_ms, 1,
		    "seconds a point may take (default 30, more than 0); --min-runs always run"),
	OPT_SECONDS("--budget", "S", budget_ms, 1, "seconds the whole sweep may take (default 4.375 s times the points)"),
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
	{ "--calibrate", "TEST", ONLY, 0, 0, NULL,
	  "first: --sweeps K (default 4) sweeps of TEST with the options after\n"
	  "it, then the runs' noise and the drift between sweeps the history\n"
	  "learned, and what buys precision here (sb-history drift)" },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

/* The lists the arguments build, in their order. */
static const char **tests, **params, **pass, **kernels, **vm_boot, **vm_rest;
static size_t ntests, nparams, npass, nvm_boot, nvm_rest;
size_t nkernels;

static void add(const char ***list, size_t *n, const char *s)
{
	if ((*list = realloc(*list, (*n + 1) * sizeof(**list))) == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	(*list)[(*n)++] = s;
}

/* A usage error: one line, runtest.sh's own, and exit 2. */
void bad(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_die(SB_EXIT_USAGE, "%s (see %s --help)", buf, me);
}

void usage(void)
{
	printf("usage: %s TEST... [options]     run a scaling sweep of each TEST (\"all\": every one)\n", me);
	printf("       %s --list                 the testcases: name, modes, description, parameters\n", me);
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		if (p->help == NULL)
			continue;
		if (p->kind == TITLE)
			printf("%s%s\n", p == table + 1 ? "\n" : "", p->name);	/* after --list's row */
		else
			sb_help_row(p->name, p->arg, p->help, 19);
	}
	printf("\nWrites DIR/<test>/<label>-<YYYYmmddTHHMMSS>/{summary.csv,samples.csv,meta} and prints\n"
	       "the run directory on standard output. Exit: 0 done, 1 a point failed, 2 usage error,\n"
	       "3 environment error (build, results directory), 130 interrupted.\n"
	       "Testing: SB_BUILD selects the build directory (default build), SB_TESTS_DIR a\n"
	       "directory of <test>_processes/<test>_threads binaries to run instead of SB_BUILD/bin;\n"
	       "SB_VM_BOOT a program to use instead of vm/boot.sh.\n");
}

/* ---- values ----------------------------------------------------------------------- */

long count(const char *opt, const char *s, long lo)
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

static void check_warmup(const char *opt, const char *v)	/* --warmup S|auto (the last one given counts) */
{
	a.warmup_auto = strcmp(v, "auto") == 0;
	if (!a.warmup_auto && (!*v || strspn(v, "0123456789.") != strlen(v)))
		bad("%s: '%s' is not a number of seconds like 5 or 0.5, nor auto", opt, v);
	a.warmup_ms = a.warmup_auto ? NOTSET : thousandths(opt, v, "seconds");
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
void parse(int argc, char **argv)
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

void check_tests(void)	/* a testcase given, each one's name */
{
	if (!a.list && ntests == 0)
		bad("no testcase given");
	for (size_t i = 0; i < ntests; i++)
		if (!*tests[i] || strspn(tests[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		    strlen(tests[i]))
			bad("'%s' is not a testcase name (letters, digits and _ only)", tests[i]);
}

static void pair_list(const char *name, const char **list, size_t n)	/* one pair an element */
{
	for (size_t i = 0; i < n; i++)
		sb_pair(name, list[i]);
}

void emit_lists(void)	/* the lists the arguments build, first in the answer */
{
	pair_list("opt_tests", tests, ntests);
	pair_list("opt_params", params, nparams);
	pair_list("opt_pass", pass, npass);
	pair_list("vm_kernels", kernels, nkernels);
	pair_list("vm_boot_opts", vm_boot, nvm_boot);
	pair_list("vm_rest", vm_rest, nvm_rest);
}
