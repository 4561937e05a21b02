/* The selected testcases' sweeps out of the history: each sweep's keys, testbed, points and per-run means in memory. */
#define _GNU_SOURCE	/* asprintf */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "msg/exit.h"
#include "msg/msg.h"

/* [1]: one testcase's (through the index on sweep.test), [0]: every one */
static const char *const q_sweeps[2] = {
	"SELECT s.id, s.test, s.run_id, s.params, s.label, s.release, s.kcommit, s.date, s.status,"
	" s.testbed, t.host, t.host_name, t.cpu_model, t.topology, t.hwloc_version, t.placement,"
	" s.sweep_start, s.duration, s.warmup, s.period_ms FROM sweep s JOIN testbed t ON t.id = s.testbed",
	"SELECT s.id, s.test, s.run_id, s.params, s.label, s.release, s.kcommit, s.date, s.status,"
	" s.testbed, t.host, t.host_name, t.cpu_model, t.topology, t.hwloc_version, t.placement,"
	" s.sweep_start, s.duration, s.warmup, s.period_ms FROM sweep s JOIN testbed t ON t.id = s.testbed"
	" WHERE s.test = ?1",
};
static const char *const q_obs[2] = {
	"SELECT sweep, mode, tasks, value FROM obs ORDER BY sweep, mode, tasks, run",
	"SELECT o.sweep, o.mode, o.tasks, o.value FROM sweep s JOIN obs o ON o.sweep = s.id"
	" WHERE s.test = ?1 ORDER BY o.sweep, o.mode, o.tasks, o.run",
};

/*
 * A stored text as every report shows it: a control character (C0, DEL, and
 * C1 as UTF-8 writes it) or a backslash as \xNN, as the lock's holder lines
 * are. meta's label, kernel, host and params are whatever the sweep was given:
 * an escape sequence never reaches a terminal, a tab never splits list's TSV.
 */
static char *esc_dup(const unsigned char *t)
{
	size_t n = 0;
	char *d, *p;

	if (t == NULL)
		t = (const unsigned char *)"";
	for (const unsigned char *c = t; *c; c++)
		n += *c < 0x20 || *c == 0x7f || *c == '\\' || *c == 0xc2 || (*c >= 0x80 && *c <= 0x9f) ? 4 : 1;
	if ((d = p = malloc(n + 1)) == NULL)
		return NULL;
	for (const unsigned char *c = t; *c; c++) {
		int c1 = *c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f;

		if (*c < 0x20 || *c == 0x7f || *c == '\\' || c1 || (*c >= 0x80 && *c <= 0x9f && c > t &&
		    c[-1] == 0xc2)) {
			snprintf(p, 5, "\\x%02x", *c);
			p += 4;
		} else {
			*p++ = (char)*c;
		}
	}
	*p = '\0';
	return d;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	return esc_dup(sqlite3_column_text(st, i));
}

