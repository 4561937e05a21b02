/* The run's lifecycle: check, prepare, start, sample, stop, clean up, and every way out. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "api.h"
#include "counters.h"
#include "lock.h"
#include "output.h"
#include "run.h"
#include "sampler.h"
#include "tasks.h"
#include "topology.h"
#include "util.h"

extern void testcase_prepare(unsigned long nr_tasks) __attribute__((weak));
extern void testcase_cleanup(void) __attribute__((weak));

/* What the end of the run still owes, in the order finish() pays it. */
static struct {
	int tasks;	/* tasks may exist: kill and reap them (and their partners) */
	int prepared;	/* testcase_prepare returned: testcase_cleanup is due */
	int tmpdir;	/* the private directory may exist: remove it */
} owed;

/*
 * Every way out of the runner comes here, through sb_exit(): the end of
 * the run, an error anywhere, an interruption. Tasks go first, so that
 * testcase_cleanup and the removal of the directory find nothing using
 * them. Each debt is cleared before it is paid: a step that fails exits
 * again, comes back here, and the steps after it still run.
 */
static const struct sb_options *opts;

/*
 * --timing, one line on stderr: seconds from just before the first task was
 * created until every task was created (spawned_s), pinned and waiting at the
 * gate (ready_s), the gate opened (open_s), the last task passed it
 * (all_started_s); how many had passed when teardown began (started); the
 * teardown's own seconds (teardown_s). "-" for what was not reached.
 */
static void print_timing(void)
{
	const struct sb_task_times *t = sb_tasks_times();
	char v[5][32];
	const double at[5][2] = {
		{ t->start, t->spawned }, { t->start, t->ready }, { t->start, t->released },
		{ t->start, t->passed }, { t->killed, t->reaped },
	};

	for (int i = 0; i < 5; i++)
		if (at[i][0] > 0 && at[i][1] > 0)
			snprintf(v[i], sizeof(v[i]), "%.3f", at[i][1] - at[i][0]);
		else
			snprintf(v[i], sizeof(v[i]), "-");
	sb_warn("timing: tasks=%lu spawned_s=%s ready_s=%s open_s=%s all_started_s=%s started=%lu teardown_s=%s",
		opts->tasks, v[0], v[1], v[2], v[3], t->npassed, v[4]);
}

static void finish(void)
{
	/* (an sb_fatal in testcase_prepare comes here from inside it) */
	sb_testcase_code_end();
	if (owed.tasks) {
		owed.tasks = 0;
		sb_tasks_kill_all();
		if (opts && opts->timing)
			print_timing();
	}
	if (owed.prepared) {
		owed.prepared = 0;
		if (testcase_cleanup) {
			sb_testcase_code_begin("testcase_cleanup");
			testcase_cleanup();
			sb_testcase_code_end();
		}
	}
	if (owed.tmpdir) {
		owed.tmpdir = 0;
		sb_tmpdir_remove();
	}
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

void sb_run(const struct sb_options *o, const char *name)
{
	struct sb_placement pl;
	double average;

	opts = o;
	sb_exit_through(finish);

	/* 1. Check what can be checked without running: --check ends here, silent. */
	if (!(sb_api_modes() & (sb_threads_mode() ? SB_THREADS : SB_PROCESSES)))
		sb_die(SB_EXIT_USAGE, "%s runs as %s only (it says so with SB_MODES)", name,
		       sb_threads_mode() ? "processes" : "threads");
	sb_topology_load(o->cpus);
	sb_placement_compute(o->placement, o->tasks, &pl);
	if (sb_tmpdir_check)
		sb_tmpdir_check();
	if (o->check)
		sb_exit(SB_EXIT_OK);
	sb_placement_warn(&pl, o->tasks);
	if (o->print_placement) {
		sb_placement_print(stdout, &pl, o->tasks);
		sb_flush_stdout();
		sb_exit(SB_EXIT_OK);
	}
	sb_lock_warn_if_held();	/* a run by hand while a sweep measures: both are wrong */
	if (sb_api_meant() && !(sb_api_meant() & (sb_threads_mode() ? SB_THREADS : SB_PROCESSES)))
		fprintf(stderr, "%s: note: as %s this measures something other than its name says: %s\n",
			name, sb_threads_mode() ? "threads" : "processes", sb_api_meant_else());

	/* 2. Prepare: limits, signals, counters, the private directory, the testcase's own. */
	raise_nofile();
	sb_signals_init();
	sb_counters_init(o->tasks);
	if (sb_tmpdir_make) {
		owed.tmpdir = 1;
		sb_tmpdir_make();
	}
	if (testcase_prepare) {
		/* (a signal from here on ends a prepare that does not return: tasks.c) */
		sb_testcase_code_begin("testcase_prepare");
		if (!sb_interrupted) {
			testcase_prepare(o->tasks);
			owed.prepared = 1;
		}
		sb_testcase_code_end();
	} else {
		owed.prepared = 1;
	}
	if (sb_interrupted)
		sb_exit(SB_EXIT_INTR);

	/* 3. Start: every task pinned and waiting at the gate. */
	owed.tasks = 1;
	sb_tasks_start(o->tasks, &pl, (double)o->stall_timeout);
	sb_output_begin(o, testcase_description ? testcase_description : name);

	/* 4. Sample: open the gate, warmup, then the measured samples (a failure exits from inside). */
	average = sb_sampler_run(o, &pl);
	sb_output_end(o, average);

	/* 5. Stop and clean up: finish(), as every other way out. */
	sb_exit(SB_EXIT_OK);
}
