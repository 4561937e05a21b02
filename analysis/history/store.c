/* The history's SQLite file: opening it, its schema and the migrations to the current version, errors as one line. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history.h"
#include "msg/exit.h"
#include "msg/msg.h"

/*
 * migrations[v] takes a database of schema v to v + 1, in the transaction
 * that sets user_version; version 0 is an empty file. A new schema adds a
 * step here (never edits one) and raises SB_HIST_SCHEMA.
 */
static const char *const migrations[SB_HIST_SCHEMA] = {
	/* 0 -> 1 */
	"CREATE TABLE testbed ("
	" id INTEGER PRIMARY KEY, host TEXT NOT NULL, cpu_model TEXT NOT NULL,"
	" topology TEXT NOT NULL, hwloc_version TEXT NOT NULL, placement TEXT NOT NULL,"
	" host_name TEXT NOT NULL, host_cpu TEXT NOT NULL, host_topology TEXT NOT NULL,"
	" UNIQUE (host, cpu_model, topology, hwloc_version, placement, host_name, host_cpu,"
	" host_topology));"
	"CREATE TABLE sweep ("
	" id INTEGER PRIMARY KEY, test TEXT NOT NULL, run_id TEXT NOT NULL,"
	" params TEXT NOT NULL, testbed INTEGER NOT NULL REFERENCES testbed(id),"
	" kernel TEXT NOT NULL, release TEXT NOT NULL, kcommit TEXT NOT NULL,"
	" label TEXT NOT NULL, date TEXT NOT NULL, status TEXT NOT NULL,"
	" duration TEXT NOT NULL, warmup TEXT NOT NULL, period_ms TEXT NOT NULL,"
	" dir TEXT NOT NULL, UNIQUE (test, run_id));"
	"CREATE TABLE point ("
	" sweep INTEGER NOT NULL REFERENCES sweep(id) ON DELETE CASCADE, mode TEXT NOT NULL,"
	" tasks INTEGER NOT NULL, runs INTEGER NOT NULL, mean REAL NOT NULL,"
	" PRIMARY KEY (sweep, mode, tasks)) WITHOUT ROWID;"
	"CREATE TABLE obs ("
	" sweep INTEGER NOT NULL REFERENCES sweep(id) ON DELETE CASCADE, mode TEXT NOT NULL,"
	" tasks INTEGER NOT NULL, run INTEGER NOT NULL, value REAL NOT NULL,"
	" PRIMARY KEY (sweep, mode, tasks, run)) WITHOUT ROWID;"
	"CREATE INDEX sweep_test ON sweep (test);",
	/* 1 -> 2: a sweep is keyed by its testbed too, and knows its own start (meta's sweep_start) */
	"CREATE TABLE sweep2 ("
	" id INTEGER PRIMARY KEY, test TEXT NOT NULL, run_id TEXT NOT NULL,"
	" params TEXT NOT NULL, testbed INTEGER NOT NULL REFERENCES testbed(id),"
	" kernel TEXT NOT NULL, release TEXT NOT NULL, kcommit TEXT NOT NULL,"
	" label TEXT NOT NULL, date TEXT NOT NULL, status TEXT NOT NULL,"
	" duration TEXT NOT NULL, warmup TEXT NOT NULL, period_ms TEXT NOT NULL,"
	" dir TEXT NOT NULL, sweep_start TEXT NOT NULL DEFAULT '',"
	" UNIQUE (test, run_id, testbed));"
	"INSERT INTO sweep2 (id, test, run_id, params, testbed, kernel, release, kcommit, label, date,"
	" status, duration, warmup, period_ms, dir) SELECT id, test, run_id, params, testbed, kernel,"
	" release, kcommit, label, date, status, duration, warmup, period_ms, dir FROM sweep;"
	"DROP TABLE sweep;"
	"ALTER TABLE sweep2 RENAME TO sweep;"
	"CREATE INDEX sweep_test ON sweep (test);",
};

