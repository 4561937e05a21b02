/* sb-plan's words: --dry-run's runs, order, estimate and seeds; an ETA as "42s", "3m30s", "12m", "1h05m". */
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "plan_text.h"

void sb_plan_fmt_eta(char *buf, size_t len, long s)
{
	if (s < 60)
		snprintf(buf, len, "%lds", s);
	else if (s < 600 && s % 60)	/* to the second: "4m" for 3m30s would hide half a minute in ten */
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else if (s < 3600)
		snprintf(buf, len, "%ldm", (s + 30) / 60);
	else
		snprintf(buf, len, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
}

/* Milliseconds as seconds: 5000 -> "5", 500 -> "0.5" (runtest.sh's fmt_ms). */
static const char *fmt_ms(long ms, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%ld.%03ld", ms / 1000, ms % 1000);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

/* --dry-run's words: the runs a point gets, the order of a round, the estimate, auto's seeds. */
void sb_plan_print_texts(const struct sb_plan *plan, const struct sb_plan_estimate *e)
{
	const struct sb_plan_conf *c = &plan->c;
	char a[32], b[32], d[32];
	unsigned long last = 0;
	int first = 1;

	if (c->adaptive)	/* meta's budget, in seconds (none when not adaptive) */
		printf("text_budget=%s\n", fmt_ms(e->budget_ms, d, sizeof(d)));
	if (!c->adaptive)
		printf("text_runs=exactly %u a point\n", c->min_runs);
	else
		printf("text_runs=%u to %u a point, until the 95%% interval is within +-%s%% (at most %s s a point)\n",
		       c->min_runs, c->max_runs, fmt_ms(c->precision, a, sizeof(a)),
		       fmt_ms(c->point_budget_ms, b, sizeof(b)));
	if (c->seed >= 0)
		printf("text_order=rounds; each round shuffled with seed %ld\n", c->seed);
	else
		printf("text_order=rounds; each round in the other direction\n");
	sb_plan_fmt_eta(a, sizeof(a), (e->min_ms + 999) / 1000);
	if (!c->adaptive) {
		printf("text_estimated=%lu runner runs, about %s\n", e->runs_min, a);
	} else {
		sb_plan_fmt_eta(b, sizeof(b), (e->max_ms + 999) / 1000);
		sb_plan_fmt_eta(d, sizeof(d), (e->budget_ms + 999) / 1000);
		printf("text_estimated=%lu to %lu runner runs, %s to %s (budget %s)\n", e->runs_min, e->runs_max,
		       a, b, d);
	}
	/* auto's seeds with their reasons, unless the range is measured whole */
	if (c->points_mode != SB_POINTS_AUTO || strstr(plan->p[0].reason, "every count"))
		return;
	printf("text_seeds=");
	for (size_t i = 0; i < plan->np; i++) {
		const char *r = plan->p[i].reason;

		if (!first && plan->p[i].tasks == last)
			continue;
		if (strncmp(r, "seed: ", 6) == 0)
			r += 6;
		printf("%s%lu (%s)", first ? "" : ", ", plan->p[i].tasks, r);
		last = plan->p[i].tasks;
		first = 0;
	}
	putchar('\n');
}

/* plan CONF: key=value lines for runtest.sh (--dry-run and the estimates). */
