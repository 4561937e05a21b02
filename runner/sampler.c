/* The sampler: absolute-deadline samples, rates over real elapsed time, idle, stalls. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters.h"
#include "os.h"
#include "output.h"
#include "sampler.h"
#include "tasks.h"
#include "util.h"

static double ts_s(const struct timespec *t)
{
	return t->tv_sec + t->tv_nsec / 1e9;
}

static void ts_add_ms(struct timespec *t, unsigned long ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Sleep until the absolute deadline; a task failure or an interruption ends the run at once. */
static void sleep_until(const struct timespec *deadline)
{
	int r;

	while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL)) != 0) {
		if (r != EINTR)
			sb_die(SB_EXIT_ENV, "clock_nanosleep: %s", strerror(r));
		sb_tasks_check_or_exit();
	}
}

/* Idle % over `set` (NULL: every CPU) between two readings; NaN when unknown. */
static double idle_pct(const struct sb_cpu_times *a, const struct sb_cpu_times *b,
		       hwloc_const_bitmap_t set)
{
	unsigned long long idle = 0, total = 0;
	int n = a->ncpus < b->ncpus ? a->ncpus : b->ncpus;

	for (int cpu = 0; cpu < n; cpu++) {
		if (set && !hwloc_bitmap_isset(set, (unsigned)cpu))
			continue;
		idle += b->idle[cpu] - a->idle[cpu];
		total += b->total[cpu] - a->total[cpu];
	}
	return total ? 100.0 * (double)idle / (double)total : NAN;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		sb_die(SB_EXIT_ENV, "out of memory");
	return p;
}

double sb_sampler_run(const struct sb_options *o, const struct sb_placement *pl)
{
	unsigned long n = o->tasks;
	unsigned long long *prev = xcalloc(n, sizeof(*prev));
	double *rates = xcalloc(n, sizeof(*rates));
	struct sb_cpu_times cpu[2] = { { 0 }, { 0 } };
	int have_cpu, cur = 0;
	struct timespec start, last, now, deadline;
	double sum = 0, last_progress;
	unsigned long long measured_ops = 0;
	unsigned long total = o->warmup + o->samples;
	int warned_starved = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	have_cpu = sb_os_cpu_times(&cpu[cur]) == 0;
	last = deadline = start;
	ts_add_ms(&deadline, o->period_ms);
	last_progress = ts_s(&start);

	for (unsigned long k = 0; o->samples == 0 || k < total; k++) {
		struct sb_sample s = { .ntasks = n, .run = o->run, .measured = k >= o->warmup,
				       .task_rates = rates, .task_min = INFINITY };

		sleep_until(&deadline);
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (unsigned long i = 0; i < n; i++) {
			unsigned long long v = sb_counter_read(i);

			rates[i] = (double)(v - prev[i]);
			s.ops += v - prev[i];
			prev[i] = v;
		}
		have_cpu = have_cpu && sb_os_cpu_times(&cpu[!cur]) == 0;
		/* A task that died during this sample makes it worthless. */
		sb_tasks_check_or_exit();

		s.index = s.measured ? k - o->warmup + 1 : k + 1;
		s.elapsed = ts_s(&now) - ts_s(&last);
		s.rate = (double)s.ops / s.elapsed;
		for (unsigned long i = 0; i < n; i++) {
			rates[i] /= s.elapsed;
			if (rates[i] < s.task_min)
				s.task_min = rates[i];
			if (rates[i] > s.task_max)
				s.task_max = rates[i];
			if (rates[i] == 0 && s.ops && !warned_starved) {
				sb_warn("warning: task %lu made no progress in %s sample %lu while others did (starved?)",
					i, s.measured ? "measured" : "warmup", s.index);
				warned_starved = 1;
			}
		}
		s.idle = s.idle_all = NAN;
		if (have_cpu) {
			s.idle = idle_pct(&cpu[cur], &cpu[!cur], pl->cpus);
			s.idle_all = idle_pct(&cpu[cur], &cpu[!cur], NULL);
			cur = !cur;
		}
		sb_output_sample(o, &s);
		if (s.measured) {
			sum += s.rate;
			measured_ops += s.ops;
		}

		if (s.ops)
			last_progress = ts_s(&now);
		else if (ts_s(&now) - last_progress >= o->stall_timeout)
			sb_die(SB_EXIT_FAIL, "no progress: no task counted an operation for %.1f s",
			       ts_s(&now) - last_progress);
		last = now;
		/* Deadlines stay on the grid; a wake-up more than a period late
		 * skips the ones already gone (the divisor above absorbs it). */
		ts_add_ms(&deadline, o->period_ms);
		while (ts_before(&deadline, &now))
			ts_add_ms(&deadline, o->period_ms);
	}
	free(prev);
	free(rates);
	/* An average of zero would be a silent failure, not a measurement. */
	if (measured_ops == 0)
		sb_die(SB_EXIT_FAIL, "no progress: no task counted an operation in the %lu measured samples",
		       o->samples);
	return sum / (double)o->samples;
}
