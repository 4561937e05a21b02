/* The verdict module (analysis/stat/verdict.c), sb_curve_value and bisect's target values fed fixed values: every figure they give, printed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/point.h"
#include "curve/curve_value.h"
#include "rundir/rundir.h"
#include "stat/verdict.h"

/*
 * usage: unit_verdict ratio|log|diff CONF ALPHA BASE X [TAU [median]]
 *        unit_verdict spread SIDE...
 *        unit_verdict curve any|used|every RUNS POINT...
 * A side is its sweeps joined by '/', a sweep its values joined by ',' ("1,2,3/4,5") or its
 * summary "s:N:MEAN:VAR". ALPHA 0: the level's own. PCT: a drift given (--drift PCT); median: a
 * sweep's value its runs' median (sb_verdict_value).
 * Prints the verdict's figures (%.6g), the pooled spread, or the curve values; exit 1 when the
 * module refuses, 2 on bad input.
 */

#define MAXV 64

struct side {
	struct sb_vsweep sw[MAXV];
	double v[MAXV][MAXV];
	size_t nsw;
};

static double number(const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || (*end && *end != ',' && *end != '/' && *end != ':')) {
		fprintf(stderr, "unit_verdict: '%s' is not a number\n", s);
		exit(2);
	}
	return d;
}

/* One sweep's summary "s:N:MEAN:VAR" at p into w; returns the text after it. */
static const char *parse_summary(const char *p, struct sb_vsweep *w)
{
	const char *a = p + 2, *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;

	if (!c) {
		fprintf(stderr, "unit_verdict: '%s': s:N:MEAN:VAR\n", p);
		exit(2);
	}
	*w = (struct sb_vsweep){ NULL, (size_t)number(a), number(b + 1), number(c + 1), NULL, w->order };
	return c + 1 + strcspn(c + 1, "/");
}

/* "1,2/3,4/s:N:MEAN:VAR": sweeps of values or summaries, into s. */
static void parse_side(const char *arg, struct side *s)
{
	const char *p = arg;

	memset(s, 0, sizeof(*s));
	for (;;) {
		struct sb_vsweep *w = &s->sw[s->nsw];

		w->v = s->v[s->nsw];
		w->order = (long)s->nsw;
		if (strncmp(p, "s:", 2) == 0)
			p = parse_summary(p, w);
		while (w->v && *p && *p != '/' && w->n < MAXV) {
			s->v[s->nsw][w->n++] = number(p);
			p += strcspn(p, ",/");
			if (*p == ',')
				p++;
		}
		s->nsw++;
		if (*p != '/' || s->nsw == MAXV)
			break;
		p++;
	}
}

static int verdict(int argc, char **argv)
{
	static struct side b, x;
	const char *t = argv[1];
	struct sb_vquery q = { { NULL, 0 }, { NULL, 0 }, SB_VT_RATIO, number(argv[2]), number(argv[3]),
			       SB_DRIFT_NONE_INIT };
	struct sb_vresult v;
	int rc;

	q.test = !strcmp(t, "ratio") ? SB_VT_RATIO : !strcmp(t, "log") ? SB_VT_LOG : SB_VT_DIFF;
	parse_side(argv[4], &b);
	parse_side(argv[5], &x);
	q.base = (struct sb_vside){ b.sw, b.nsw };
	q.x = (struct sb_vside){ x.sw, x.nsw };
	if (argc > 6)
		sb_drift_given(number(argv[6]), &q.drift);
	rc = sb_verdict_value(&q, argc > 7 && !strcmp(argv[7], "median") ? SB_VV_MEDIAN : SB_VV_MEAN, &v);
	printf("word %s\nestimate %.6g\ninterval %.6g %.6g\nse %.6g\ndf %.6g\np %.6g\ndetectable %.6g\n"
	       "n %zu %zu\nmean %.6g %.6g\nvar %.6g %.6g\ndrift %s\n",
	       sb_vword_name[v.word], v.estimate, v.lo, v.hi, v.se, v.df, v.p, v.detectable, v.n0, v.n,
	       v.mean0, v.mean, v.var0, v.var, v.drift.what);
	if (rc == 0)
		printf("detectable at 0.01 %.6g\n", sb_verdict_detectable(&v, 0.01));
	if (argc > 7)
		printf("median %d\n", v.median);
	return rc == 0 ? 0 : 1;
}

static int spread(int argc, char **argv)
{
	static struct side s[8];
	struct sb_vside sides[8];
	const struct sb_drift none = SB_DRIFT_NONE_INIT;
	int n = argc - 2 < 8 ? argc - 2 : 8;
	double sd;

	for (int i = 0; i < n; i++) {
		parse_side(argv[i + 2], &s[i]);
		sides[i] = (struct sb_vside){ s[i].sw, s[i].nsw };
	}
	sd = sb_verdict_spread(sides, (size_t)n, &none);
	printf("spread %.6g\n", sd);
	return sd == sd ? 0 : 1;
}

static int curve(int argc, char **argv)
{
	static struct side s[MAXV];
	const double *v[MAXV];
	size_t runs = (size_t)number(argv[2]), npts = 0, got, bad;
	double out[MAXV];

	for (int i = 3; i < argc && npts < MAXV; i++, npts++) {
		parse_side(argv[i], &s[npts]);
		v[npts] = s[npts].sw[0].v;
		if (s[npts].sw[0].n < runs)
			runs = s[npts].sw[0].n;
	}
	if (runs > MAXV)
		runs = MAXV;
	got = sb_curve_value(v, npts, runs, out, &bad);
	printf("runs %zu\n", got);
	for (size_t k = 0; k < runs; k++)
		if (isnan(out[k]))
			printf("none\n");
		else
			printf("%.6g\n", out[k]);
	if (bad < npts)
		printf("bad point %zu\n", bad + 1);
	return got ? 0 : 1;
}

/* sb-bisect's values of TARGET in run directory DIR (sb_target_values): each value, then its note or error. */
static int target(char **argv)
{
	struct sb_target t;
	struct sb_run r;
	char err[1024] = "";
	double *v = NULL;
	size_t n = 0;
	int rc;

	if (sb_target_parse(argv[3], &t, err, sizeof(err)) != 0 || sb_run_load(argv[2], &r, err, sizeof(err)) != 0) {
		printf("error %s\n", err);
		return 2;
	}
	rc = sb_target_values(&t, &r, &v, &n, err, sizeof(err));
	printf("exit %d values %zu\n", rc, n);
	for (size_t k = 0; k < n; k++)
		printf("%.6g\n", v[k]);
	if (*err)
		printf("say %s\n", err);
	free(v);
	sb_run_free(&r);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && (!strcmp(argv[1], "ratio") || !strcmp(argv[1], "log") || !strcmp(argv[1], "diff")))
		return verdict(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "spread"))
		return spread(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "curve"))
		return curve(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "target"))
		return target(argv);
	fprintf(stderr, "usage: unit_verdict ratio|log|diff CONF ALPHA BASE X [TAU] | spread SIDE... | "
			"curve RUNS POINT... | target DIR TARGET\n");
	return 2;
}
