/* Command-line options of a testcase binary: one table, whence getopt_long's arrays, --help, --list-options and the checks. */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "params.h"
#include "util.h"

/* More tasks than Linux can ever have pids (PID_MAX_LIMIT) cannot run. */
#define MAX_TASKS 4194304

static const char *const placement_names[] = { "cores", "pus", "spread", "none", NULL };
static const char *const format_names[] = { "text", "csv", "samples", NULL };

enum kind {
	NUMBER,		/* a whole number in [lo, hi], into an unsigned long */
	AUTO_NUMBER,	/* NUMBER, or "auto": SB_WARMUP_AUTO */
	SECONDS,	/* seconds in [lo, hi], up to 3 decimals, as milliseconds into an unsigned long */
	CHOICE,		/* one of names[], into an enum: its index */
	STRING,		/* the argument as given, into a const char * */
	SET,		/* no argument: lo into an int or enum */
	PARAM,		/* --param NAME=VALUE, for the testcase (params.c) */
	HELP,		/* print the usage and exit */
	LIST,		/* print the table, machine-readable, and exit */
	VERSION,	/* print the version and exit */
};

struct opt {
	char letter;		/* short form, or 0 */
	const char *name;	/* long form without "--", or NULL */
	const char *arg;	/* the argument's name, or NULL: it takes none */
	enum kind kind;
	size_t field;		/* offsetof(struct sb_options, what it sets) */
	long long lo, hi;	/* NUMBER: the range; SET: lo is the value */
	const char *const *names;	/* CHOICE: the values, in enum order */
	int sweep;		/* runtest.sh passes it to every run unchanged */
	const char *help;
};

enum { NOSWEEP, SWEEP };
#define AT(f) offsetof(struct sb_options, f)
#define OPT_NUMBER(l, n, a, f, lo, hi, sw, h)	{ l, n, a, NUMBER, AT(f), lo, hi, NULL, sw, h }
#define OPT_SECONDS(n, a, f, lo, hi, sw, h)	{ 0, n, a, SECONDS, AT(f), lo, hi, NULL, sw, h }
#define OPT_AUTO_NUMBER(n, a, f, lo, hi, sw, h)	{ 0, n, a, AUTO_NUMBER, AT(f), lo, hi, NULL, sw, h }
#define OPT_CHOICE(n, a, f, names, sw, h)	{ 0, n, a, CHOICE, AT(f), 0, 0, names, sw, h }
#define OPT_STRING(n, a, f, sw, h)		{ 0, n, a, STRING, AT(f), 0, 0, NULL, sw, h }
#define OPT_SET(l, n, f, v, h)			{ l, n, NULL, SET, AT(f), v, 0, NULL, NOSWEEP, h }
#define OPT_FLAG(l, n, f, h)			OPT_SET(l, n, f, 1, h)
#define OPT_ACTION(l, n, a, k, sw, h)		{ l, n, a, k, 0, 0, 0, NULL, sw, h }

