/* Command-line options of a testcase binary: one cli/ table, whence the parse, --help, --list-options and the checks. */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "params.h"
#include "util.h"

/* More tasks than Linux can ever have pids (PID_MAX_LIMIT) cannot run. */
#define MAX_TASKS 4194304

static const struct sb_cli_choice placements[] = {
	{ "cores", SB_PLACE_CORES }, { "pus", SB_PLACE_PUS }, { "spread", SB_PLACE_SPREAD }, { "none", SB_PLACE_NONE },
	{ NULL, 0 },
};
static const struct sb_cli_choice formats[] = {
	{ "text", SB_FMT_TEXT }, { "csv", SB_FMT_CSV }, { "samples", SB_FMT_SAMPLES }, { NULL, 0 },
};

static void set_warmup(void *opts, const struct sb_cli_opt *row, const char *arg, int value);
static void set_param(void *opts, const struct sb_cli_opt *row, const char *arg, int value);
static void list_options(void *opts, const struct sb_cli_opt *row, const char *arg, int value);
static void version(void *opts, const struct sb_cli_opt *row, const char *arg, int value);

enum { NOSWEEP, SWEEP };	/* a row's group: runtest.sh passes it to every run unchanged */
#define AT(f) offsetof(struct sb_options, f)
#define OPT_NUMBER(l, n, a, f, l0, h0, sw, h) \
	{ .letter = l, .name = n, .arg = a, .kind = SB_CLI_LONG, .field = AT(f), .lo = l0, .hi = h0, .group = sw, .help = h }
#define OPT_SECONDS(n, a, f, l0, h0, sw, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_SECONDS, .field = AT(f), .lo = l0, .hi = h0, .group = sw, .help = h }
#define OPT_CHOICE(n, a, f, c, msg, sw, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_CHOICE, .field = AT(f), .choices = c, .bad = msg, .group = sw, .help = h }
#define OPT_STRING(n, a, f, sw, h)	{ .name = n, .arg = a, .kind = SB_CLI_STRING, .field = AT(f), .group = sw, .help = h }
#define OPT_SET(l, n, f, v, h)		{ .letter = l, .name = n, .kind = SB_CLI_SET, .field = AT(f), .lo = v, .help = h }
#define OPT_FLAG(l, n, f, h)		OPT_SET(l, n, f, 1, h)
#define OPT_CALL(l, n, a, fn, sw, h)	{ .letter = l, .name = n, .arg = a, .kind = SB_CLI_CALL, .set = fn, .group = sw, .help = h }

