/* A run directory into the history: read by the one loader (sb_run_load), its sweep, testbed, points and per-run means inserted. */
#define _GNU_SOURCE	/* asprintf */
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history.h"
#include "msg/exit.h"
#include "msg/msg.h"
#include "io/results.h"

enum { Q_TESTBED, Q_TESTBED_ID, Q_FIND, Q_DELETE, Q_SWEEP, Q_POINT, Q_OBS, NQ };

static const char *const sql[NQ] = {
	"INSERT OR IGNORE INTO testbed (host, cpu_model, topology, hwloc_version, placement,"
	" host_name, host_cpu, host_topology) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	"SELECT id FROM testbed WHERE host = ?1 AND cpu_model = ?2 AND topology = ?3 AND"
	" hwloc_version = ?4 AND placement = ?5 AND host_name = ?6 AND host_cpu = ?7 AND"
	" host_topology = ?8",
	"SELECT id, status, sweep_start, dir FROM sweep WHERE test = ?1 AND run_id = ?2 AND testbed = ?3",
	"DELETE FROM sweep WHERE id = ?1",
	"INSERT INTO sweep (test, run_id, params, testbed, kernel, release, kcommit, label, date,"
	" status, duration, warmup, period_ms, dir, sweep_start)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
	"INSERT INTO point (sweep, mode, tasks, runs, mean) VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT INTO obs (sweep, mode, tasks, run, value) VALUES (?1, ?2, ?3, ?4, ?5)",
};

struct sb_hist_ins {
	struct sqlite3 *db;
	sqlite3_stmt *q[NQ];
};

int sb_hist_ins_new(struct sqlite3 *db, struct sb_hist_ins **ins, char *err, size_t errlen)
{
	struct sb_hist_ins *p = calloc(1, sizeof(*p));

	*ins = NULL;
	if (p == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	p->db = db;
	for (int i = 0; i < NQ; i++)
		if (sqlite3_prepare_v2(db, sql[i], -1, &p->q[i], NULL) != SQLITE_OK) {
			int rc = sb_hist_dberr(db, err, errlen);

			sb_hist_ins_free(p);
			return rc;
		}
	*ins = p;
	return 0;
}

void sb_hist_ins_free(struct sb_hist_ins *ins)
{
	if (ins == NULL)
		return;
	for (int i = 0; i < NQ; i++)
		sqlite3_finalize(ins->q[i]);
	free(ins);
}

static void bind_texts(sqlite3_stmt *st, const char *const *v, int n)
{
	for (int i = 0; i < n; i++)
		sqlite3_bind_text(st, i + 1, v[i] ? v[i] : "", -1, SQLITE_STATIC);
}

/* One statement run to its end; SQLITE_ROW is left for the caller. Returns sqlite's code. */
static int step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW)
		sqlite3_reset(st);
	return rc;
}

static int testbed_id(struct sb_hist_ins *ins, const struct sb_run *r, long *id, char *err,
		      size_t errlen)
{
	const char *v[] = { r->host, r->cpu_model, r->topology, r->hwloc_version, r->placement,
			    r->host_name, r->host_cpu, r->host_topology };
	int rc;

	bind_texts(ins->q[Q_TESTBED], v, 8);
	if (step(ins->q[Q_TESTBED]) != SQLITE_DONE)
		return sb_hist_dberr(ins->db, err, errlen);
	bind_texts(ins->q[Q_TESTBED_ID], v, 8);
	rc = sqlite3_step(ins->q[Q_TESTBED_ID]);
	if (rc == SQLITE_ROW)
		*id = (long)sqlite3_column_int64(ins->q[Q_TESTBED_ID], 0);
	sqlite3_reset(ins->q[Q_TESTBED_ID]);
	return rc == SQLITE_ROW ? 0 : sb_hist_dberr(ins->db, err, errlen);
}

/* The kernel release: the second word of meta's kernel (uname -srvm), else the label. */
static void release_of(const struct sb_run *r, char *buf, size_t len)
{
	const char *k = r->kernel, *sp = strchr(k, ' ');

	if (sp != NULL) {
		sp++;
		snprintf(buf, len, "%.*s", (int)strcspn(sp, " "), sp);
	} else {
		snprintf(buf, len, "%s", *k ? k : r->label);
	}
}

/* meta's commit (runtest.sh --commit, SB_COMMIT), "" without */
static const char *commit_of(const struct sb_run *r)
{
	return r->meta[SB_META_commit] ? r->meta[SB_META_commit] : "";
}

