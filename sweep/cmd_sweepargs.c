/* sb-sweepargs: runtest.sh's options (sweepargs_table.c parses and checks them), the values they make (the points, the run's shape, the stopping rule, the label) handed back as NUL-separated NAME VALUE pairs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "pairs.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "sweepargs.h"
#include "util.h"
#include "warmup.h"

#define NAME_MAX_LEN 255	/* the longest file name (Linux, the BSDs): bounds the run id */
#define RUN_ID_TAIL 20		/* a run id is the label, -YYYYmmddTHHMMSS and maybe -N */

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
#define AUTO_WARMUP_MAX_S 1	/* the cap of a sweep run's steady-state warmup (--warmup auto) */

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

/* ---- the values: what needs nothing but the arguments ------------------------------ */

static const char *points_mode = "auto", *placement;
static long *point_list, npoints, largest = 1, period, samples, warmup_samples, duration_ms, warmup_ms;
static long min_runs, max_runs, precision, point_budget_ms;
static long auto_max_ms, auto_min_ms;	/* --warmup auto's cap and floor (the floor NOTSET: the rule's own) */
static int fixed_warmup;		/* --warmup S, or --quick's */
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
	warmup_ms = a.quick && !a.warmup_auto ? QUICK_WARMUP_MS : DEF_WARMUP_MS;
	fixed_warmup = a.warmup_ms != NOTSET || (a.quick && !a.warmup_auto);
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

/* --warmup auto's bounds: --warmup-max (default 1 s, or --warmup-min when that is more), --warmup-min */
static void auto_bounds(void)
{
	char s1[32], s2[32];

	if (fixed_warmup && (a.warmup_min_ms != NOTSET || a.warmup_max_ms != NOTSET))
		bad("--warmup-%s goes with the steady-state warmup (auto, the default), not a fixed %s",
		    a.warmup_min_ms != NOTSET ? "min" : "max", a.warmup_ms != NOTSET ? "--warmup S" : "--quick");
	if (a.warmup_min_ms != NOTSET && a.warmup_max_ms != NOTSET && a.warmup_min_ms > a.warmup_max_ms)
		bad("--warmup-min %s s is more than --warmup-max %s s", secs(a.warmup_min_ms, s1),
		    secs(a.warmup_max_ms, s2));
	auto_min_ms = a.warmup_min_ms;
	auto_max_ms = a.warmup_max_ms != NOTSET ? a.warmup_max_ms : AUTO_WARMUP_MAX_S * 1000L;
	if (a.warmup_max_ms == NOTSET && auto_min_ms != NOTSET && auto_min_ms > auto_max_ms)
		auto_max_ms = auto_min_ms;
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
	check_tests();
	points();
	profile_list();
	choose_placement();
	run_shape();
	auto_bounds();
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

static void emit(void)
{
	char s[32], csv[4096] = "";
	size_t off = 0;

	emit_lists();
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
	sb_pair_n("opt_fixed_warmup", fixed_warmup);
	sb_pair_n("opt_warmup_bounds", a.warmup_min_ms != NOTSET || a.warmup_max_ms != NOTSET);
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
	sb_pair("auto_warmup_max", secs(auto_max_ms, s));
	sb_pair_n("auto_warmup_max_ms", auto_max_ms);
	sb_pair("auto_warmup_min", auto_min_ms == NOTSET ? "" : secs(auto_min_ms, s));
	/* the shortest steady-state warmup: the window, in the runner's warmup samples (warmup.c),
	 * or --warmup-min (not above the cap: the runner's rule) */
	long floor_ms = SB_WARMUP_WINDOW * (period < SB_WARMUP_PERIOD_MS ? period : SB_WARMUP_PERIOD_MS);
	if (auto_min_ms != NOTSET && auto_min_ms > floor_ms)
		floor_ms = auto_min_ms;
	sb_pair_n("auto_warmup_min_ms", floor_ms < auto_max_ms ? floor_ms : auto_max_ms);
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
