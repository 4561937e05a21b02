/* The sampler: opens the gate, absolute-deadline samples, rates over bracketed real elapsed time, lateness, idle, stalls. */
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
#include "warmup.h"

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
	unsigned long long *next;	/* each task's counter as this sample ends */
	double *rates;			/* each task's ops, then ops/s, in this sample */
	double begun;			/* when this sample's baseline was read: its earliest bound */
	struct sb_cpu_times cpu[2];	/* [cur]: the CPU times when this sample began */
	int have_cpu, cur;
	int warned_starved;
	double late_max;		/* the latest wake-up, seconds */
	int warned_late;
};

/* A reading whose clock bracket is wider than this share of the period is read again. */
#define BRACKET_SHARE 0.01
#define BRACKET_TRIES 3

/*
 * At once after waking: every counter's delta between two clock readings,
 * then the CPU times. The counters were read at some time in [t1, t2]; a
 * sample runs from its baseline's t1 to its end's t2, the longest it can
 * have lasted, so a runner preempted while reading deflates a rate by the
 * bracket's width at most and never inflates one. A wide bracket (the
 * runner was preempted) is read again, a few times at most.
 */
static void read_sample(struct sampler *sm, struct sb_sample *s, double period, double *t2)
{
	struct timespec a, b;

	for (int tries = 0; tries < BRACKET_TRIES; tries++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (unsigned long i = 0; i < sm->n; i++)
			sm->next[i] = sb_counter_read(i);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (ts_s(&b) - ts_s(&a) <= period * BRACKET_SHARE)
			break;
	}
	*t2 = ts_s(&b);
	s->elapsed = *t2 - sm->begun;
	sm->begun = ts_s(&a);
	s->ops = 0;
	for (unsigned long i = 0; i < sm->n; i++) {
		sm->rates[i] = (double)(sm->next[i] - sm->prev[i]);
		s->ops += sm->next[i] - sm->prev[i];
		sm->prev[i] = sm->next[i];
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
static void next_deadline(struct timespec *deadline, unsigned long ms)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ts_add_ms(deadline, ms);
	while (ts_before(deadline, &now))
		ts_add_ms(deadline, ms);
}

/* The next sample's period: --warmup auto's own while it warms up (warmup.c), else --period-ms. */
static unsigned long sample_ms(const struct sb_options *o, const struct sb_warmup *w)
{
	return sb_warmup_on(w) ? w->period_ms : o->period_ms;
}

/* Lateness above this share of the period is warned about, once. */
#define LATE_SHARE 0.01

static void warn_late(struct sampler *sm, unsigned long period_ms)
{
	if (sm->warned_late || sm->late_max * 1000 <= LATE_SHARE * (double)period_ms)
		return;
	sb_warn("warning: sampler woke up to %.1f ms late (%.1f%% of the period)",
		sm->late_max * 1000, 100 * sm->late_max * 1000 / (double)period_ms);
	sm->warned_late = 1;
}

/*
 * The sampler: raise our priority, open the gate, sample until done. The
 * first baseline is all zeros read before the gate opens (no task can count
 * before it), so a runner starved by the tasks it just released cannot
 * shorten the first sample.
 */
double sb_sampler_run(const struct sb_options *o, const struct sb_placement *pl)
{
	struct sampler sm = { .n = o->tasks };
	struct sb_warmup warm;
	struct timespec start, deadline;
	double sum = 0, last_progress, now;
	unsigned long long measured_ops = 0;
	unsigned long measured = 0;
	char prio[64];
	int rt;

	sb_warmup_init(&warm, o);
	sm.prev = xcalloc(sm.n, sizeof(*sm.prev));
	sm.next = xcalloc(sm.n, sizeof(*sm.next));
	sm.rates = xcalloc(sm.n, sizeof(*sm.rates));
	/* Our thread only (the tasks exist already and keep the default); see os.h. */
	rt = sb_os_raise_priority(prio, sizeof(prio)) == 1;
	sm.have_cpu = sb_os_cpu_times(&sm.cpu[sm.cur]) == 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	sm.begun = ts_s(&start);
	sb_tasks_release(rt);
	deadline = start;
	ts_add_ms(&deadline, sample_ms(o, &warm));
	last_progress = ts_s(&start);

	for (unsigned long k = 0; o->samples == 0 || measured < o->samples; k++) {
		struct sb_sample s = { .ntasks = sm.n, .run = o->run, .measured = !sb_warmup_on(&warm),
				       .task_rates = sm.rates, .task_min = INFINITY };

		sleep_until(&deadline);
		read_sample(&sm, &s, (double)sample_ms(o, &warm) / 1000, &now);
		/* A task that died during this sample makes it worthless. */
		sb_tasks_check_or_exit();
		s.late_ms = (sm.begun - ts_s(&deadline)) * 1000;
		if (s.late_ms < 0)
			s.late_ms = 0;
		if (s.late_ms > sm.late_max * 1000)
			sm.late_max = s.late_ms / 1000;
		s.index = s.measured ? measured + 1 : warm.done + 1;
		rate_sample(&sm, &s, pl);
		sb_output_sample(o, &s);
		if (s.measured) {
			sum += s.rate;
			measured_ops += s.ops;
			measured++;
		} else {
			sb_warmup_add(&warm, s.rate);
		}
		if (o->samples == 0)
			warn_late(&sm, o->period_ms);
		if (s.ops)
			last_progress = now;
		else if (now - last_progress >= o->stall_timeout)
			sb_die(SB_EXIT_FAIL, "no progress: no task counted an operation for %.1f s",
			       now - last_progress);
		next_deadline(&deadline, sample_ms(o, &warm));
	}
	sb_os_restore_priority();
	warn_late(&sm, o->period_ms);
	free(sm.prev);
	free(sm.next);
	free(sm.rates);
	/* An average of zero would be a silent failure, not a measurement. */
	if (measured_ops == 0)
		sb_die(SB_EXIT_FAIL, "no progress: no task counted an operation in the %lu measured samples",
		       o->samples);
	return sum / (double)o->samples;
}
