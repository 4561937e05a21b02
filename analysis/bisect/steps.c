/* The bisect's step log: read it, and append a line by rewriting the file through a temporary name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/steps.h"
#include "msg/exit.h"
#include "msg/msg.h"
#include "io/csv.h"

/* The whole file into a malloc'd string ("" when absent); NULL with errno and *why on failure. Through
 * io/'s one way in: a FIFO at the path stalled every step and the report for good. */
static char *slurp(const char *path, const char **why)
{
	char *buf = NULL;
	size_t len = 0;
	int e = sb_file_slurp(path, &buf, &len);

	if (e == ENOENT)
		return calloc(1, 1);
	*why = e != 0 ? sb_file_strerror(e) : "a NUL byte: the file is damaged";
	if (e == 0 && memchr(buf, '\0', len) != NULL) {	/* the lines after it would be lost */
		free(buf);
		buf = NULL;
		e = EINVAL;
	}
	errno = e;
	return buf;
}

/* Split line at tabs into f[0..max-1]; returns the count. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static int parse_line(char *line, struct sb_stepline *s)
{
	char *f[10], *end;
	size_t n = split(line, f, 10);

	memset(s, 0, sizeof(*s));
	if (n < 4 || strlen(f[0]) >= sizeof(s->kind) || strlen(f[1]) >= sizeof(s->sha) ||
	    strlen(f[2]) >= sizeof(s->target))
		return -1;
	strcpy(s->kind, f[0]);
	strcpy(s->sha, f[1]);
	strcpy(s->target, f[2]);
	if (strcmp(f[0], "sweep") == 0 && (n == 4 || n == 6)) {
		s->rundir = f[3];
		s->good = n == 6 ? f[4] : NULL;
		s->bad = n == 6 ? f[5] : NULL;
		return 0;
	}
	if (strcmp(f[0], "verdict") != 0 || n != 10 || strlen(f[3]) >= sizeof(s->verdict))
		return -1;
	strcpy(s->verdict, f[3]);
	s->runs = strtol(f[4], &end, 10);
	if (*end)
		return -1;
	s->mean = strtod(f[5], &end);
	if (*end)
		return -1;
	s->position = strtod(f[6], &end);
	if (*end)
		return -1;
	s->good = f[7];
	s->bad = f[8];
	s->command = f[9];
	return 0;
}

int sb_steplog_read(const char *path, struct sb_steplog *log, char *err, size_t errlen)
{
	char *p, *nl;
	const char *why = "";
	size_t lineno = 0;

	memset(log, 0, sizeof(*log));
	if (!(log->text = slurp(path, &why)))
		return sb_fail(err, errlen, errno == ENOMEM ? SB_EXIT_ENV : SB_EXIT_USAGE, "%s: %s", path, why);
	for (p = log->text; *p; p = nl + 1) {
		struct sb_stepline *nlp;

		lineno++;
		nl = strchr(p, '\n');
		if (!nl)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%zu: the last line has no newline (a torn write?)",
				       path, lineno);
		*nl = '\0';
		if (!(nlp = realloc(log->l, (log->n + 1) * sizeof(*log->l))))
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
		log->l = nlp;
		if (parse_line(p, &log->l[log->n]) < 0)
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%zu: not a step line", path, lineno);
		log->n++;
	}
	return 0;
}

void sb_steplog_free(struct sb_steplog *log)
{
	free(log->l);
	free(log->text);
	memset(log, 0, sizeof(*log));
}

int sb_steplog_append(const char *path, const char *const *fields, size_t nfields, char *err,
		      size_t errlen)
{
	char tmp[4096];
	char *old;
	const char *why = "";
	FILE *f;
	int bad = 0;

	for (size_t i = 0; i < nfields; i++)
		if (strpbrk(fields[i], "\t\n"))
			return sb_fail(err, errlen, SB_EXIT_USAGE, "'%s': a tab or newline cannot go into the step log", fields[i]);
	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: path too long", path);
	if (!(old = slurp(path, &why)))
		return sb_fail(err, errlen, SB_EXIT_ENV, "%s: %s", path, why);
	if (!(f = fopen(tmp, "w"))) {
		free(old);
		return sb_fail(err, errlen, SB_EXIT_ENV, "%s: %s", tmp, strerror(errno));
	}
	bad |= fputs(old, f) == EOF;
	free(old);
	for (size_t i = 0; i < nfields; i++)
		bad |= fprintf(f, "%s%s", i ? "\t" : "", fields[i]) < 0;
	bad |= fputc('\n', f) == EOF;
	bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		int e = errno;

		unlink(tmp);
		return sb_fail(err, errlen, SB_EXIT_ENV, "%s: cannot write: %s", path, strerror(e));
	}
	return 0;
}
