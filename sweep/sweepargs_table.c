/* sb-sweepargs' option table: runtest.sh's options as a cli/ table, walked in order into struct args and the lists, and its --help. */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
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

static void set_mode(void *, const struct sb_cli_opt *, const char *, int);
static void set_param(void *, const struct sb_cli_opt *, const char *, int);
static void set_nonempty(void *, const struct sb_cli_opt *, const char *, int);
static void set_commit(void *, const struct sb_cli_opt *, const char *, int);
static void set_kernel(void *, const struct sb_cli_opt *, const char *, int);
static void set_vm(void *, const struct sb_cli_opt *, const char *, int);
static void set_warmup(void *, const struct sb_cli_opt *, const char *, int);
static void set_help(void *, const struct sb_cli_opt *, const char *, int);

enum { SWEEP, VM };	/* a row's group: VM's rows go to vm/boot.sh, not to the sweep in the guest */
#define AT(f) offsetof(struct args, f)
#define OPT_TITLE(t)			{ .kind = SB_CLI_TITLE, .help = t }
#define OPT_FLAG(n, f, h)		{ .name = n, .kind = SB_CLI_FLAG, .field = AT(f), .help = h }
#define OPT_COUNT(n, v, f, l, h)	{ .name = n, .arg = v, .kind = SB_CLI_COUNT, .field = AT(f), .lo = l, .help = h }
/* lo 1: more than 0 */
#define OPT_SECONDS(n, v, f, l, h)	{ .name = n, .arg = v, .kind = SB_CLI_SECONDS, .field = AT(f), .lo = l, .help = h }
#define OPT_TEXT(n, v, f, h)		{ .name = n, .arg = v, .kind = SB_CLI_STRING, .field = AT(f), .help = h }
/* the value checked by c, then kept in f */
#define OPT_CHECKED(n, v, f, c, h)	{ .name = n, .arg = v, .kind = SB_CLI_CALL, .field = AT(f), .set = c, .help = h }
#define OPT_CALL(n, v, c, g, h)		{ .name = n, .arg = v, .kind = SB_CLI_CALL, .set = c, .group = g, .help = h }
#define OPT_ONLY(n, v, h)		{ .name = n, .arg = v, .kind = SB_CLI_DOC, .help = h }

/* In --help's order. An option: a row here, a field in struct args (sweepargs.h), its pair in
 * cmd_sweepargs.c's emit(). */
