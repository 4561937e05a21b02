/* The history's drift for one sweep's testcase, params and testbed: what compare and bisect ask for a run directory's points. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "history.h"
#include "msg/msg.h"
#include "rundir/rundir.h"

struct sb_drift_lookup {
	struct sb_hist h;
	struct sb_hist_series *s;
	size_t ns;
	struct sb_hist_drift *d;
	size_t group;		/* the run's testcase x params x testbed; (size_t)-1: not in the history */
	char *shape;		/* the run's shape (sb_hist_shape_name): the figure is that shape's */
};

/* The testbed id of r's machine in db; 0 when the history has never seen it. */
static long testbed_of(sqlite3 *db, const struct sb_run *r)
{
	static const char q[] = "SELECT id FROM testbed WHERE host = ?1 AND cpu_model = ?2 AND"
		" topology = ?3 AND hwloc_version = ?4 AND placement = ?5 AND host_name = ?6 AND"
		" host_cpu = ?7 AND host_topology = ?8";
	const char *v[] = { r->host, r->cpu_model, r->topology, r->hwloc_version, r->placement,
			    r->host_name, r->host_cpu, r->host_topology };
	sqlite3_stmt *st;
	long id = 0;

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
		return 0;
	for (int i = 0; i < 8; i++)
		sqlite3_bind_text(st, i + 1, v[i] ? v[i] : "", -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/*
 * Keep the sweeps of testbed tb; mark the sweeps being judged (left out of
 * the estimates, kept in the order: their neighbours are not read as a pair).
 */
static void keep_testbed(struct sb_hist *h, long tb, const struct sb_run *const *skip, size_t nskip)
{
	size_t w = 0;

	for (size_t i = 0; i < h->nsw; i++) {
		if (h->sw[i].testbed != tb) {
			sb_hist_sweep_free(&h->sw[i]);
			continue;
		}
		for (size_t k = 0; k < nskip; k++)
			h->sw[i].judged |= skip[k]->run_id && strcmp(h->sw[i].run_id, skip[k]->run_id) == 0 &&
					   skip[k]->test && strcmp(h->sw[i].test, skip[k]->test) == 0;
		h->sw[w++] = h->sw[i];
	}
	h->nsw = w;
}

void sb_drift_lookup_free(struct sb_drift_lookup *l)
{
	if (!l)
		return;
	sb_hist_drift_free(l->d);
	free(l->shape);
	sb_hist_series_free(l->s, l->ns);
	sb_hist_free(&l->h);
	free(l);
}

int sb_drift_lookup_open(const char *path, const struct sb_run *r, const struct sb_run *const *skip,
			 size_t nskip, int timeout_ms, struct sb_drift_lookup **out, char *err,
			 size_t errlen)
{
	struct sb_drift_lookup *l = calloc(1, sizeof(*l));
	struct sqlite3 *db = NULL;
	size_t dropped;
	long tb;
	int rc;

	*out = NULL;
	if (!l)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	l->group = (size_t)-1;
	if ((l->shape = sb_hist_shape_name(r->duration ? r->duration : "", r->warmup ? r->warmup : "",
					   r->period_ms ? r->period_ms : "")) == NULL) {
		free(l);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	if ((rc = sb_hist_open(path, SB_HIST_READ, timeout_ms, &db, err, errlen)) != 0) {
		free(l->shape);
		free(l);
		return rc;
	}
	tb = testbed_of(db, r);
	rc = tb ? sb_hist_load(db, NULL, 0, NULL, &l->h, err, errlen) : 0;
	sb_hist_close(db);
	if (rc == 0 && tb) {
		keep_testbed(&l->h, tb, skip, nskip);
		rc = sb_hist_order(&l->h, SB_ORDER_TIME, NULL, SB_COL_LABEL, 0, &dropped, err, errlen);
	}
	if (rc == 0 && tb && sb_hist_series(&l->h, &l->s, &l->ns) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (rc == 0 && tb && sb_hist_drift_new(&l->h, l->s, l->ns, &l->d) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; rc == 0 && i < l->h.nsw; i++)
		if (strcmp(l->h.sw[i].test, r->test ? r->test : "") == 0 &&
		    strcmp(l->h.sw[i].params, r->params ? r->params : "") == 0)
			l->group = l->h.sw[i].group;
	if (rc != 0) {
		sb_drift_lookup_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void sb_drift_lookup_point(const struct sb_drift_lookup *l, const char *mode, long tasks, int across,
			   const struct sb_drift *base, struct sb_drift *out)
{
	*out = *base;
	if (!l || !l->d)
		return;
	for (size_t i = 0; i < l->ns; i++) {
		const struct sb_hist_series *se = &l->s[i];

		if (se->group == l->group && se->tasks == tasks && strcmp(l->h.modes[se->mode], mode) == 0) {
			sb_hist_drift_of(l->d, i, l->shape, across, base, out);
			return;
		}
	}
	/* a point this history has not seen: its testbed's figure, through any series of the testbed */
	for (size_t i = 0; i < l->ns; i++)
		if (l->h.sw[l->s[i].sw[0]].group == l->group || l->group == (size_t)-1) {
			sb_hist_drift_testbed(l->d, i, l->shape, across, base, out);
			return;
		}
}

int sb_drift_lookup_advise(FILE *out, const struct sb_drift_lookup *l, const struct sb_drift_report_opts *o)
{
	if (!l || !l->d || l->group == (size_t)-1)
		return 0;
	return sb_hist_drift_advise(out, &l->h, l->s, l->ns, l->d, l->group, l->shape, o);
}

/* The history a comparison learns from: given (--history), else $SB_HISTORY, else history.db of
 * the results directory rundir is in (RESULTS/<test>/<run-id>). NULL: no memory. */
static char *history_path(const char *given, const char *rundir)
{
	const char *env = getenv("SB_HISTORY");
	size_t len = strlen(rundir) + sizeof("/history.db");
	char *p, *slash;

	if (given)
		return strdup(given);
	if (env && *env)
		return strdup(env);
	if ((p = malloc(len + 8)) == NULL)
		return NULL;
	snprintf(p, len + 8, "%s", rundir);
	for (int up = 0; up < 2; up++) {
		while ((slash = strrchr(p, '/')) != NULL && slash[1] == '\0' && slash != p)
			*slash = '\0';	/* a trailing slash */
		if ((slash = strrchr(p, '/')) == NULL) {
			snprintf(p, len + 8, ".");
			break;
		}
		*slash = '\0';
		if (*p == '\0')
			snprintf(p, len + 8, "/");
	}
	strcat(p, strcmp(p, "/") == 0 ? "history.db" : "/history.db");
	return p;
}

int sb_drift_lookup_find(const char *history, const struct sb_run *r, const struct sb_run *const *skip,
			 size_t nskip, int timeout_ms, struct sb_drift_lookup **out, char *note, size_t notelen,
			 char *err, size_t errlen)
{
	char *path = history_path(history, r->dir), herr[256];
	int rc;

	*out = NULL;
	if (path == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (access(path, F_OK) != 0)
		snprintf(note, notelen, "no history at %s (runtest.sh keeps one; sb-history drift shows what it "
			 "learned)", path);
	else if ((rc = sb_drift_lookup_open(path, r, skip, nskip, timeout_ms, out, herr, sizeof(herr))) != 0) {
		if (rc == SB_EXIT_ENV) {
			free(path);
			return sb_fail(err, errlen, rc, "%s", herr);
		}
		snprintf(note, notelen, "history not used: %s", herr);	/* not fatal: the default stands */
	} else
		snprintf(note, notelen, "learned from the history %s", path);
	free(path);
	return 0;
}
