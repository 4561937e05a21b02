/* The testcase binary's main: options, placement, prepare, tasks, samples, cleanup. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "counters.h"
#include "options.h"
#include "output.h"
#include "params.h"
#include "sampler.h"
#include "tasks.h"
#include "testcase.h"
#include "topology.h"
#include "util.h"

extern void testcase_prepare(unsigned long nr_tasks) __attribute__((weak));
extern const unsigned int testcase_modes __attribute__((weak));

/* "unix1" from ".../unix1_processes" */
static void test_name(char *buf, size_t size)
{
	const char *suffix = sb_threads_mode() ? "_threads" : "_processes";
	size_t len = strlen(sb_prog), slen = strlen(suffix);

	if (len > slen && strcmp(sb_prog + len - slen, suffix) == 0)
		len -= slen;
	snprintf(buf, size, "%.*s", (int)len, sb_prog);
}

static unsigned int modes(void)
{
	unsigned int m = &testcase_modes ? testcase_modes : 0;

	return m & (SB_PROCESSES | SB_THREADS) ? m : SB_PROCESSES | SB_THREADS;
}

static void print_info(const char *name)
{
	unsigned int m = modes();

	printf("name=%s\n", name);
	printf("description=%s\n", testcase_description ? testcase_description : "");
	printf("modes=%s%s%s\n", m & SB_PROCESSES ? "processes" : "",
	       m == (SB_PROCESSES | SB_THREADS) ? "," : "", m & SB_THREADS ? "threads" : "");
	sb_params_info(stdout);
}

/* Tests that open many files (poll2, ...) should not hit the soft limit. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			sb_warn("warning: cannot raise RLIMIT_NOFILE: %s", strerror(errno));
	}
}

int main(int argc, char **argv)
{
	struct sb_options o;
	struct sb_placement pl;
	char name[256];
	double average;

	sb_util_init(argv[0]);
	sb_options_parse(argc, argv, &o);
	test_name(name, sizeof(name));
	if (o.info) {
		print_info(name);
		sb_exit(SB_EXIT_OK);
	}
	if (!(modes() & (sb_threads_mode() ? SB_THREADS : SB_PROCESSES)))
		sb_die(SB_EXIT_USAGE, "%s runs as %s only (it says so with SB_MODES)", name,
		       sb_threads_mode() ? "processes" : "threads");

	sb_topology_load(o.cpus);
	sb_placement_compute(o.placement, o.tasks, &pl);
	if (o.print_placement) {
		sb_placement_print(stdout, &pl, o.tasks);
		sb_exit(SB_EXIT_OK);
	}

	raise_nofile();
	sb_signals_init();
	sb_counters_init(o.tasks);
	if (sb_before_prepare)
		sb_before_prepare();
	if (testcase_prepare)
		testcase_prepare(o.tasks);
	sb_prepared = 1;
	if (sb_interrupted)
		sb_exit(SB_EXIT_INTR);

	sb_tasks_start(o.tasks, &pl, o.stall_timeout);
	sb_output_begin(&o, testcase_description ? testcase_description : name);
	sb_tasks_release();
	average = sb_sampler_run(&o, &pl);
	sb_output_end(&o, average);
	sb_exit(SB_EXIT_OK);
}
