/* The history's SQLite file: opening it, its schema and the migrations to the current version, errors as one line. */
#include <errno.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history.h"
#include "exit.h"
#include "msg.h"

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
};

int sb_hist_dberr(struct sqlite3 *db, char *err, size_t errlen)
{
	const char *file = sqlite3_db_filename(db, "main");
	int code = sqlite3_extended_errcode(db);
	const char *hint = "";

	if ((code & 0xff) == SQLITE_BUSY)
		hint = " (another process is writing it, an sb-history or any SQLite client: try again)";
	else if ((code & 0xff) == SQLITE_READONLY)
		hint = " (read-only: no change made)";
	else if ((code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB)
		hint = " (not a history, or damaged: sb-history rebuild makes a new one from the run directories)";
	return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s%s", file && *file ? file : "history",
		       sqlite3_errmsg(db), hint);
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

/* Bring the schema to SB_HIST_SCHEMA, one step a version, in one write transaction. */
static int migrate(struct sqlite3 *db, const char *path, int how, char *err, size_t errlen)
{
	int v = 0, rc;
	char sql[64];

	if ((rc = user_version(db, &v, err, errlen)) != 0)
		return rc;
	if (v > SB_HIST_SCHEMA)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: schema version %d is newer than this sb-history's (%d): "
			       "use a newer scalebench", path, v, SB_HIST_SCHEMA);
	if (v == SB_HIST_SCHEMA)
		return 0;
	if (how == SB_HIST_READ)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: schema version %d, this sb-history reads %d: run "
			       "'sb-history migrate' (it needs write access)", path, v, SB_HIST_SCHEMA);
	if ((rc = sb_hist_exec(db, "BEGIN IMMEDIATE", err, errlen)) != 0)
		return rc;
	/* another writer may have migrated it while this one waited */
	if ((rc = user_version(db, &v, err, errlen)) == 0) {
		for (; v < SB_HIST_SCHEMA && rc == 0; v++)
			rc = sb_hist_exec(db, migrations[v], err, errlen);
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", SB_HIST_SCHEMA);
	if (rc == 0)
		rc = sb_hist_exec(db, sql, err, errlen);
	if (rc == 0)
		rc = sb_hist_exec(db, "COMMIT", err, errlen);
	if (rc != 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
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

int sb_hist_open(const char *path, int how, int timeout_ms, struct sqlite3 **db, char *err,
		 size_t errlen)
{
	struct stat st;
	int flags = how == SB_HIST_READ ? SQLITE_OPEN_READONLY :
		    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, rc;

	*db = NULL;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s", path, strerror(errno));
		if (how == SB_HIST_READ)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no history there (sb-history add RUNDIR... or "
				       "sb-history rebuild makes one)", path);
		if (!dir_exists(path))
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: its directory does not exist", path);
	} else if (how == SB_HIST_CREATE) {
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: exists", path);
	} else if (!S_ISREG(st.st_mode)) {
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: not a regular file", path);
	} else if (how != SB_HIST_READ && access(path, W_OK) != 0) {
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: read-only (%s): no change made", path, strerror(errno));
	}
	if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
		if (*db == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s", path, sqlite3_errmsg(*db));
		sb_hist_close(*db);
		*db = NULL;
		return rc;
	}
	sqlite3_extended_result_codes(*db, 1);
	sqlite3_busy_timeout(*db, timeout_ms);
	rc = sb_hist_exec(*db, "PRAGMA foreign_keys = ON", err, errlen);
	if (rc == 0 && how != SB_HIST_READ)
		rc = sb_hist_exec(*db, "PRAGMA synchronous = NORMAL", err, errlen);
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