/* One row of q_sweeps into a new sweep of h (unless the testbed filter leaves it out). */
static int take_sweep(sqlite3_stmt *st, struct sb_hist *h, size_t *cap, const char *testbed)
{
	struct sb_hist_sweep *s;
	const char *host = (const char *)sqlite3_column_text(st, 10);
	const char *vmhost = (const char *)sqlite3_column_text(st, 11);
	const char *shown = vmhost && *vmhost ? vmhost : host ? host : "";

	if (testbed != NULL && strcmp(testbed, shown) != 0 && strcmp(testbed, host ? host : "") != 0)
		return 0;
	if (h->nsw == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct sb_hist_sweep *nv = realloc(h->sw, nc * sizeof(*nv));

		if (nv == NULL)
			return -1;
		h->sw = nv;
		*cap = nc;
	}
	s = &h->sw[h->nsw++];
	memset(s, 0, sizeof(*s));
	s->id = (long)sqlite3_column_int64(st, 0);
	s->testbed = (long)sqlite3_column_int64(st, 9);
	s->test = col_dup(st, 1);
	s->run_id = col_dup(st, 2);
	s->params = col_dup(st, 3);
	s->label = col_dup(st, 4);
	s->release = col_dup(st, 5);
	s->commit = col_dup(st, 6);
	s->date = col_dup(st, 7);
	s->status = col_dup(st, 8);
	s->tb_name = esc_dup((const unsigned char *)shown);
	{
		/* the boot it ran in: sweep_start's BOOT_ID before the '/' (drift within a boot or across) */
		const char *start = (const char *)sqlite3_column_text(st, 16), *slash;

		if (start && (slash = strchr(start, '/')) != NULL && slash > start)
			s->boot = strndup(start, (size_t)(slash - start));
	}
	{
		/* its shape: a drift estimate pairs sweeps of one shape (history/drift.c) */
		char *f[3];

		for (int k = 0; k < 3; k++)
			f[k] = col_dup(st, 17 + k);
		if (f[0] && f[1] && f[2])
			s->shape = sb_hist_shape_name(f[0], f[1], f[2]);
		for (int k = 0; k < 3; k++)
			free(f[k]);
	}
	{
		char *f[4];

		for (int k = 0; k < 4; k++)
			f[k] = col_dup(st, 12 + k);
		if (!f[0] || !f[1] || !f[2] || !f[3] ||
		    asprintf(&s->tb_facts, "%s, %s, hwloc %s, placement %s", f[0], f[1], f[2], f[3]) < 0)
			s->tb_facts = NULL;
		for (int k = 0; k < 4; k++)
			free(f[k]);
	}
	if (!s->test || !s->run_id || !s->params || !s->label || !s->release || !s->commit ||
	    !s->date || !s->status || !s->tb_name || !s->tb_facts || !s->shape)
		return -1;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct sb_hist_sweep *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int mode_index(struct sb_hist *h, const char *mode)
{
	char **nv, *m;

	for (size_t i = 0; i < h->nmodes; i++)	/* the usual case: a plain name, seen before */
		if (strcmp(h->modes[i], mode) == 0 && strchr(mode, '\\') == NULL)
			return (int)i;
	if ((m = esc_dup((const unsigned char *)mode)) == NULL)
		return -1;
	for (size_t i = 0; i < h->nmodes; i++)
		if (strcmp(h->modes[i], m) == 0) {
			free(m);
			return (int)i;
		}
	nv = realloc(h->modes, (h->nmodes + 1) * sizeof(*nv));
	if (nv == NULL) {
		free(m);
		return -1;
	}
	h->modes = nv;
	h->modes[h->nmodes] = m;
	return (int)h->nmodes++;
}

/* One obs row: appended to h->obs, into the sweep's last point or a new one. */
static int take_obs(sqlite3_stmt *st, struct sb_hist *h, size_t *ocap, size_t *pcap)
{
	struct sb_hist_sweep key = { .id = (long)sqlite3_column_int64(st, 0) }, *s;
	const char *mode = (const char *)sqlite3_column_text(st, 1);
	long tasks = (long)sqlite3_column_int64(st, 2);
	int m;
	struct sb_hist_point *p;

	s = bsearch(&key, h->sw, h->nsw, sizeof(*h->sw), cmp_id);
	if (s == NULL)
		return 0;	/* left out by the testbed filter */
	if ((m = mode_index(h, mode ? mode : "")) < 0)
		return -1;
	if (h->nobs == *ocap) {
		size_t nc = *ocap ? 2 * *ocap : 4096;
		double *nv = realloc(h->obs, nc * sizeof(*nv));

		if (nv == NULL)
			return -1;
		h->obs = nv;
		*ocap = nc;
	}
	p = s->npts ? &s->pts[s->npts - 1] : NULL;
	if (p == NULL || p->mode != m || p->tasks != tasks) {
		if (s->npts == 0)
			*pcap = 0;
		if (s->npts == *pcap) {
			size_t nc = *pcap ? 2 * *pcap : 32;
			struct sb_hist_point *nv = realloc(s->pts, nc * sizeof(*nv));

			if (nv == NULL)
				return -1;
			s->pts = nv;
			*pcap = nc;
		}
		p = &s->pts[s->npts++];
		*p = (struct sb_hist_point){ .mode = m, .tasks = tasks, .off = h->nobs };
	}
	h->obs[h->nobs++] = sqlite3_column_double(st, 3);
	p->mean += (h->obs[h->nobs - 1] - p->mean) / (double)++p->n;
	return 0;
}

static int run_query(struct sqlite3 *db, const char *sql, const char *test, int obs,
		     struct sb_hist *h, size_t *cap, size_t *pcap, const char *testbed, char *err,
		     size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sb_hist_dberr(db, err, errlen);
	if (test != NULL)
		sqlite3_bind_text(st, 1, test, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((obs ? take_obs(st, h, cap, pcap) : take_sweep(st, h, cap, testbed)) != 0) {
			sqlite3_finalize(st);
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		}
	rc = rc == SQLITE_DONE ? 0 : sb_hist_dberr(db, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

int sb_hist_load(struct sqlite3 *db, char *const *tests, size_t ntests, const char *testbed,
		 struct sb_hist *h, char *err, size_t errlen)
{
	size_t cap = 0, ocap = 0, pcap = 0, n = ntests ? ntests : 1;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	/* one read transaction: a writer's commit between the two queries would not be half seen */
	if ((rc = sb_hist_exec(db, "BEGIN", err, errlen)) != 0)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = run_query(db, q_sweeps[ntests > 0], ntests ? tests[i] : NULL, 0, h, &cap, NULL, testbed, err,
			       errlen);
	if (rc == 0 && h->nsw > 1)
		qsort(h->sw, h->nsw, sizeof(*h->sw), cmp_id);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = run_query(db, q_obs[ntests > 0], ntests ? tests[i] : NULL, 1, h, &ocap, &pcap, NULL, err,
			       errlen);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

void sb_hist_sweep_free(struct sb_hist_sweep *s)
{
	free(s->test);
	free(s->run_id);
	free(s->params);
	free(s->label);
	free(s->release);
	free(s->commit);
	free(s->date);
	free(s->status);
	free(s->tb_name);
	free(s->tb_facts);
	free(s->column);
	free(s->boot);
	free(s->shape);
	free(s->pts);
}

void sb_hist_free(struct sb_hist *h)
{
	for (size_t i = 0; i < h->nsw; i++)
		sb_hist_sweep_free(&h->sw[i]);
	free(h->sw);
	free(h->obs);
	for (size_t i = 0; i < h->nmodes; i++)
		free(h->modes[i]);
	free(h->modes);
	memset(h, 0, sizeof(*h));
}
