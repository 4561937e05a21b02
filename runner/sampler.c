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

/* What the sampler carries from one sample to the next. */
struct sampler {
	unsigned long n;
	unsigned long long *prev;	/* each task's counter when this sample began */
	double *rates;			/* each task's ops, then ops/s, in this sample */
	struct sb_cpu_times cpu[2];	/* [cur]: the CPU times when this sample began */
	int have_cpu, cur;
	int warned_starved;
};

/* At once after waking: every counter's delta, then the CPU times, before anything slower. */
static void read_sample(struct sampler *sm, struct sb_sample *s)
{
	for (unsigned long i = 0; i < sm->n; i++) {
		unsigned long long v = sb_counter_read(i);

		sm->rates[i] = (double)(v - sm->prev[i]);
		s->ops += v - sm->prev[i];
		sm->prev[i] = v;
	}
	sm->have_cpu = sm->have_cpu && sb_os_cpu_times(&sm->cpu[!sm->cur]) == 0;
}

/* Counts into rates over the sample's real length; the slowest and fastest task; idle %. */
static void rate_sample(struct sampler *sm, struct sb_sample *s, const struct sb_placement *pl)
{
	s->rate = (double)s->ops / s->elapsed;
	for (unsigned long i = 0; i < sm->n; i++) {
		sm->rates[i] /= s->elapsed;
		if (sm->rates[i] < s->task_min)
			s->task_min = sm->rates[i];
		if (sm->rates[i] > s->task_max)
			s->task_max = sm->rates[i];
		if (sm->rates[i] == 0 && s->ops && !sm->warned_starved) {
			sb_warn("warning: task %lu made no progress in %s sample %lu while others did (starved?)",
				i, s->measured ? "measured" : "warmup", s->index);
			sm->warned_starved = 1;
		}
	}
	s->idle = s->idle_all = NAN;
	if (sm->have_cpu) {
		s->idle = idle_pct(&sm->cpu[sm->cur], &sm->cpu[!sm->cur], pl->cpus);
		s->idle_all = idle_pct(&sm->cpu[sm->cur], &sm->cpu[!sm->cur], NULL);
		sm->cur = !sm->cur;
	}
}

/*
 * Deadlines stay on the grid; a wake-up more than a period late skips the
 * ones already gone (dividing by the real elapsed time absorbs it).
 */
static void next_deadline(struct timespec *deadline, const struct timespec *now, unsigned long ms)
{
	ts_add_ms(deadline, ms);
	while (ts_before(deadline, now))
		ts_add_ms(deadline, ms);
}

double sb_sampler_run(const struct sb_options *o, const struct sb_placement *pl)
{
	struct sampler sm = { .n = o->tasks };
	struct timespec start, last, now, deadline;
	double sum = 0, last_progress;
	unsigned long long measured_ops = 0;
	unsigned long total = o->warmup + o->samples;

	sm.prev = xcalloc(sm.n, sizeof(*sm.prev));
	sm.rates = xcalloc(sm.n, sizeof(*sm.rates));
	clock_gettime(CLOCK_MONOTONIC, &start);
	sm.have_cpu = sb_os_cpu_times(&sm.cpu[sm.cur]) == 0;
	last = deadline = start;
	ts_add_ms(&deadline, o->period_ms);
	last_progress = ts_s(&start);

	for (unsigned long k = 0; o->samples == 0 || k < total; k++) {
		struct sb_sample s = { .ntasks = sm.n, .run = o->run, .measured = k >= o->warmup,
				       .task_rates = sm.rates, .task_min = INFINITY };

		sleep_until(&deadline);
		clock_gettime(CLOCK_MONOTONIC, &now);
		read_sample(&sm, &s);
		/* A task that died during this sample makes it worthless. */
		sb_tasks_check_or_exit();
		s.index = s.measured ? k - o->warmup + 1 : k + 1;
		s.elapsed = ts_s(&now) - ts_s(&last);
		rate_sample(&sm, &s, pl);
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
		next_deadline(&deadline, &now, o->period_ms);
	}
	free(sm.prev);
	free(sm.rates);
	/* An average of zero would be a silent failure, not a measurement. */
	if (measured_ops == 0)
		sb_die(SB_EXIT_FAIL, "no progress: no task counted an operation in the %lu measured samples",
		       o->samples);
	return sum / (double)o->samples;
}