/* In --help's order. Adding an option: a row here, a field in struct sb_options, its consumer. */
static const struct sb_cli_opt table[] = {
	OPT_NUMBER('t', "tasks", "N", tasks, 1, MAX_TASKS, NOSWEEP,
		   "tasks (processes or threads) to run (default 1)"),
	OPT_NUMBER('s', "samples", "N", samples, 0, 100000000, NOSWEEP,
		   "measured samples, 0 = until interrupted (default 5)"),
	OPT_CALL(0, "warmup", "N|auto", set_warmup, NOSWEEP,
		 "N samples discarded first, or auto: until the rate settles (default auto)"),
	OPT_SECONDS("warmup-min", "S", warmup_min_ms, 0, 86400, SWEEP,
		    "--warmup auto: at least S seconds of warmup (default 0; decimals allowed)"),
	OPT_SECONDS("warmup-max", "S", warmup_max_ms, 0, 86400, SWEEP,
		    "--warmup auto: at most S seconds of warmup (default 5; not below --warmup-min)"),
	OPT_NUMBER(0, "warmup-period-ms", "MS", warmup_period_ms, 1, 3600000, SWEEP,
		   "--warmup auto: judge it on samples of MS (default 50, at most --period-ms)"),
	OPT_NUMBER(0, "period-ms", "MS", period_ms, 1, 3600000, SWEEP,
		   "sample period in milliseconds (default 1000)"),
	OPT_CHOICE("placement", "P", placement, placements,
		   "--placement: unknown placement '%s' (cores, pus, spread, none)", SWEEP,
		   "cores, pus, spread or none (default cores)"),
	OPT_SET('m', NULL, placement, SB_PLACE_PUS, "same as --placement pus (hardware threads)"),
	OPT_SET('n', NULL, placement, SB_PLACE_NONE, "same as --placement none (no affinity)"),
	OPT_STRING("cpus", "LIST", cpus, NOSWEEP, "use only these PUs, e.g. 0-7,16 (OS numbering)"),
	OPT_NUMBER(0, "stall-timeout", "S", stall_timeout, 1, 86400, SWEEP,
		   "fail when no task counts for S seconds (default 30)"),
	OPT_FLAG('v', NULL, verbose, "per-task rates in every sample"),
	OPT_CHOICE("format", "F", format, formats, "--format: unknown format '%s' (text, csv, samples)", NOSWEEP,
		   "text (will-it-scale's), csv or samples (default text)"),
	OPT_NUMBER(0, "run", "N", run, 1, 1000000000, NOSWEEP,
		   "the number in the run column of --format samples (default 1)"),
	OPT_FLAG(0, "no-header", no_header, "no CSV header line (--format csv or samples)"),
	OPT_CALL(0, "param", "NAME=VALUE", set_param, SWEEP, "set a testcase parameter (repeatable)"),
	OPT_FLAG(0, "timing", timing, "print the start and teardown times of the tasks on stderr"),
	OPT_FLAG(0, "print-header", print_header, "print the CSV header line of --format and exit"),
	OPT_FLAG(0, "print-placement", print_placement, "print task -> PU/core/NUMA/package and exit"),
	OPT_FLAG(0, "check", check, "validate options, parameters, topology and placement, then exit"),
	OPT_FLAG(0, "info", info, "print the testcase's name, modes and parameters"),
	OPT_CALL(0, "list-options", NULL, list_options, NOSWEEP, "these options, one per line, machine-readable"),
	OPT_CALL(0, "version", NULL, version, NOSWEEP, "scalebench's version and git revision"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_HELP, .help = "this text" },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

static const struct sb_options defaults = {
	.tasks = 1, .samples = 5, .warmup = SB_WARMUP_AUTO, .warmup_min_ms = 0, .warmup_max_ms = 5000,
	.period_ms = 1000, .stall_timeout = 30, .run = 1,
};

static const struct sb_cli cli;

static __attribute__((noreturn)) void usage(void)
{
	printf("usage: %s [options]\n", sb_prog);
	sb_cli_list(&cli, stdout);
	sb_params_usage(stdout);
	sb_flush_stdout();
	sb_exit(SB_EXIT_OK);
}

/* option=-t,--tasks arg=N sweep=no help=... : one line per row, help last (it has blanks). */
static void list_options(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	(void)opts;
	(void)row;
	(void)arg;
	(void)value;
	for (const struct sb_cli_opt *p = table; p < table + NOPTS; p++) {
		printf("option=");
		if (p->letter)
			printf("-%c%s", p->letter, p->name ? "," : "");
		if (p->name)
			printf("--%s", p->name);
		printf(" arg=%s sweep=%s help=%s\n", p->arg ? p->arg : "", p->group == SWEEP ? "yes" : "no", p->help);
	}
	sb_flush_stdout();
	sb_exit(SB_EXIT_OK);
}

static void version(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	(void)opts;
	(void)row;
	(void)arg;
	(void)value;
	printf("%s (scalebench) %s git %s\n", sb_prog, SB_VERSION, SB_GIT_REVISION);
	sb_flush_stdout();
	sb_exit(SB_EXIT_OK);
}

/* --warmup N|auto */
static void set_warmup(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	struct sb_options *o = opts;

	(void)row;
	(void)value;
	if (strcmp(arg, "auto") == 0) {
		o->warmup = SB_WARMUP_AUTO;
		return;
	}
	if (strspn(arg, "0123456789") != strlen(arg) || !*arg)
		sb_die(SB_EXIT_USAGE, "--warmup: '%s' is neither a whole number nor auto", arg);
	o->warmup = (unsigned long)sb_parse_ll("--warmup", arg, 0, 100000000);
}

static void set_param(void *opts, const struct sb_cli_opt *row, const char *arg, int value)
{
	(void)opts;
	(void)row;
	(void)value;
	sb_params_set(arg);
}

/* a value's error: one line */
static __attribute__((noreturn)) void value_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	sb_die(SB_EXIT_USAGE, "%s", msg);
}

static __attribute__((noreturn)) void unknown(const struct sb_cli *c, const char *typed, int optopt)
{
	/* "--check=1": getopt's optopt is the row's value (a letter, or 256 + a long-only row) */
	const struct sb_cli_opt *p = optopt && strncmp(typed, "--", 2) == 0 ? sb_cli_row(c, optopt) : NULL;

	if (p != NULL)
		sb_usage_error("option '--%s' takes no value", p->name);
	if (optopt)
		sb_usage_error("unknown option '-%c'", optopt);
	sb_usage_error("unknown option '%s'", typed);
}

static __attribute__((noreturn)) void missing(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)c;
	(void)optopt;
	sb_usage_error("option '%s' needs a value", typed);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = NOPTS, .quiet = 1, .long_labels = 1, .runner_columns = 1,
	.bad_number = "%s: '%s' is out of range (%ld..%ld)", .not_number = "%s: '%s' is not a whole number",
	.usage_error = value_error, .unknown = unknown, .missing = missing, .help = usage,
};

int sb_options_sweep(const char *opt, int *takes_arg)
{
	const struct sb_cli_opt *p = sb_cli_find(&cli, opt);

	if (p == NULL || p->group != SWEEP)
		return 0;
	*takes_arg = p->arg != NULL;
	return 1;
}

void sb_options_parse(int argc, char **argv, struct sb_options *o)
{
	*o = defaults;
	optind = sb_cli_parse(&cli, argc, argv, o);
	if (optind < argc)
		sb_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->format == SB_FMT_TEXT && (o->no_header || o->print_header))
		sb_die(SB_EXIT_USAGE, "--%s: --format text has no header line (use --format csv or samples)",
		       o->no_header ? "no-header" : "print-header");
	if (o->no_header && o->print_header)
		sb_die(SB_EXIT_USAGE, "--print-header contradicts --no-header");
	/* (not "the cap wins" in silence: the caller asked for both) */
	if (o->warmup_min_ms > o->warmup_max_ms)
		sb_die(SB_EXIT_USAGE, "--warmup-min %g s is more than --warmup-max %g s",
		       (double)o->warmup_min_ms / 1000, (double)o->warmup_max_ms / 1000);
}
