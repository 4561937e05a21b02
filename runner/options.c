/* Command-line options of a testcase binary: will-it-scale's short flags, long ones added. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "params.h"
#include "util.h"

/* More tasks than Linux can ever have pids (PID_MAX_LIMIT) cannot run. */
#define MAX_TASKS 4194304

static const char *const placement_names[] = { "cores", "pus", "spread", "none" };

const char *sb_placement_name(enum sb_policy p)
{
	return placement_names[p];
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s [options]\n"
"  -t, --tasks N          tasks (processes or threads) to run (default 1)\n"
"  -s, --samples N        measured samples, 0 = until interrupted (default 5)\n"
"      --warmup N         samples discarded first (default 5)\n"
"      --period-ms MS     sample period in milliseconds (default 1000)\n"
"      --placement P      cores, pus, spread or none (default cores)\n"
"  -m                     same as --placement pus (hardware threads)\n"
"  -n                     same as --placement none (no affinity)\n"
"      --cpus LIST        use only these PUs, e.g. 0-7,16 (OS numbering)\n"
"      --stall-timeout S  fail when no task counts for S seconds (default 30)\n"
"  -v                     per-task rates in every sample\n"
"      --format F         text (will-it-scale's) or csv (default text)\n"
"      --param NAME=VALUE set a testcase parameter (repeatable)\n"
"      --print-placement  print task -> PU/core/NUMA/package and exit\n"
"      --info             print the testcase's name, modes and parameters\n"
"  -h, --help             this text\n", sb_prog);
	sb_params_usage(f);
}

enum { OPT_WARMUP = 256, OPT_PERIOD, OPT_PLACEMENT, OPT_CPUS, OPT_STALL,
       OPT_FORMAT, OPT_PARAM, OPT_PRINT_PLACEMENT, OPT_INFO };

static const struct option longopts[] = {
	{ "tasks", required_argument, NULL, 't' },
	{ "samples", required_argument, NULL, 's' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "period-ms", required_argument, NULL, OPT_PERIOD },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "stall-timeout", required_argument, NULL, OPT_STALL },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "param", required_argument, NULL, OPT_PARAM },
	{ "print-placement", no_argument, NULL, OPT_PRINT_PLACEMENT },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static enum sb_policy parse_placement(const char *s)
{
	for (size_t i = 0; i < sizeof(placement_names) / sizeof(placement_names[0]); i++)
		if (strcmp(s, placement_names[i]) == 0)
			return (enum sb_policy)i;
	sb_die(SB_EXIT_USAGE, "--placement: unknown placement '%s' (cores, pus, spread, none)", s);
}

void sb_options_parse(int argc, char **argv, struct sb_options *o)
{
	int c;

	*o = (struct sb_options){ .tasks = 1, .samples = 5, .warmup = 5,
				  .period_ms = 1000, .stall_timeout = 30 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:s:mnvh", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			o->tasks = sb_parse_ll("-t/--tasks", optarg, 1, MAX_TASKS);
			break;
		case 's':
			o->samples = sb_parse_ll("-s/--samples", optarg, 0, 100000000);
			break;
		case OPT_WARMUP:
			o->warmup = sb_parse_ll("--warmup", optarg, 0, 100000000);
			break;
		case OPT_PERIOD:
			o->period_ms = sb_parse_ll("--period-ms", optarg, 1, 3600000);
			break;
		case 'm':
			o->placement = SB_PLACE_PUS;
			break;
		case 'n':
			o->placement = SB_PLACE_NONE;
			break;
		case OPT_PLACEMENT:
			o->placement = parse_placement(optarg);
			break;
		case OPT_CPUS:
			o->cpus = optarg;
			break;
		case OPT_STALL:
			o->stall_timeout = sb_parse_ll("--stall-timeout", optarg, 1, 86400);
			break;
		case 'v':
			o->verbose = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = SB_FMT_TEXT;
			else if (strcmp(optarg, "csv") == 0)
				o->format = SB_FMT_CSV;
			else
				sb_die(SB_EXIT_USAGE, "--format: unknown format '%s' (text, csv)", optarg);
			break;
		case OPT_PARAM:
			sb_params_set(optarg);
			break;
		case OPT_PRINT_PLACEMENT:
			o->print_placement = 1;
			break;
		case OPT_INFO:
			o->info = 1;
			break;
		case 'h':
			usage(stdout);
			sb_exit(SB_EXIT_OK);
		case ':':
			sb_warn("option '%s' needs a value", argv[optind - 1]);
			usage(stderr);
			sb_exit(SB_EXIT_USAGE);
		default:
			if (optopt)
				sb_warn("unknown option '-%c'", optopt);
			else
				sb_warn("unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			sb_exit(SB_EXIT_USAGE);
		}
	}
	if (optind < argc) {
		sb_warn("unexpected argument '%s'", argv[optind]);
		usage(stderr);
		sb_exit(SB_EXIT_USAGE);
	}
}