/* In --help's order. Adding an option: a row here, a field in struct sb_options, its consumer. */
static const struct opt table[] = {
	OPT_NUMBER('t', "tasks", "N", tasks, 1, MAX_TASKS, NOSWEEP,
		   "tasks (processes or threads) to run (default 1)"),
	OPT_NUMBER('s', "samples", "N", samples, 0, 100000000, NOSWEEP,
		   "measured samples, 0 = until interrupted (default 5)"),
	OPT_AUTO_NUMBER("warmup", "N|auto", warmup, 0, 100000000, NOSWEEP,
			"N samples discarded first, or auto: until the rate settles (default auto)"),
	OPT_SECONDS("warmup-min", "S", warmup_min_ms, 0, 86400, SWEEP,
		    "--warmup auto: at least S seconds of warmup (default 0; decimals allowed)"),
	OPT_SECONDS("warmup-max", "S", warmup_max_ms, 0, 86400, SWEEP,
		    "--warmup auto: at most S seconds of warmup (default 5; not below --warmup-min)"),
	OPT_NUMBER(0, "warmup-period-ms", "MS", warmup_period_ms, 1, 3600000, SWEEP,
		   "--warmup auto: judge it on samples of MS (default 50, at most --period-ms)"),
	OPT_NUMBER(0, "period-ms", "MS", period_ms, 1, 3600000, SWEEP,
		   "sample period in milliseconds (default 1000)"),
	OPT_CHOICE("placement", "P", placement, placement_names, SWEEP,
		   "cores, pus, spread or none (default cores)"),
	OPT_SET('m', NULL, placement, SB_PLACE_PUS, "same as --placement pus (hardware threads)"),
	OPT_SET('n', NULL, placement, SB_PLACE_NONE, "same as --placement none (no affinity)"),
	OPT_STRING("cpus", "LIST", cpus, NOSWEEP, "use only these PUs, e.g. 0-7,16 (OS numbering)"),
	OPT_NUMBER(0, "stall-timeout", "S", stall_timeout, 1, 86400, SWEEP,
		   "fail when no task counts for S seconds (default 30)"),
	OPT_FLAG('v', NULL, verbose, "per-task rates in every sample"),
	OPT_CHOICE("format", "F", format, format_names, NOSWEEP,
		   "text (will-it-scale's), csv or samples (default text)"),
	OPT_NUMBER(0, "run", "N", run, 1, 1000000000, NOSWEEP,
		   "the number in the run column of --format samples (default 1)"),
	OPT_FLAG(0, "no-header", no_header, "no CSV header line (--format csv or samples)"),
	OPT_ACTION(0, "param", "NAME=VALUE", PARAM, SWEEP, "set a testcase parameter (repeatable)"),
	OPT_FLAG(0, "timing", timing, "print the start and teardown times of the tasks on stderr"),
	OPT_FLAG(0, "print-header", print_header, "print the CSV header line of --format and exit"),
	OPT_FLAG(0, "print-placement", print_placement, "print task -> PU/core/NUMA/package and exit"),
	OPT_FLAG(0, "check", check, "validate options, parameters, topology and placement, then exit"),
	OPT_FLAG(0, "info", info, "print the testcase's name, modes and parameters"),
	OPT_ACTION(0, "list-options", NULL, LIST, NOSWEEP, "these options, one per line, machine-readable"),
	OPT_ACTION(0, "version", NULL, VERSION, NOSWEEP, "scalebench's version and git revision"),
	OPT_ACTION('h', "help", NULL, HELP, NOSWEEP, "this text"),
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

static const struct sb_options defaults = {
	.tasks = 1, .samples = 5, .warmup = SB_WARMUP_AUTO, .warmup_min_ms = 0, .warmup_max_ms = 5000,
	.period_ms = 1000, .stall_timeout = 30, .run = 1,
};

/* "-t/--tasks", "--warmup", "-v": how messages name an option. */
static const char *label(const struct opt *p, char *buf, size_t size)
{
	if (p->letter && p->name)
		snprintf(buf, size, "-%c/--%s", p->letter, p->name);
	else if (p->name)
		snprintf(buf, size, "--%s", p->name);
	else
		snprintf(buf, size, "-%c", p->letter);
	return buf;
}

/* "5", "0.25": seconds with up to 3 decimals, in [lo, hi] s, as milliseconds (exits 2 otherwise). */
static unsigned long seconds_ms(const char *name, const char *s, long long lo, long long hi)
{
	const char *dot = strchr(s, '.');
	size_t nint = dot ? (size_t)(dot - s) : strlen(s), nfrac = dot ? strlen(dot + 1) : 0;
	unsigned long long ms = 0;

	if (!*s || strspn(s, "0123456789.") != strlen(s) || nint == 0 || (dot && (nfrac == 0 || strchr(dot + 1, '.'))))
		sb_die(SB_EXIT_USAGE, "%s: '%s' is not a number of seconds like 5 or 0.5", name, s);
	if (nfrac > 3)
		sb_die(SB_EXIT_USAGE, "%s: '%s' has more than 3 decimals", name, s);
	for (size_t i = 0; i < nint && ms <= (unsigned long long)hi * 1000; i++)
		ms = ms * 10 + (unsigned long long)(s[i] - '0');
	for (size_t i = 0; i < 3; i++)
		ms = ms * 10 + (unsigned long long)(i < nfrac ? dot[1 + i] - '0' : 0);
	if (ms < (unsigned long long)lo * 1000 || ms > (unsigned long long)hi * 1000)
		sb_die(SB_EXIT_USAGE, "%s: '%s' is out of range (%lld..%lld seconds)", name, s, lo, hi);
	return (unsigned long)ms;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [options]\n", sb_prog);
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		char shortf[4] = "", longf[64] = "";

		if (p->letter)
			snprintf(shortf, sizeof(shortf), "-%c%s", p->letter, p->name ? "," : "");
		if (p->name)
			snprintf(longf, sizeof(longf), "--%s%s%s", p->name, p->arg ? " " : "",
				 p->arg ? p->arg : "");
		fprintf(f, "  %-3s %-18s %s\n", shortf, longf, p->help);
	}
	sb_params_usage(f);
}