static int insert_points(struct sb_hist_ins *ins, long sweep, const struct sb_run *r, char *err,
			 size_t errlen)
{
	for (size_t i = 0; i < r->npts; i++) {
		const struct sb_point *p = &r->pts[i];
		/* one run: its samples' mean is the run's mean (sb_run_pool's rule) */
		const double *v = p->means.n > 0 ? p->means.v : &p->samples.st.mean;
		size_t n = p->means.n > 0 ? p->means.n : p->samples.n > 0 ? 1 : 0;
		double mean = p->means.n > 0 ? p->means.st.mean : p->samples.st.mean;

		if (n == 0)
			continue;
		sqlite3_bind_int64(ins->q[Q_POINT], 1, sweep);
		sqlite3_bind_text(ins->q[Q_POINT], 2, p->mode, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins->q[Q_POINT], 3, p->tasks);
		sqlite3_bind_int64(ins->q[Q_POINT], 4, (sqlite3_int64)n);
		sqlite3_bind_double(ins->q[Q_POINT], 5, mean);
		if (step(ins->q[Q_POINT]) != SQLITE_DONE)
			return sb_hist_dberr(ins->db, err, errlen);
		for (size_t k = 0; k < n; k++) {
			sqlite3_bind_int64(ins->q[Q_OBS], 1, sweep);
			sqlite3_bind_text(ins->q[Q_OBS], 2, p->mode, -1, SQLITE_STATIC);
			sqlite3_bind_int64(ins->q[Q_OBS], 3, p->tasks);
			sqlite3_bind_int64(ins->q[Q_OBS], 4, (sqlite3_int64)k + 1);
			sqlite3_bind_double(ins->q[Q_OBS], 5, v[k]);
			if (step(ins->q[Q_OBS]) != SQLITE_DONE)
				return sb_hist_dberr(ins->db, err, errlen);
		}
	}
	return 0;
}

/* What is stored under the key (test, run id, testbed): its id (0: none), status, start and directory. */
struct stored {
	long id;
	char status[32], start[160], dir[PATH_MAX];
};