/* An error of the environment (a full disk, an I/O error, no memory or descriptors): exit 3, else 2. */
static int env_error(struct sqlite3 *db, int code)
{
	int e = sqlite3_system_errno(db);

	switch (code & 0xff) {
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_NOMEM:
		return 1;
	case SQLITE_CANTOPEN:
		return e == ENOSPC || e == EIO || e == ENOMEM || e == EMFILE || e == ENFILE || e == EDQUOT;
	}
	return 0;
}

int sb_hist_dberr(struct sqlite3 *db, char *err, size_t errlen)
{
	const char *file = sqlite3_db_filename(db, "main");
	int code = sqlite3_extended_errcode(db);
	const char *hint = "";

	if ((code & 0xff) == SQLITE_BUSY)
		hint = " (another process holds it: try again when it is done; sb-history's --timeout waits longer)";
	else if ((code & 0xff) == SQLITE_READONLY)
		hint = " (read-only: no change made)";
	else if ((code & 0xff) == SQLITE_FULL)
		hint = " (the disk is full: no change made)";
	else if ((code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB)
		hint = " (not a history, or damaged: sb-history rebuild makes a new one from the run directories)";
	return sb_fail(err, errlen, env_error(db, code) ? SB_EXIT_ENV : SB_EXIT_USAGE, "%s: %s%s",
		       file && *file ? file : "history", sqlite3_errmsg(db), hint);
}

int sb_hist_exec(struct sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sb_hist_dberr(db, err, errlen);
	return 0;
}

static int user_version(struct sqlite3 *db, int *v, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return sb_hist_dberr(db, err, errlen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sb_hist_dberr(db, err, errlen);
}

/* Every object of db's schema, as one string (malloc'd; NULL on an error, said in err); ANALYZE's
 * statistics tables are SQLite's own (they steer the query planner, never a value). */
static char *schema_of(struct sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	const unsigned char *t;
	char *s = NULL;

	if (sqlite3_prepare_v2(db, "SELECT group_concat(type || char(31) || name || char(31) || tbl_name ||"
			       " char(31) || coalesce(sql, ''), char(30)) FROM (SELECT * FROM sqlite_master"
			       " WHERE NOT (type = 'table' AND name IN ('sqlite_stat1', 'sqlite_stat4'))"
			       " ORDER BY type, name)", -1, &st, NULL) != SQLITE_OK) {
		sb_hist_dberr(db, err, errlen);
		return NULL;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		s = strdup(t ? (const char *)t : "");
		if (s == NULL)
			sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	} else {
		sb_hist_dberr(db, err, errlen);
	}
	sqlite3_finalize(st);
	return s;
}

/*
 * The schema of version v is exactly what this sb-history's migrations
 * 0..v-1 make (built again in memory and compared, object by object): a
 * trigger, view, index or table it did not create is refused, since a
 * trigger would change what is stored. Returns 0, 2 or 3.
 */
static int check_schema(struct sqlite3 *db, const char *path, int v, char *err, size_t errlen)
{
	struct sqlite3 *ref = NULL;
	char *want = NULL, *have;
	int rc = 0;

	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sqlite3_close(ref);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	for (int i = 0; i < v && rc == 0; i++)
		rc = sb_hist_exec(ref, migrations[i], err, errlen);
	if (rc == 0 && (want = schema_of(ref, err, errlen)) == NULL)
		rc = SB_EXIT_ENV;
	sqlite3_close(ref);
	if (rc != 0)
		return rc;
	if ((have = schema_of(db, err, errlen)) == NULL) {
		free(want);
		return (sqlite3_errcode(db) & 0xff) == SQLITE_NOMEM ? SB_EXIT_ENV : SB_EXIT_USAGE;
	}
	if (strcmp(have, want) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s: refused, no change made (sb-history rebuild makes "
			     "a new one from the run directories)", path, v == 0 ?
			     "not a history (tables of another program, and no schema version)" :
			     "its schema is not the one this sb-history made (a trigger, view, index or table added)");
	free(want);
	free(have);
	return rc;
}

/* The schema version into *v, in range, and the schema exactly that version's. 0, 2 or 3. */
static int version_checked(struct sqlite3 *db, const char *path, int *v, char *err, size_t errlen)
{
	int rc;

	if ((rc = user_version(db, v, err, errlen)) != 0)
		return rc;
	if (*v < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: schema version %d: not a history", path, *v);
	if (*v > SB_HIST_SCHEMA)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: schema version %d is newer than this sb-history's (%d): "
			       "use a newer scalebench", path, *v, SB_HIST_SCHEMA);
	return check_schema(db, path, *v, err, errlen);
}

/* Bring the schema to SB_HIST_SCHEMA, one step a version, in one write transaction. */
static int migrate(struct sqlite3 *db, const char *path, int how, char *err, size_t errlen)
{
	int v = 0, rc;
	char sql[64];

	/* the version and the schema read in one transaction: another sb-history creating the file
	 * meanwhile is seen before or after its creation, never half-way (tables, version 0) */
	if ((rc = sb_hist_exec(db, "BEGIN", err, errlen)) != 0)
		return rc;
	rc = version_checked(db, path, &v, err, errlen);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != 0 || v == SB_HIST_SCHEMA)
		return rc;
	if (how == SB_HIST_READ)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: schema version %d, this sb-history reads %d: run "
			       "'sb-history migrate' (it needs write access)", path, v, SB_HIST_SCHEMA);
	/* a step may rebuild a table: its rows must not cascade away (a no-op inside a transaction) */
	if ((rc = sb_hist_exec(db, "PRAGMA foreign_keys = OFF", err, errlen)) != 0 ||
	    (rc = sb_hist_exec(db, "BEGIN IMMEDIATE", err, errlen)) != 0)
		return rc;
	/* another writer may have migrated it while this one waited */
	if ((rc = user_version(db, &v, err, errlen)) == 0 && v < SB_HIST_SCHEMA)
		rc = check_schema(db, path, v, err, errlen);
	for (; rc == 0 && v >= 0 && v < SB_HIST_SCHEMA; v++)
		rc = sb_hist_exec(db, migrations[v], err, errlen);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", SB_HIST_SCHEMA);
	if (rc == 0)
		rc = sb_hist_exec(db, sql, err, errlen);
	if (rc == 0)
		rc = sb_hist_exec(db, "COMMIT", err, errlen);
	if (rc != 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	if (rc == 0)
		rc = sb_hist_exec(db, "PRAGMA foreign_keys = ON", err, errlen);
	return rc;
}

/* The directory a new file at path would go into exists. */
static int dir_exists(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat st;

	if (slash == NULL)
		return 1;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return *dir == '\0' || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Owned by this user or root: another user's file in a shared directory is not ours to trust. */
static int ours(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/*
 * SQLite's files beside the database (a hot journal is rolled into the
 * database when it is opened): each, when there, a regular file of ours.
 */
static int check_beside(const char *path, char *err, size_t errlen)
{
	static const char *const sfx[] = { "-journal", "-wal", "-shm" };
	char side[4200];
	struct stat st;

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", path, sfx[i]);
		if (lstat(side, &st) != 0) {
			if (errno == ENOENT)
				continue;
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s", side, strerror(errno));
		}
		if (!S_ISREG(st.st_mode) || !ours(&st))
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s: refused, no change made (remove it)", side,
				       !S_ISREG(st.st_mode) ? "not a regular file" : "owned by another user");
	}
	return 0;
}

/*
 * The database file itself, opened without following a link (created here,
 * O_EXCL, when absent and how is WRITE): a regular file of ours. Returns the
 * descriptor (its identity is checked again once SQLite has it), or -1 with
 * the exit code in *rc and the message in err.
 */
static int open_file(const char *path, int how, struct stat *st, int *rc, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && how == SB_HIST_WRITE) {
		if (!dir_exists(path)) {
			*rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: its directory does not exist", path);
			return -1;
		}
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)	/* another writer made it first: that one, checked */
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;

		*rc = sb_fail(err, errlen, e == EMFILE || e == ENFILE || e == ENOMEM || e == ENOSPC || e == EIO ||
			      e == EDQUOT ? SB_EXIT_ENV : SB_EXIT_USAGE, "%s: %s", path,
			      e == ENOENT ? "no history there (sb-history add RUNDIR... or sb-history rebuild makes one)" :
			      e == ELOOP ? "a symbolic link: refused, no change made" : strerror(e));
		return -1;
	}
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || !ours(st)) {
		*rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s", path, !S_ISREG(st->st_mode) ?
			      "not a regular file" : "owned by another user (not this user or root): refused, no change made");
		close(fd);
		return -1;
	}
	if (how == SB_HIST_CREATE && st->st_size != 0) {
		*rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: not a new empty file", path);
		close(fd);
		return -1;
	}
	if (how != SB_HIST_READ && access(path, W_OK) != 0) {
		*rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: read-only (%s): no change made", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* SQLite's connection to the file the descriptor holds; the settings every history gets. */
static int hist_connect(const char *path, int how, int timeout_ms, const struct stat *st,
		   struct sqlite3 **db, char *err, size_t errlen)
{
	int flags = (how == SB_HIST_READ ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOFOLLOW;
	struct stat now;
	int rc;

	if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
		if (*db == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		return sb_fail(err, errlen, env_error(*db, sqlite3_extended_errcode(*db)) ? SB_EXIT_ENV : SB_EXIT_USAGE,
			       "%s: %s", path, sqlite3_errmsg(*db));
	}
	/* the path still names the file checked (not swapped between the check and SQLite's open) */
	if (lstat(path, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: replaced while it was opened: refused", path);
	sqlite3_extended_result_codes(*db, 1);
	sqlite3_busy_timeout(*db, timeout_ms);
	sqlite3_db_config(*db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(*db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	rc = sb_hist_exec(*db, "PRAGMA foreign_keys = ON", err, errlen);
	if (rc == 0 && how != SB_HIST_READ)
		rc = sb_hist_exec(*db, "PRAGMA synchronous = NORMAL", err, errlen);
	return rc;
}

/*
 * path with its directory resolved (realpath): SQLITE_OPEN_NOFOLLOW refuses a
 * link anywhere in the name, and a results directory reached through a link
 * (results -> /data/results) is common; the file's own name, where another
 * user could plant a link in a shared directory, is still never followed.
 */
static void resolve_dir(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], real[PATH_MAX];

	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (realpath(dir, real) == NULL || (size_t)snprintf(out, len, "%s/%s", strcmp(real, "/") == 0 ? "" : real,
							     base) >= len)
		snprintf(out, len, "%s", path);
}

int sb_hist_open(const char *path, int how, int timeout_ms, struct sqlite3 **db, char *err,
		 size_t errlen)
{
	struct stat st;
	char real[PATH_MAX + 256];
	int rc = 0, fd = open_file(path, how, &st, &rc, err, errlen);

	*db = NULL;
	if (fd < 0)
		return rc;
	resolve_dir(path, real, sizeof(real));
	rc = check_beside(path, err, errlen);
	if (rc == 0)
		rc = hist_connect(real, how, timeout_ms, &st, db, err, errlen);
	close(fd);
	if (rc == 0)
		rc = migrate(*db, path, how, err, errlen);
	if (rc != 0) {
		sb_hist_close(*db);
		*db = NULL;
	}
	return rc;
}

void sb_hist_close(struct sqlite3 *db)
{
	if (db != NULL)
		sqlite3_close_v2(db);
}