static const struct sb_cli_opt table[] = {
	{ .name = "list", .kind = SB_CLI_FLAG, .field = AT(list) },	/* in --help's first lines */
	OPT_TITLE("\nSweep (task counts):"),
	OPT_COUNT("max-procs", "N", max, 1, "largest task count (default: the cores hwloc finds; PUs with --smt)"),
	OPT_COUNT("min-procs", "N", min, 1, "smallest task count (default 1)"),
	OPT_TEXT("points", "P", points,
		 "auto (the default): seeds (1, 2, the topology points, the powers\n"
		 "of two, the largest), then the counts each mode's curve needs (its\n"
		 "peak, its bends); all: every count (will-it-scale); \"topology\": 1,\n"
		 "one last-level cache, each NUMA node's worth, each package's worth,\n"
		 "3/4 of the machine and all of it; or exactly a LIST, e.g. 1,2,4,8,96\n"
		 "(topology and LIST cannot be combined with the range options)"),
	OPT_COUNT("step", "S", step, 1, "every count: min, then the multiples of S, then max (--points all)"),
	OPT_COUNT("max-points", "N", max_points, 1,
		  "--points auto: task counts a mode at most (default 24; seeds always run)"),
	OPT_FLAG("smt", smt, "count hardware threads (PUs), not cores; places tasks on PUs"),
	OPT_TITLE("Each point:"),
	OPT_CHECKED("mode", "M", mode, set_mode,
		 "processes, threads, both (default; a testcase meant one way\n"
		 "runs that way) or all (every mode the binaries run)"),
	OPT_SECONDS("duration", "S", duration_ms, 0, "measured seconds of each run (default 1; decimals allowed)"),
	OPT_CALL("warmup", "S|auto", set_warmup, SWEEP,
		 "seconds of warmup each run discards first, or auto (the default):\n"
		 "until the rate settles, at most 1 s, where the runner can tell; else 1"),
	OPT_SECONDS("warmup-min", "S", warmup_min_ms, 0,
		    "auto: at least S seconds of warmup (default: the rule's 3 samples)"),
	OPT_SECONDS("warmup-max", "S", warmup_max_ms, 0,
		    "auto: at most S seconds (default 1, or --warmup-min when more)"),
	OPT_COUNT("period-ms", "MS", period, 1, "sample period (default 500)"),
	{ .name = "precision", .arg = "PCT", .kind = SB_CLI_PERCENT, .field = AT(precision),
	  .help = "run a point until its 95% interval is within +-PCT % of its mean\n"
		  "(default 2), within the budgets below" },
	OPT_COUNT("min-runs", "N", min_runs, 1, "independent runs of every point at least (default 3)"),
	OPT_COUNT("max-runs", "N", max_runs, 1, "runs of a point at most (default 10)"),
	/* a budget of 0 s: nothing beyond --min-runs, or no limit? Neither: refused */
	OPT_SECONDS("point-budget", "S", point_budget_ms, 1,
		    "seconds a point may take (default 30, more than 0); --min-runs always run"),
	OPT_SECONDS("budget", "S", budget_ms, 1, "seconds the whole sweep may take (default 4.375 s times the points)"),
	OPT_COUNT("repeat", "R", repeat, 1, "exactly R runs of each point (no stopping rule, no budgets)"),
	OPT_COUNT("seed", "N", seed, 0, "shuffle each round's order with seed N (default: alternate the direction)"),
	OPT_FLAG("quick", quick, "exploration: 2 runs of 0.5 s warmup + 0.5 s measured a point"),
	OPT_TEXT("placement", "P", placement, "cores, pus, spread or none (default cores, pus with --smt)"),
	OPT_FLAG("no-affinity", no_affinity, "same as --placement none"),
	OPT_CALL("param", "NAME=VALUE", set_param, SWEEP, "a testcase parameter (repeatable; recorded in meta)"),
	OPT_TITLE("Results:"),
	OPT_TEXT("label", "NAME", label, "names the run (default: the kernel release, uname -r)"),
	OPT_CHECKED("results", "DIR", results, set_nonempty, "where runs go (default: results/ of this checkout)"),
	OPT_CHECKED("commit", "SHA", commit, set_commit,
		 "the measured kernel's commit, in meta and the history (default $SB_COMMIT)"),
	OPT_FLAG("no-history", no_history,
		 "do not add the finished runs to DIR/history.db (or $SB_HISTORY: sb-history)"),
	OPT_FLAG("dry-run", dry_run, "print the points, modes, placement and estimated time, then exit"),
	OPT_FLAG("quiet", quiet, "no progress, no notes, no table (errors and warnings stay)"),
	OPT_FLAG("plot", plot, "draw the scaling curve in the terminal at the end (plot/plot.py)"),
	OPT_TITLE("The machine (docs/RUNTEST.md, \"One sweep at a time\"):"),
	OPT_FLAG("no-wait", no_wait,		/* machine/machine.sh */
		 "fail at once (exit 3, naming it) when another sweep holds the machine,\n"
		 "instead of waiting for it"),
	OPT_FLAG("no-lock", no_lock, "measure without the machine lock, on top of any other sweep (in meta)"),
	OPT_FLAG("tune", tune, "governor performance, turbo off, ASLR off for the sweep; restored at its end"),
	OPT_ONLY("check-system", NULL,
		 "what on this machine disturbs a measurement, and how to change it\n(as the only argument)"),
	OPT_TITLE("Profiles (docs/PROFILE.md):"),
	OPT_CHECKED("profile", "LIST", profile, set_nonempty,	/* profile/record.sh */
		 "after the measured runs, one extra run under perf at these points of\n"
		 "each mode: task counts, \"peak\" (the mode's best), \"max\" (its largest);\n"
		 "not empty"),
	OPT_FLAG("profile-keep", profile_keep, "keep perf.data too (large)"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_CALL, .set = set_help, .help = "this text" },
	OPT_TITLE("In a VM (docs/VM.md): the same sweep inside QEMU guests booted on chosen kernels:"),
	OPT_CALL("kernel", "IMAGE", set_kernel, VM,
		 "boot IMAGE (a bzImage) and run the sweep in it (repeatable: several\n"
		 "kernels are measured in alternating rounds, one run per point each)"),
	{ .name = "vm-cpus", .arg = "N", .kind = SB_CLI_COUNT, .field = AT(vm_cpus), .lo = 1, .group = VM,
	  .help = "vCPUs, pinned one-to-one to host cores (default: the largest point,\n"
		  "at most the host's cores)" },
	OPT_CALL("vm-mem", "MIB", set_vm, VM, "guest memory (default 1024)"),
	OPT_CALL("vm-accel", "A", set_vm, VM, "kvm, tcg or auto (default auto: KVM when /dev/kvm is usable)"),
	OPT_CALL("vm-fs", "FS", set_vm, VM, "how the guest sees the host's root: 9p, virtiofs or auto"),
	OPT_CALL("vm-append", "ARGS", set_vm, VM, "more kernel command line"),
	OPT_CALL("vm-boot-timeout", "S", set_vm, VM, "seconds a guest may take to come up"),
	OPT_ONLY("version", NULL, "scalebench's version and git revision (as the only argument)"),
	OPT_ONLY("calibrate", "TEST",
		 "first: --sweeps K (default 4) sweeps of TEST with the options after\n"
		 "it, then the runs' noise and the drift between sweeps the history\n"
		 "learned, and what buys precision here (sb-history drift)"),
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

static const struct sb_cli cli;

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
	sb_cli_list(&cli, stdout);
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

/* A text row's value kept (after its check). */
static void keep(void *opts, const struct sb_cli_opt *row, const char *v)
{
	*(const char **)((char *)opts + row->field) = v;
}

static void set_mode(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	(void)value;
	if (strcmp(v, "processes") && strcmp(v, "threads") && strcmp(v, "both") && strcmp(v, "all"))
		bad("--mode: unknown mode '%s' (processes, threads, both)", v);
	keep(opts, row, v);
}

static void set_param(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	const char *opt = "--param";
	size_t n = 0;

	(void)opts;
	(void)row;
	(void)value;
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

static void set_nonempty(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	(void)value;
	if (!*v && row->field == AT(results))
		bad("--results: empty directory name");
	/* a run directory's path travels in lines: the output, the janitor's $TMP/active (as TMPDIR's) */
	for (const char *c = v; row->field == AT(results) && *c; c++)
		if (iscntrl((unsigned char)*c))
			bad("--results: the directory name holds a control character (a newline?): choose one without");
	if (!*v)
		bad("--profile: empty list (give task counts, 'peak' or 'max')");	/* as --points '' is */
	keep(opts, row, v);
}

static void set_commit(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	(void)value;
	if (!is_hex(v))
		bad("--commit: '%s' is not a commit hash (7 to 64 hex digits)", v);
	keep(opts, row, v);
}

static void set_kernel(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	const char *opt = "--kernel";
	struct stat st;

	(void)opts;
	(void)row;
	(void)value;
	if (!*v)
		bad("%s: empty file name", opt);
	/* bad input, exit 2 as elsewhere (vm/boot.sh says 3 only for an unreadable one) */
	if (stat(v, &st) != 0)
		sb_die(SB_EXIT_USAGE, "%s %s: no such file", opt, v);
	if (!S_ISREG(st.st_mode))
		sb_die(SB_EXIT_USAGE, "%s %s: not a file (a kernel image, bzImage)", opt, v);
	add(&kernels, &nkernels, v);
}

static void set_warmup(void *opts, const struct sb_cli_opt *row, const char *v, int value)	/* --warmup S|auto (the last one given counts) */
{
	const char *opt = "--warmup";

	(void)opts;
	(void)row;
	(void)value;
	a.warmup_auto = strcmp(v, "auto") == 0;
	if (!a.warmup_auto && (!*v || strspn(v, "0123456789.") != strlen(v)))
		bad("%s: '%s' is not a number of seconds like 5 or 0.5, nor auto", opt, v);
	a.warmup_ms = a.warmup_auto ? NOTSET : thousandths(opt, v, "seconds");
}

static void set_vm(void *opts, const struct sb_cli_opt *row, const char *v, int value)	/* --vm-mem M: vm/boot.sh's --mem M */
{
	char *name = malloc(strlen(row->name));

	(void)opts;
	(void)value;
	if (name == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	sprintf(name, "--%s", row->name + 3);
	add(&vm_boot, &nvm_boot, name);
	add(&vm_boot, &nvm_boot, v);
}

/* ---- the arguments ---------------------------------------------------------------- */

static void set_help(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	(void)opts;
	(void)row;
	(void)v;
	(void)value;
	a.help = 1;
}

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	bad("%s", msg);
}

/* a runner option the sweep does not read itself (the runner's table, sweep=yes): its values */
static int runner_option(const char *opt)
{
	int takes;

	return sb_options_sweep(opt, &takes) ? takes : -1;
}

static const struct sb_cli cli = {
	.opts = table, .nopts = NOPTS, .equals = 1, .foreign = runner_option, .width = 19,
	.usage_error = cli_error,
};

/* ARGV as runtest.sh's parse_args read it: in order, each error as met */
void parse(int argc, char **argv)
{
	const char *env = getenv("SB_COMMIT");
	struct sb_cli_scan s;
	enum sb_cli_step st;

	a.commit = env && *env ? env : NULL;
	sb_cli_scan_init(&s, argc, argv);
	while (!a.help && (st = sb_cli_next(&cli, &s, &a)) != SB_CLI_END) {
		if (st == SB_CLI_OPERAND && !s.after_dash_dash && strcmp(s.word, "-") == 0)
			bad("unknown option '%s'", s.word);
		if (st == SB_CLI_OPERAND)
			add(&tests, &ntests, s.word);
		if (st == SB_CLI_FOREIGN) {	/* to the runner as given */
			add(&pass, &npass, strdup(s.word));
			if (s.value)
				add(&pass, &npass, s.value);
		}
		/* the sweep in a guest: every argument but the VM's own */
		if (st != SB_CLI_OPTION || s.o->group != VM)
			for (int k = s.first; k < s.first + s.n; k++)
				add(&vm_rest, &nvm_rest, argv[k]);
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
