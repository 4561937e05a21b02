/* The sweep's clock and budget for sb-plan: its file, the times runtest.sh gives, the shares of --budget. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg/msg.h"
#include "plan_sweep.h"
#include "io/results.h"


struct ctx {
	struct sb_plan_sweep *s;
	int end, bad;
	const char *badkey;
};

static int key(void *p, const char *k, const char *v)
{
	struct ctx *x = p;
	static const char *const names[] = { "budget_ms", "budget_points", "later", "elapsed_ms", "runs", "run_ms" };
	long *fields[] = { &x->s->budget_ms, &x->s->budget_points, &x->s->later, &x->s->elapsed_ms,
			   &x->s->runs, &x->s->run_ms };
	char *end;

	if (strcmp(k, "end") == 0) {
		x->end = 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(k, names[i]) == 0) {
			*fields[i] = strtol(v, &end, 10);
			if (!*v || *end)
				x->bad = 1, x->badkey = k;
			return 0;
		}
	return 0;
}

int sb_plan_sweep_read(const char *path, struct sb_plan_sweep *s, char *err, size_t errlen)
{
	struct ctx x = { s, 0, 0, NULL };
	char *text = NULL;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = sb_meta_read(path, key, &x, &text, err, errlen);
	free(text);
	if (rc != SB_EXIT_OK)
		return rc;
	if (x.bad)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s: not a number", path, x.badkey);
	if (!x.end)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: cut short (no end line): not a whole sb-plan sweep file",
			       path);
	return SB_EXIT_OK;
}

int sb_plan_sweep_write(const char *path, const struct sb_plan_sweep *s, char *err, size_t errlen)
{
	char *tmp;
	FILE *f;
	int ok;

	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	f = fopen(tmp, "w");
	if (!f) {
		free(tmp);
		return sb_fail(err, errlen, SB_EXIT_ENV, "cannot write %s: %m", path);
	}
	fprintf(f, "budget_ms=%ld\nbudget_points=%ld\nlater=%ld\nelapsed_ms=%ld\nruns=%ld\nrun_ms=%ld\nend=\n",
		s->budget_ms, s->budget_points, s->later, s->elapsed_ms, s->runs, s->run_ms);
	ok = fflush(f) != EOF && !ferror(f);
	ok = (fclose(f) != EOF) && ok && rename(tmp, path) == 0;
	if (!ok) {
		unlink(tmp);
		free(tmp);
		return sb_fail(err, errlen, SB_EXIT_ENV, "cannot write %s: %m", path);
	}
	free(tmp);
	return SB_EXIT_OK;
}

long sb_plan_time_ms(const char *s)
{
	long sec = 0, frac = 0, scale = 1000;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (sec > (1L << 40))
			return -1;
		sec = sec * 10 + (*p - '0');
	}
	if (*p == '.' || *p == ',') {	/* (a locale's decimal comma in $EPOCHREALTIME) */
		p++;
		for (int d = 0; isdigit((unsigned char)*p); p++, d++)
			if (d < 3)
				frac += (*p - '0') * (scale /= 10);
	}
	return *p ? -1 : sec * 1000 + frac;
}

long sb_plan_sweep_start(struct sb_plan_sweep *s, size_t nmodes)
{
	long own = s->budget_points * (long)nmodes;

	s->later -= own;
	if (s->later < 0)
		s->later = 0;
	if (s->budget_ms < 0)
		return -1;
	if (own + s->later <= 0)
		return 0;
	/* (ms below 2^40 times points below 2^20: no overflow in a long of 64 bits); a budget
	 * already spent leaves 0, not a negative share that would read as no budget */
	own = (s->budget_ms - s->elapsed_ms) * own / (own + s->later);
	return own < 0 ? 0 : own;
}

void sb_plan_sweep_ran(struct sb_plan_sweep *s, long ms)
{
	s->elapsed_ms += ms;
	s->runs++;
}

long sb_plan_sweep_per_run(const struct sb_plan_sweep *s)
{
	return s->runs > 0 ? s->elapsed_ms / s->runs : s->run_ms;
}

long sb_plan_sweep_left(const struct sb_plan_sweep *s)
{
	if (s->budget_ms < 0)
		return -1;
	return s->budget_ms > s->elapsed_ms ? s->budget_ms - s->elapsed_ms : 0;
}
