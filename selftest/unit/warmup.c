/* The --warmup auto rule (runner/warmup.c) fed a fixed series of rates: where it ends, exactly, with no clock involved. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "warmup.h"

/* usage: unit_warmup PERIOD_MS MIN_S MAX_S [WARMUP_PERIOD_MS] < rates (one per line)
 * WARMUP_PERIOD_MS is --warmup-period-ms (default PERIOD_MS; 0: the runner's default, 100 ms at most).
 * Prints how many warmup samples the rule took and, when WARMUP_PERIOD_MS is given, their period
 * ("5 x 100 ms"); exit 1 if the series ran out first, 2 on bad input. */
static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "unit_warmup: %s: '%s' is not a whole number\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct sb_options o = { .warmup = SB_WARMUP_AUTO };
	struct sb_warmup w;
	char line[64];

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: unit_warmup PERIOD_MS MIN_S MAX_S [WARMUP_PERIOD_MS] < rates\n");
		return 2;
	}
	o.period_ms = number(argv[1], "PERIOD_MS");
	o.warmup_min_ms = number(argv[2], "MIN_S") * 1000;
	o.warmup_max_ms = number(argv[3], "MAX_S") * 1000;
	o.warmup_period_ms = argc == 5 ? number(argv[4], "WARMUP_PERIOD_MS") : o.period_ms;
	if (o.period_ms == 0) {
		fprintf(stderr, "unit_warmup: PERIOD_MS must be above 0\n");
		return 2;
	}
	sb_warmup_init(&w, &o);
	while (sb_warmup_on(&w)) {
		char *end;
		double rate;

		if (!fgets(line, sizeof(line), stdin)) {
			printf("more after %lu\n", w.done);
			return 1;
		}
		rate = strtod(line, &end);
		if (end == line || (*end && *end != '\n')) {
			fprintf(stderr, "unit_warmup: line %lu: '%s' is not a rate\n", w.done + 1, line);
			return 2;
		}
		sb_warmup_add(&w, rate);
	}
	if (argc == 5)
		printf("%lu x %lu ms\n", w.done, w.period_ms);
	else
		printf("%lu\n", w.done);
	return 0;
}