/* option=-t,--tasks arg=N sweep=no help=... : one line per row, help last (it has blanks). */
static void list_options(FILE *f)
{
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		fprintf(f, "option=");
		if (p->letter)
			fprintf(f, "-%c%s", p->letter, p->name ? "," : "");
		if (p->name)
			fprintf(f, "--%s", p->name);
		fprintf(f, " arg=%s sweep=%s help=%s\n", p->arg ? p->arg : "",
			p->sweep ? "yes" : "no", p->help);
	}
}

static int choose(const struct opt *p, const char *arg)
{
	char known[128] = "";
	size_t off = 0;

	for (int i = 0; p->names[i]; i++) {
		if (strcmp(arg, p->names[i]) == 0)
			return i;
		off += snprintf(known + off, sizeof(known) - off, "%s%s", i ? ", " : "", p->names[i]);
	}
	sb_die(SB_EXIT_USAGE, "--%s: unknown %s '%s' (%s)", p->name, p->name, arg, known);
}

static void apply(const struct opt *p, const char *arg, struct sb_options *o)
{
	char *field = (char *)o + p->field;
	char name[64];

	switch (p->kind) {
	case NUMBER:
		*(unsigned long *)field = (unsigned long)sb_parse_ll(label(p, name, sizeof(name)),
								     arg, p->lo, p->hi);
		break;
	case AUTO_NUMBER:
		if (strcmp(arg, "auto") == 0) {
			*(unsigned long *)field = SB_WARMUP_AUTO;
			break;
		}
		if (strspn(arg, "0123456789") != strlen(arg) || !*arg)
			sb_die(SB_EXIT_USAGE, "%s: '%s' is neither a whole number nor auto",
			       label(p, name, sizeof(name)), arg);
		*(unsigned long *)field = (unsigned long)sb_parse_ll(label(p, name, sizeof(name)),
								     arg, p->lo, p->hi);
		break;
	case SECONDS:
		*(unsigned long *)field = seconds_ms(label(p, name, sizeof(name)), arg, p->lo, p->hi);
		break;
	case CHOICE:
		*(int *)field = choose(p, arg);
		break;
	case STRING:
		*(const char **)field = arg;
		break;
	case SET:
		*(int *)field = (int)p->lo;
		break;
	case PARAM:
		sb_params_set(arg);
		break;
	case HELP:
		usage(stdout);
		sb_flush_stdout();
		sb_exit(SB_EXIT_OK);
	case LIST:
		list_options(stdout);
		sb_flush_stdout();
		sb_exit(SB_EXIT_OK);
	case VERSION:
		printf("%s (scalebench) %s git %s\n", sb_prog, SB_VERSION, SB_GIT_REVISION);
		sb_flush_stdout();
		sb_exit(SB_EXIT_OK);
	}
}

/* getopt_long's arrays from the table: a long option returns 256 + its row. */
static void getopt_arrays(struct option *longopts, char *shortopts)
{
	size_t nlong = 0;

	*shortopts++ = ':';	/* a missing value returns ':', not '?' */
	for (size_t i = 0; i < NOPTS; i++) {
		if (table[i].letter) {
			*shortopts++ = table[i].letter;
			if (table[i].arg)
				*shortopts++ = ':';
		}
		if (table[i].name)
			longopts[nlong++] = (struct option){ table[i].name,
				table[i].arg ? required_argument : no_argument, NULL, 256 + (int)i };
	}
	*shortopts = '\0';
	longopts[nlong] = (struct option){ NULL, 0, NULL, 0 };
}

static const struct opt *by_key(int c)
{
	if (c >= 256 && c < 256 + (int)NOPTS)
		return &table[c - 256];
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].letter && table[i].letter == c)
			return &table[i];
	return NULL;
}

int sb_options_sweep(const char *opt, int *takes_arg)
{
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		if (!p->sweep)
			continue;
		if ((p->name && strncmp(opt, "--", 2) == 0 && strcmp(opt + 2, p->name) == 0) ||
		    (p->letter && opt[0] == '-' && opt[1] == p->letter && opt[2] == '\0')) {
			*takes_arg = p->arg != NULL;
			return 1;
		}
	}
	return 0;
}

void sb_options_parse(int argc, char **argv, struct sb_options *o)
{
	struct option longopts[NOPTS + 1];
	char shortopts[2 * NOPTS + 2];
	const struct opt *p;
	int c;

	*o = defaults;
	getopt_arrays(longopts, shortopts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == ':')
			sb_usage_error("option '%s' needs a value", argv[optind - 1]);
		if ((p = by_key(c)) != NULL) {
			apply(p, optarg, o);
		} else if (optopt >= 256 && (p = by_key(optopt)) != NULL) {
			sb_usage_error("option '--%s' takes no value", p->name);
		} else if (optopt) {
			sb_usage_error("unknown option '-%c'", optopt);
		} else {
			sb_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
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