static void col_copy(sqlite3_stmt *q, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(q, i);

	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

/* The sweep already stored under (test, run_id, testbed) -> *old (id 0: none). Returns 0 or 2. */
static int find_sweep(struct sb_hist_ins *ins, const struct sb_run *r, long tb, struct stored *old,
		      char *err, size_t errlen)
{
	sqlite3_stmt *q = ins->q[Q_FIND];
	const char *v[] = { r->test, r->run_id };
	int rc;

	memset(old, 0, sizeof(*old));
	bind_texts(q, v, 2);
	sqlite3_bind_int64(q, 3, tb);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		old->id = (long)sqlite3_column_int64(q, 0);
		col_copy(q, 1, old->status, sizeof(old->status));
		col_copy(q, 2, old->start, sizeof(old->start));
		col_copy(q, 3, old->dir, sizeof(old->dir));
	}
	sqlite3_reset(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sb_hist_dberr(ins->db, err, errlen);
}

/*
 * The stored sweep is this one: the same runtest.sh start (meta's
 * sweep_start, boot id and start time) when both have one, else the same
 * directory. Two machines' or two --no-lock sweeps' run ids can be the same.
 */
static int same_sweep(const struct stored *old, const struct sb_run *r, const char *abs)
{
	if (*old->start && *r->sweep_start)
		return strcmp(old->start, r->sweep_start) == 0;
	return strcmp(old->dir, abs) == 0;
}

static int store_run(struct sb_hist_ins *ins, const struct sb_run *r,
		     int *what, char *err, size_t errlen)
{
	char release[256], abs[PATH_MAX];
	struct stored old;
	long tb = 0, id;
	int rc;

	if (realpath(r->dir, abs) == NULL)
		snprintf(abs, sizeof(abs), "%s", r->dir);
	if ((rc = testbed_id(ins, r, &tb, err, errlen)) != 0 ||
	    (rc = find_sweep(ins, r, tb, &old, err, errlen)) != 0)
		return rc;
	if (old.id != 0 && !same_sweep(&old, r, abs)) {
		*what = SB_ADD_TAKEN;
		return sb_fail(err, errlen, SB_EXIT_OK, "%s: another sweep (from %s) is stored under its testcase, "
			       "run id and testbed: not added", r->dir, old.dir);
	}
	if (old.id != 0 && strcmp(old.status, r->status) == 0) {
		*what = SB_ADD_SAME;
		return 0;
	}
	if (old.id != 0) {
		sqlite3_bind_int64(ins->q[Q_DELETE], 1, old.id);
		if (step(ins->q[Q_DELETE]) != SQLITE_DONE)
			return sb_hist_dberr(ins->db, err, errlen);
	}
	release_of(r, release, sizeof(release));
	{
		const char *v[] = { r->test, r->run_id, r->params ? r->params : "", NULL, r->kernel,
				    release, commit_of(r), r->label, r->date, r->status,
				    r->duration ? r->duration : "", r->warmup ? r->warmup : "",
				    r->period_ms ? r->period_ms : "", abs, r->sweep_start };

		bind_texts(ins->q[Q_SWEEP], v, 15);
		sqlite3_bind_int64(ins->q[Q_SWEEP], 4, tb);
	}
	if (step(ins->q[Q_SWEEP]) != SQLITE_DONE)
		return sb_hist_dberr(ins->db, err, errlen);
	id = (long)sqlite3_last_insert_rowid(ins->db);
	*what = old.id != 0 ? SB_ADD_REPLACED : SB_ADD_NEW;
	return insert_points(ins, id, r, err, errlen);
}

/* A point whose run measured no progress (a mean not above 0): its name and run into buf; 0 when none. */
static int failed_point(const struct sb_run *r, char *buf, size_t len)
{
	for (size_t i = 0; i < r->npts; i++) {
		const struct sb_point *p = &r->pts[i];
		const double *v = p->means.n > 0 ? p->means.v : &p->samples.st.mean;
		size_t n = p->means.n > 0 ? p->means.n : p->samples.n > 0 ? 1 : 0;

		for (size_t k = 0; k < n; k++)
			if (!(v[k] > 0) || !isfinite(v[k])) {
				snprintf(buf, len, "%s:%ld run %zu measured %g ops/s", p->mode, p->tasks, k + 1, v[k]);
				return 1;
			}
	}
	return 0;
}

/* A name that is one path component, printable: a testcase or a run id. */
static int name_ok(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (; *s; s++)
		if (*s == '/' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * meta's values the history orders, keys and hands on (a commit goes to git
 * checkout in docs/BISECT.md's job) are what runtest.sh writes. Returns 0,
 * or 1 with why in err.
 */
static int meta_bad(const struct sb_run *r, char *err, size_t errlen)
{
	const char *commit = commit_of(r);
	size_t n = strlen(commit);

	if (!name_ok(r->test) || !name_ok(r->run_id)) {
		sb_fail(err, errlen, SB_EXIT_OK, "%s: meta's %s is not a plain name: not added", r->dir,
			name_ok(r->test) ? "run_id" : "test");
		return 1;
	}
	if (sb_hist_date(r->date) == 0) {
		sb_fail(err, errlen, SB_EXIT_OK, "%s: meta's date '%.40s' is not a date (YYYY-MM-DDTHH:MM:SSZ): "
			"not added", r->dir, r->date);
		return 1;
	}
	if (n > 0 && (n < 7 || n > 64 || strspn(commit, "0123456789abcdefABCDEF") != n)) {
		sb_fail(err, errlen, SB_EXIT_OK, "%s: meta's commit '%.40s' is not a commit hash (7 to 64 hex digits): "
			"not added", r->dir, commit);
		return 1;
	}
	return 0;
}

/*
 * The run directory and the directory holding it (results/<test>) belong to
 * this user or root: in a shared results directory, another user's could
 * hold any numbers, or be swapped after the check. Returns 0, or 1 with why in err.
 */
static int foreign_dir(const char *dir, char *err, size_t errlen)
{
	char abs[PATH_MAX], *slash;
	struct stat st;
	int bad = 0;

	if (realpath(dir, abs) == NULL || stat(abs, &st) != 0 || !S_ISDIR(st.st_mode)) {
		sb_fail(err, errlen, SB_EXIT_OK, "%s: not a directory: not added", dir);
		return 1;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0)
		bad = 1;
	if (!bad && (slash = strrchr(abs, '/')) != NULL) {
		slash[slash == abs] = '\0';
		if (stat(abs, &st) == 0 && st.st_uid != geteuid() && st.st_uid != 0)
			bad = 2;
	}
	if (bad)
		sb_fail(err, errlen, SB_EXIT_OK, "%s: %s owned by another user (not this user or root): not added", dir,
			bad == 1 ? "the run directory is" : "its testcase's directory is");
	return bad != 0;
}

int sb_hist_add(struct sb_hist_ins *ins, const char *dir, int partial, int *what, char *err,
		size_t errlen)
{
	struct sb_run r;
	char failed[128];
	int rc = sb_run_load(dir, &r, err, errlen);

	*what = SB_ADD_BAD;
	if (rc == SB_EXIT_USAGE)
		rc = 0;		/* unreadable: said in err, not added */
	else if (rc == 0 && foreign_dir(r.dir, err, errlen))
		;
	else if (rc == 0 && !*r.run_id)
		sb_fail(err, errlen, SB_EXIT_OK, "%s: meta has no run_id: not a run directory runtest.sh wrote", r.dir);
	else if (rc == 0 && strcmp(r.status, "complete") != 0 && !partial)
		*what = SB_ADD_REFUSED, sb_fail(err, errlen, SB_EXIT_OK, "%s: status %s: not added (--partial adds it)",
						 r.dir, r.status);
	else if (rc == 0 && r.npts == 0)
		*what = SB_ADD_REFUSED, sb_fail(err, errlen, SB_EXIT_OK, "%s: no measured point: not added", r.dir);
	else if (rc == 0 && !partial && failed_point(&r, failed, sizeof(failed)))
		*what = SB_ADD_REFUSED, sb_fail(err, errlen, SB_EXIT_OK, "%s: %s: a failed measurement, not added "
						 "(--partial adds it; changes then reports the point failed)",
						 r.dir, failed);
	else if (rc == 0 && !meta_bad(&r, err, errlen))
		rc = store_run(ins, &r, what, err, errlen);
	sb_run_free(&r);
	return rc;
}
