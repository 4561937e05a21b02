/* The order of a history's sweeps: by time, by kernel version, or by a list of commits; their columns and groups. */
#define _GNU_SOURCE	/* asprintf, getline */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "io/csv.h"
#include "msg/exit.h"
#include "msg/msg.h"

/* "v6.10.1-rc3-amd64" -> its numbers, and the rc (or a large number for a release): *end after them. */
static int kver_parse(const char *s, long num[4], long *rc, const char **end)
{
	int n = 0;

	if (*s == 'v' && isdigit((unsigned char)s[1]))
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (n < 4 && isdigit((unsigned char)*s)) {
		num[n++] = strtol(s, (char **)&s, 10);
		if (*s == '.' && isdigit((unsigned char)s[1]))
			s++;
		else
			break;
	}
	while (n < 4)
		num[n++] = -1;	/* 6.10 before 6.10.0, which sorts as 6.10 does */
	*rc = 1L << 30;
	if (strncmp(s, "-rc", 3) == 0 && isdigit((unsigned char)s[3]))
		*rc = strtol(s + 3, (char **)&s, 10);
	*end = s;
	return 1;
}

int sb_hist_date(const char *s)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	long y, m, d;

	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !isdigit((unsigned char)s[i]))
			return 0;
	y = strtol(s, NULL, 10);
	m = strtol(s + 5, NULL, 10);
	d = strtol(s + 8, NULL, 10);
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0)))
		return 0;
	return s[10] == '\0' ? 1 : s[10] == 'T' ? 2 : 0;
}

int sb_kver_cmp(const char *a, const char *b)
{
	long na[4], nb[4], ra, rb;
	const char *ea, *eb;
	int pa = kver_parse(a, na, &ra, &ea), pb = kver_parse(b, nb, &rb, &eb);

	if (!pa || !pb)
		return pa != pb ? (pa ? -1 : 1) : strcmp(a, b);	/* versions before other names */
	for (int i = 0; i < 4; i++) {
		long x = na[i] < 0 ? 0 : na[i], y = nb[i] < 0 ? 0 : nb[i];

		if (x != y)
			return x < y ? -1 : 1;
	}
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(ea, eb);
}

/* What a sweep's version is read from: its label when that is a version, else its release. */
static const char *version_of(const struct sb_hist_sweep *s)
{
	const char *l = s->label;

	if (isdigit((unsigned char)l[0]) || (l[0] == 'v' && isdigit((unsigned char)l[1])))
		return l;
	return s->release;
}

static enum sb_hist_order sort_order;

static int cmp_sweeps(const void *a, const void *b)
{
	const struct sb_hist_sweep *x = a, *y = b;
	int c = 0;

	if (sort_order == SB_ORDER_VERSION)
		c = sb_kver_cmp(version_of(x), version_of(y));
	else if (sort_order == SB_ORDER_COMMITS)
		c = x->ord < y->ord ? -1 : x->ord > y->ord;
	if (c == 0)
		c = strcmp(x->date, y->date);
	if (c == 0)
		c = strcmp(x->test, y->test);
	if (c == 0)
		c = strcmp(x->run_id, y->run_id);	/* not the row id: rebuild's order is not add's */
	return c != 0 ? c : x->id < y->id ? -1 : x->id > y->id;
}

/* commit a matches b when one is the other's prefix (a short and a full hash), 7 characters at least */
static int same_commit(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	return n >= 7 && strncasecmp(a, b, n) == 0;
}

/* Each sweep's place in the commits file -> ord; SIZE_MAX when it is not there. */
static int commit_places(struct sb_hist *h, const char *file, char *err, size_t errlen)
{
	int e;
	FILE *f = sb_file_stream(file, &e);	/* a file or <(git rev-list ...); a FIFO without a writer is empty */
	char *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;

	if (f == NULL)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--order commits %s: %s", file,
			       e == SB_E_NOTREG ? "a device or socket, not a file or a pipe" : strerror(e));
	for (size_t i = 0; i < h->nsw; i++)
		h->sw[i].ord = (size_t)-1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *c = line + strspn(line, " \t");

		c[strcspn(c, " \t\r\n")] = '\0';
		if (*c == '\0' || *c == '#')
			continue;
		for (size_t i = 0; i < h->nsw; i++)
			if (h->sw[i].ord == (size_t)-1 && *h->sw[i].commit && same_commit(c, h->sw[i].commit))
				h->sw[i].ord = n;
		n++;
	}
	free(line);
	if (ferror(f)) {
		fclose(f);
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--order commits %s: read error", file);
	}
	fclose(f);
	if (n == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--order commits %s: no commit in it", file);
	return 0;
}

static int group_params = 1;	/* params part of a group's key (not --any-params) */

static int cmp_group(const void *a, const void *b)
{
	const struct sb_hist_sweep *const *x = a, *const *y = b;
	int c = strcmp((*x)->test, (*y)->test);

	if (c == 0 && group_params)
		c = strcmp((*x)->params, (*y)->params);
	if (c == 0)
		c = (*x)->testbed < (*y)->testbed ? -1 : (*x)->testbed > (*y)->testbed;
	return c;
}

/* groups: testcase x params x testbed, numbered in the order of (test, params, testbed) */
static int set_groups(struct sb_hist *h)
{
	struct sb_hist_sweep **v = malloc((h->nsw + 1) * sizeof(*v));

	if (v == NULL)
		return -1;
	for (size_t i = 0; i < h->nsw; i++)
		v[i] = &h->sw[i];
	qsort(v, h->nsw, sizeof(*v), cmp_group);
	h->ngroups = 0;
	for (size_t i = 0; i < h->nsw; i++) {
		if (i > 0 && cmp_group(&v[i - 1], &v[i]) != 0)
			h->ngroups++;
		v[i]->group = h->ngroups;
	}
	if (h->nsw > 0)
		h->ngroups++;
	free(v);
	return 0;
}

int sb_hist_order(struct sb_hist *h, enum sb_hist_order order, const char *commits_file,
		  enum sb_hist_column col, int any_params, size_t *dropped, char *err, size_t errlen)
{
	int rc;

	group_params = !any_params;
	*dropped = 0;
	if (order == SB_ORDER_COMMITS) {
		size_t keep = 0;

		if ((rc = commit_places(h, commits_file, err, errlen)) != 0)
			return rc;
		for (size_t i = 0; i < h->nsw; i++) {
			if (h->sw[i].ord == (size_t)-1)
				sb_hist_sweep_free(&h->sw[i]);
			else
				h->sw[keep++] = h->sw[i];
		}
		*dropped = h->nsw - keep;
		h->nsw = keep;
	}
	sort_order = order;
	if (h->nsw > 1)
		qsort(h->sw, h->nsw, sizeof(*h->sw), cmp_sweeps);
	for (size_t i = 0; i < h->nsw; i++) {
		struct sb_hist_sweep *s = &h->sw[i];

		s->ord = i;
		free(s->column);
		if (col == SB_COL_LABEL)
			s->column = strdup(s->label);
		else if (asprintf(&s->column, "%s%s%.12s", s->release, *s->commit ? "@" : "", s->commit) < 0)
			s->column = NULL;
		if (s->column == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	if (set_groups(h) != 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	return 0;
}
