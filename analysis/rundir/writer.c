/* The run directory's writer: the run id rule, meta written whole through a rename, the reserve for the final status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg/msg.h"
#include "io/results.h"
#include "rundir/keys.h"
#include "rundir/writer.h"


static const char *const statuses[] = { "running", "complete", "failed", "interrupted" };

int sb_rundir_status_valid(const char *s)
{
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (strcmp(s, statuses[i]) == 0)
			return 1;
	return 0;
}

int sb_meta_new(struct sb_meta *m)
{
	sb_meta_keys(&m->n);
	m->val = calloc(m->n, sizeof(*m->val));
	return m->val ? SB_EXIT_OK : SB_EXIT_ENV;
}

void sb_meta_free(struct sb_meta *m)
{
	for (size_t i = 0; m->val && i < m->n; i++)
		free(m->val[i]);
	free(m->val);
	m->val = NULL;
}

static int set_value(struct sb_meta *m, int i, const char *v, size_t len)
{
	char *copy = strndup(v, len);

	if (!copy)
		return SB_EXIT_ENV;
	free(m->val[i]);
	m->val[i] = copy;
	return SB_EXIT_OK;
}

int sb_meta_put(struct sb_meta *m, const char *kv, int allow_status, char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	int i;

	if (!eq || eq == kv)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "'%.80s' is not KEY=VALUE", kv);
	i = sb_meta_key_index(kv, (size_t)(eq - kv));
	if (i < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%.*s: not a meta key (results/README.md lists them)",
			       (int)(eq - kv), kv);
	if (strpbrk(eq + 1, "\n\r"))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%.*s: a value on more than one line", (int)(eq - kv), kv);
	if (!allow_status && sb_meta_key_is_status(sb_meta_keys(&(size_t){ 0 })[i].key))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%.*s: set only by sb-rundir status", (int)(eq - kv), kv);
	if (set_value(m, i, eq + 1, strlen(eq + 1)) != SB_EXIT_OK)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	return SB_EXIT_OK;
}

struct load_ctx {
	struct sb_meta *m;
	const char *unknown;
};

static int load_key(void *ctx, const char *k, const char *v)
{
	struct load_ctx *x = ctx;
	int i = sb_meta_key_index(k, strlen(k));

	if (i < 0) {
		if (!x->unknown)
			x->unknown = k;
		return 0;
	}
	return set_value(x->m, i, v, strlen(v)) == SB_EXIT_OK ? 0 : -1;
}

int sb_meta_load(struct sb_meta *m, const char *path, char *err, size_t errlen)
{
	struct load_ctx x = { m, NULL };
	char *text = NULL;
	int rc;

	rc = sb_meta_read(path, load_key, &x, &text, err, errlen);
	if (rc == SB_EXIT_OK && x.unknown)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s: not a meta key (results/README.md lists them)", path,
			     x.unknown);
	free(text);
	return rc;
}

/* a/b into buf; -1 (ENAMETOOLONG) when it does not fit */
static int join(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* meta's text, in the table's order: a malloc'd string */
static char *render(const struct sb_meta *m, size_t *len)
{
	const struct sb_meta_key *keys = sb_meta_keys(&(size_t){ 0 });
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		if (m->val[i])
			fprintf(f, "%s=%s\n", keys[i].key, m->val[i]);
	if (fclose(f) == EOF) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* text into DIR/meta through DIR/.meta.PID.tmp; errno on failure (-1) */
static int write_meta(const char *dir, const char *text, size_t len)
{
	char tmp[PATH_MAX], dest[PATH_MAX], name[64];
	struct stat st;
	int fd, e;

	snprintf(name, sizeof(name), ".meta.%ld.tmp", (long)getpid());
	if (join(tmp, sizeof(tmp), dir, name) < 0 || join(dest, sizeof(dest), dir, "meta") < 0)
		return -1;
	/* the rename would put a regular file in place of a symlink or a device node */
	if (lstat(dest, &st) == 0 && !S_ISREG(st.st_mode)) {
		errno = EEXIST;
		return -2;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -1;
	if (write_all(fd, text, len) < 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, dest) < 0) {
		e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

static int reserve_path(char *buf, size_t len, const char *dir)
{
	return join(buf, len, dir, SB_RUNDIR_RESERVE_NAME);
}

int sb_meta_store(const struct sb_meta *m, const char *dir, int final, char *err, size_t errlen)
{
	char reserve[PATH_MAX];
	size_t len = 0;
	char *text = render(m, &len);
	int rc;

	if (!text)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	rc = reserve_path(reserve, sizeof(reserve), dir) < 0 ? -1 : write_meta(dir, text, len);
	/* a full disk: the final status takes the room kept for it */
	if (rc == -1 && final && (errno == ENOSPC || errno == EDQUOT) && unlink(reserve) == 0)
		rc = write_meta(dir, text, len);
	free(text);
	if (rc == -2)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s/meta: not a regular file: not replaced", dir);
	if (rc < 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "cannot write %s/meta: %s", dir, strerror(errno));
	if (final)
		unlink(reserve);
	return SB_EXIT_OK;
}

/* the reserve: SB_RUNDIR_RESERVE bytes written (not a hole: the blocks are taken) */
static int reserve_make(const char *dir)
{
	static const char zeros[4096];
	char path[PATH_MAX];
	int fd, e;

	if (reserve_path(path, sizeof(path), dir) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (size_t done = 0; done < SB_RUNDIR_RESERVE; done += sizeof(zeros))
		if (write_all(fd, zeros, sizeof(zeros)) < 0) {
			e = errno;
			close(fd);
			unlink(path);
			errno = e;
			return -1;
		}
	if (close(fd) < 0) {
		e = errno;
		unlink(path);
		errno = e;
		return -1;
	}
	return 0;
}

/* mkdir PARENT/<label>-<stamp>[-N] -> id */
static int make_dir(const char *parent, const char *label, const char *stamp, char *id, size_t idlen,
		    char *err, size_t errlen)
{
	char path[PATH_MAX];

	for (unsigned n = 1;; n++) {
		if (n == 1)
			snprintf(id, idlen, "%s-%s", label, stamp);
		else
			snprintf(id, idlen, "%s-%s-%u", label, stamp, n);
		if (join(path, sizeof(path), parent, id) < 0)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s/%s: %s", parent, id, strerror(errno));
		if (mkdir(path, 0755) == 0)
			return SB_EXIT_OK;
		if (errno != EEXIST || n > 100000)
			return sb_fail(err, errlen, SB_EXIT_ENV, "cannot create %s: %s", path, strerror(errno));
	}
}

int sb_rundir_create(const char *parent, const char *label, time_t at, struct sb_meta *m, char *id,
		     size_t idlen, char *err, size_t errlen)
{
	char stamp[32], date[32], dir[PATH_MAX], reserve[PATH_MAX];
	struct tm tm;
	int rc;

	if (!*label || strchr(label, '/') || strpbrk(label, "\n\r") || strlen(label) + 20 > NAME_MAX)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "label '%.80s': not a directory name's start", label);
	if (!gmtime_r(&at, &tm))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "time %ld: out of range", (long)at);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rc = make_dir(parent, label, stamp, id, idlen, err, errlen);
	if (rc != SB_EXIT_OK)
		return rc;
	join(dir, sizeof(dir), parent, id);	/* (make_dir made it) */
	if (set_value(m, sb_meta_key_index("run_id", 6), id, strlen(id)) != SB_EXIT_OK ||
	    set_value(m, sb_meta_key_index("date", 4), date, strlen(date)) != SB_EXIT_OK ||
	    set_value(m, sb_meta_key_index("status", 6), "running", 7) != SB_EXIT_OK ||
	    set_value(m, sb_meta_key_index("error", 5), "", 0) != SB_EXIT_OK ||
	    set_value(m, sb_meta_key_index("failed_mode", 11), "", 0) != SB_EXIT_OK ||
	    set_value(m, sb_meta_key_index("failed_tasks", 12), "", 0) != SB_EXIT_OK) {
		rmdir(dir);
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	if (reserve_make(dir) < 0) {
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "cannot write %s/meta: %s", dir, strerror(errno));
		rmdir(dir);
		return rc;
	}
	rc = sb_meta_store(m, dir, 0, err, errlen);
	if (rc != SB_EXIT_OK) {
		if (reserve_path(reserve, sizeof(reserve), dir) == 0)
			unlink(reserve);
		rmdir(dir);
	}
	return rc;
}

int sb_rundir_latest(const char *parent, const char *id, char *err, size_t errlen)
{
	char link[PATH_MAX], tmp[PATH_MAX], name[64];
	struct stat st;

	snprintf(name, sizeof(name), ".latest.%ld.tmp", (long)getpid());
	if (join(link, sizeof(link), parent, "latest") < 0 || join(tmp, sizeof(tmp), parent, name) < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: %s", parent, strerror(errno));
	if (lstat(link, &st) == 0 && S_ISDIR(st.st_mode))
		return sb_fail(err, errlen, SB_EXIT_ENV, "%s is a directory, not the link to the newest run: "
			       "move it away", link);
	unlink(tmp);
	if (symlink(id, tmp) < 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "cannot write %s: %s", link, strerror(errno));
	if (rename(tmp, link) < 0) {
		int e = errno;

		unlink(tmp);
		return sb_fail(err, errlen, SB_EXIT_ENV, "cannot write %s: %s", link, strerror(e));
	}
	return SB_EXIT_OK;
}
