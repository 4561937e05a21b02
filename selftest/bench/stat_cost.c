/* stat_cost.c: what one verdict's statistics cost here: a two-sided p-value and a t quantile at a new df, ns a call. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stat/stats.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
	double sink = 0, t0, p2, tq;

	if (n < 1000 || n > 100000000) {
		fprintf(stderr, "usage: stat_cost [CALLS: 1000 to 1e8]\n");
		return 2;
	}
	/* df as a verdict's Welch-Satterthwaite df: a new value each call, 5 to 18 */
	t0 = now();
	for (long i = 0; i < n; i++)
		sink += sb_student_p2(1.0 + (double)(i % 1000) * 1e-3, 5.0 + (double)(i % 977) * 0.0131);
	p2 = (now() - t0) / (double)n * 1e9;
	t0 = now();
	for (long i = 0; i < n; i++)	/* a df not asked before: the quantile's cache does not answer */
		sink += sb_student_quantile(0.975, 5.0 + (double)i * 1e-5);
	tq = (now() - t0) / (double)n * 1e9;
	printf("two-sided p-value (sb_student_p2): %.0f ns a call\n", p2);
	printf("t quantile at a new df (sb_student_quantile): %.0f ns a call\n", tq);
	return sink == 0;
}
