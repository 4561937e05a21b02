/* What a bisect measures (a point, a peak's count, a curve) and its run values in a run directory. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/point.h"
#include "curve/curve_value.h"
#include "msg/exit.h"
#include "msg/msg.h"

static int mode_ok(const char *m)
{
	return strcmp(m, "processes") == 0 || strcmp(m, "threads") == 0;
}

int sb_target_parse(const char *s, struct sb_target *t, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	char *end;

	memset(t, 0, sizeof(*t));
	if (strcmp(s, "peak") == 0) {
		t->kind = SB_T_PEAK;
		return 0;
	}
	if (!colon || (size_t)(colon - s) >= sizeof(t->mode))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--point '%s': MODE:TASKS, peak, peak:MODE or curve:MODE", s);
	if (strncmp(s, "peak:", 5) == 0 || strncmp(s, "curve:", 6) == 0) {
		t->kind = s[0] == 'p' ? SB_T_PEAK : SB_T_CURVE;
		snprintf(t->mode, sizeof(t->mode), "%s", colon + 1);
	} else {
		t->kind = SB_T_POINT;
		memcpy(t->mode, s, (size_t)(colon - s));
		t->mode[colon - s] = '\0';
		errno = 0;
		t->tasks = strtol(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || t->tasks < 1 || t->tasks > 1000000)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "--point '%s': TASKS must be a whole number 1..1000000", s);
	}
	if (!mode_ok(t->mode))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--point '%s': unknown mode '%s' (processes or threads)", s, t->mode);
	return 0;
}

int sb_target_resolve(struct sb_target *t, const struct sb_run *good, char *err, size_t errlen)
{
	const struct sb_point *best = NULL;

	if (t->kind != SB_T_PEAK)
		return 0;
	for (size_t i = 0; i < good->npts; i++) {
		const struct sb_point *p = &good->pts[i];
		const struct sb_values *v = sb_point_values(p);

		if (t->mode[0] && strcmp(p->mode, t->mode) != 0)
			continue;
		if (!t->mode[0] && !mode_ok(p->mode))
			continue;
		if (!t->mode[0])
			snprintf(t->mode, sizeof(t->mode), "%s", p->mode);
		if (strcmp(p->mode, t->mode) == 0 && v->n && (!best || v->st.mean > sb_point_values(best)->st.mean))
			best = p;
	}
	if (!best)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no %s point to take the peak of", good->dir,
			       t->mode[0] ? t->mode : "processes or threads");
	t->tasks = best->tasks;
	return 0;
}

const char *sb_target_str(const struct sb_target *t, char *buf, size_t len)
{
	if (t->kind == SB_T_CURVE)
		snprintf(buf, len, "curve:%s", t->mode);
	else
		snprintf(buf, len, "%s:%ld", t->mode, t->tasks);
	return buf;
}

/* One value a run index: exp(mean over the mode's points of log(run i's mean)); a run without one left out, named in err. */
static int curve_values(const struct sb_target *t, const struct sb_run *r, double **v, size_t *n,
			char *err, size_t errlen)
{
	size_t runs = 0, npts = 0, got, bad;
	const struct sb_point **pp;
	const double **pv;

	for (size_t i = 0; i < r->npts; i++) {
		const struct sb_point *p = &r->pts[i];

		if (strcmp(p->mode, t->mode) != 0)
			continue;
		if (p->means.n < SB_INDEPENDENT_RUNS)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s:%ld has %zu run(s): a curve needs %d a point",
				       r->dir, p->mode, p->tasks, p->means.n, SB_INDEPENDENT_RUNS);
		runs = npts == 0 || p->means.n < runs ? p->means.n : runs;
		npts++;
	}
	if (npts == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no %s points for curve:%s", r->dir, t->mode, t->mode);
	pv = calloc(npts, sizeof(*pv));
	pp = calloc(npts, sizeof(*pp));
	if (!pv || !pp || !(*v = calloc(runs, sizeof(**v)))) {
		free(pv);
		free(pp);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	for (size_t i = 0, m = 0; i < r->npts; i++)
		if (strcmp(r->pts[i].mode, t->mode) == 0) {
			pp[m] = &r->pts[i];
			pv[m++] = r->pts[i].means.v;
		}
	got = sb_curve_value(pv, npts, runs, *v, &bad);
	if (bad < npts)
		snprintf(err, errlen, "%s: %zu of its %zu runs have no curve value (a run's mean at %s:%ld is not "
			 "positive: 0, below 0 or not finite): left out as failed measurements",
			 r->dir, runs - got, runs, pp[bad]->mode, pp[bad]->tasks);
	free(pv);
	free(pp);
	if (got == 0)
		return SB_EXIT_FAIL;
	sb_curve_value_pack(*v, runs);
	for (size_t k = 0; k < got; k++)
		(*v)[k] = exp((*v)[k]);
	*n = got;
	return 0;
}

int sb_target_values(const struct sb_target *t, const struct sb_run *r, double **v, size_t *n,
		     char *err, size_t errlen)
{
	const struct sb_point *p;

	*v = NULL;
	*n = 0;
	if (errlen)
		*err = 0;
	if (t->kind == SB_T_CURVE)
		return curve_values(t, r, v, n, err, errlen);
	p = sb_run_find(r, t->mode, t->tasks);
	if (!p)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no point %s:%ld", r->dir, t->mode, t->tasks);
	if (p->means.n < 1)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s:%ld has %zu run(s): a bisect needs run means",
			       r->dir, t->mode, t->tasks, p->nruns);
	if (!(*v = malloc(p->means.n * sizeof(**v))))
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	memcpy(*v, p->means.v, p->means.n * sizeof(**v));
	*n = p->means.n;
	return 0;
}
