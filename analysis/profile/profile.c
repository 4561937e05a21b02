/* Profiles: perf script output and folded stacks read into stacks and per-symbol shares. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/top.h"
#include "msg/msg.h"
#include "profile.h"

#define MAXFRAMES 1024
#define TOP_HEADER SB_TOP_HEADER	/* format/top.h */


static uint64_t hash_str(const char *s, int k)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)k;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* ---- the symbol and stack tables ---- */

static int grow_index(size_t **idx, size_t *size, size_t n)
{
	size_t *old = *idx, osize = *size, nsize = osize ? osize * 2 : 1024;

	if (n * 2 < osize)
		return 0;
	*idx = malloc(nsize * sizeof(**idx));
	if (*idx == NULL) {
		*idx = old;
		return -1;
	}
	for (size_t i = 0; i < nsize; i++)
		(*idx)[i] = SIZE_MAX;
	*size = nsize;
	free(old);
	return 1;	/* rehash needed */
}

static size_t sym_slot(const struct sb_prof *p, const char *name, int kernel)
{
	size_t i = hash_str(name, kernel) & (p->symhash - 1);

	while (p->symidx[i] != SIZE_MAX) {
		const struct sb_sym *s = &p->syms[p->symidx[i]];

		if (s->kernel == kernel && strcmp(s->name, name) == 0)
			break;
		i = (i + 1) & (p->symhash - 1);
	}
	return i;
}

/* The symbol (name, kernel), added when new; NULL when memory runs out. */
static struct sb_sym *sym_get(struct sb_prof *p, const char *name, const char *dso, int kernel)
{
	size_t slot;
	int g = grow_index(&p->symidx, &p->symhash, p->nsyms + 1);

	if (g < 0)
		return NULL;
	if (g > 0)
		for (size_t i = 0; i < p->nsyms; i++)
			p->symidx[sym_slot(p, p->syms[i].name, p->syms[i].kernel)] = i;
	slot = sym_slot(p, name, kernel);
	if (p->symidx[slot] != SIZE_MAX) {
		struct sb_sym *s = &p->syms[p->symidx[slot]];

		if (s->dso[0] == '\0' && dso[0] != '\0') {
			char *d = strdup(dso);

			if (d == NULL)
				return NULL;
			free(s->dso);
			s->dso = d;
		}
		return s;
	}
	if (p->nsyms == p->symcap) {
		size_t ncap = p->symcap ? p->symcap * 2 : 256;
		struct sb_sym *n = realloc(p->syms, ncap * sizeof(*n));

		if (n == NULL)
			return NULL;
		p->syms = n;
		p->symcap = ncap;
	}
	struct sb_sym *s = &p->syms[p->nsyms];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->dso = strdup(dso);
	if (s->name == NULL || s->dso == NULL) {
		free(s->name);
		free(s->dso);
		return NULL;
	}
	s->kernel = kernel;
	p->symidx[slot] = p->nsyms++;
	return s;
}

static size_t stack_slot(const struct sb_prof *p, const char *folded)
{
	size_t i = hash_str(folded, 0) & (p->stackhash - 1);

	while (p->stackidx[i] != SIZE_MAX && strcmp(p->stacks[p->stackidx[i]].folded, folded) != 0)
		i = (i + 1) & (p->stackhash - 1);
	return i;
}

static int stack_add(struct sb_prof *p, const char *folded, double count)
{
	size_t slot;
	int g = grow_index(&p->stackidx, &p->stackhash, p->nstacks + 1);

	if (g < 0)
		return -1;
	if (g > 0)
		for (size_t i = 0; i < p->nstacks; i++)
			p->stackidx[stack_slot(p, p->stacks[i].folded)] = i;
	slot = stack_slot(p, folded);
	if (p->stackidx[slot] != SIZE_MAX) {
		p->stacks[p->stackidx[slot]].count += count;
		return 0;
	}
	if (p->nstacks == p->stackcap) {
		size_t ncap = p->stackcap ? p->stackcap * 2 : 256;
		struct sb_stack *n = realloc(p->stacks, ncap * sizeof(*n));

		if (n == NULL)
			return -1;
		p->stacks = n;
		p->stackcap = ncap;
	}
	p->stacks[p->nstacks].folded = strdup(folded);
	if (p->stacks[p->nstacks].folded == NULL)
		return -1;
	p->stacks[p->nstacks].count = count;
	p->stackidx[slot] = p->nstacks++;
	return 0;
}

void sb_prof_free(struct sb_prof *p)
{
	for (size_t i = 0; i < p->nsyms; i++) {
		free(p->syms[i].name);
		free(p->syms[i].dso);
	}
	for (size_t i = 0; i < p->nstacks; i++)
		free(p->stacks[i].folded);
	free(p->syms);
	free(p->stacks);
	free(p->symidx);
	free(p->stackidx);
	memset(p, 0, sizeof(*p));
}

/* ---- one sample: frames leaf first ---- */

struct frame {
	char *name;		/* owned */
	const char *dso;
	int kernel;
	int unresolved;
};

/* A sample of `count` with frames[0] the leaf: its stack and its symbols. */
static int add_sample(struct sb_prof *p, const char *comm, struct frame *fr, size_t n, double count)
{
	size_t len = strlen(comm) + 1;
	char *buf, *w;

	if (p->focus != NULL && p->focus_comm[0] != '\0' &&
	    strncmp(comm, p->focus_comm, strlen(p->focus_comm)) == 0 &&
	    add_sample(p->focus, comm, fr, n, count) != 0)
		return -1;
	p->nsample++;
	p->total += count;
	for (size_t i = 0; i < n; i++)
		len += strlen(fr[i].name) + sizeof(SB_PROF_KSUFFIX) + 1;
	buf = malloc(len);
	if (buf == NULL)
		return -1;
	w = buf + sprintf(buf, "%s", comm);
	for (size_t i = n; i-- > 0;)
		w += sprintf(w, ";%s%s", fr[i].name, fr[i].kernel ? SB_PROF_KSUFFIX : "");
	if (stack_add(p, buf, count) != 0) {
		free(buf);
		return -1;
	}
	free(buf);
	if (n > 0 && fr[0].kernel) {
		p->kernel += count;
		if (fr[0].unresolved)
			p->kernel_unresolved += count;
	}
	for (size_t i = 0; i < n; i++) {
		struct sb_sym *s = sym_get(p, fr[i].name, fr[i].dso, fr[i].kernel);

		if (s == NULL)
			return -1;
		if (i == 0)
			s->self += count;
		if (s->stamp != p->nsample) {
			s->stamp = p->nsample;
			s->children += count;
		}
	}
	return 0;
}

static void free_frames(struct frame *fr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(fr[i].name);
}

/* ---- perf script ---- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int is_number(const char *s, int slash)
{
	if (slash && *s == '-')
		s++;	/* perf prints tid -1 for a task gone before it was named */
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && !(slash && *s == '/'))
			return 0;
	return 1;
}

/* A DSO that belongs to the kernel: [kernel.kallsyms], a module "[name]". */
static int kernel_dso(const char *dso, unsigned long long addr)
{
	size_t n = strlen(dso);

	if (strcmp(dso, "[unknown]") == 0)
		return addr >= 0xffff800000000000ULL;
	if (n < 2 || dso[0] != '[' || dso[n - 1] != ']')
		return 0;
	return strcmp(dso, "[vdso]") != 0 && strcmp(dso, "[vsyscall]") != 0 &&
	       strcmp(dso, "[heap]") != 0 && strcmp(dso, "[stack]") != 0 &&
	       strcmp(dso, "[vvar]") != 0 && strncmp(dso, "[anon", 5) != 0;
}

static const char *base_name(const char *s)
{
	const char *b = strrchr(s, '/');

	return b ? b + 1 : s;
}

/*
 * A frame "ADDR SYM (DSO)" (SYM may hold spaces; "[unknown]" when perf has no
 * symbol: kernel frames keep their address, user frames their DSO's name).
 */
static int parse_frame(char *s, struct frame *f, char *dsobuf, size_t dsolen)
{
	char *sym, *open, *end;
	unsigned long long addr;
	char name[512];

	s = trim(s);
	addr = strtoull(s, &end, 16);
	if (end == s || (*end != ' ' && *end != '\t'))
		return -1;
	sym = trim(end);
	open = strrchr(sym, '(');
	dsobuf[0] = '\0';
	if (open != NULL && sym[strlen(sym) - 1] == ')') {
		size_t n = strlen(open + 1) - 1;

		if (n >= dsolen)
			n = dsolen - 1;
		memcpy(dsobuf, open + 1, n);
		dsobuf[n] = '\0';
		*open = '\0';
		sym = trim(sym);
	}
	f->kernel = kernel_dso(dsobuf, addr);
	f->unresolved = *sym == '\0' || strcmp(sym, "[unknown]") == 0;
	if (f->unresolved && f->kernel)
		snprintf(name, sizeof(name), "0x%llx", addr);
	else if (f->unresolved && dsobuf[0] == '[')
		snprintf(name, sizeof(name), "%s", dsobuf);
	else if (f->unresolved)
		snprintf(name, sizeof(name), "[%s]", dsobuf[0] ? base_name(dsobuf) : "unknown");
	else
		snprintf(name, sizeof(name), "%s", sym);
	/* ';' separates frames in the folded format */
	for (char *c = name; *c; c++)
		if (*c == ';')
			*c = ':';
	f->name = strdup(name);
	f->dso = dsobuf;
	return f->name ? 0 : -2;
}

/* "comm tid period event: [inline frame]" -> comm, event; inline frame left in *rest. */
static int parse_header(char *line, char *comm, size_t clen, char *event, size_t elen, char **rest)
{
	char *tok[64];
	size_t n = 0;
	char *save = NULL, *t;
	char *copy = strdup(line);

	if (copy == NULL)
		return -2;
	for (t = strtok_r(copy, " \t", &save); t && n < 64; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	for (size_t i = 2; i < n; i++) {
		size_t l = strlen(tok[i]);

		if (l < 2 || tok[i][l - 1] != ':' || !is_number(tok[i - 1], 0) || !is_number(tok[i - 2], 1))
			continue;
		comm[0] = '\0';
		for (size_t j = 0; j + 2 < i; j++) {
			size_t c = strlen(comm);

			snprintf(comm + c, clen - c, "%s%s", j ? " " : "", tok[j]);
		}
		if (comm[0] == '\0')
			snprintf(comm, clen, "[unknown]");
		for (char *c = comm; *c; c++)
			if (*c == ';')
				*c = ':';
		tok[i][l - 1] = '\0';
		snprintf(event, elen, "%s", tok[i]);
		/* the inline frame: what follows the event token in the original line */
		*rest = line + (tok[i] - copy) + l;
		free(copy);
		return 0;
	}
	free(copy);
	return -1;
}

/*
 * Does event name e count as the wanted one? "cycles" matches "cycles:P" and,
 * on hybrid CPUs, "cpu_core/cycles/" and "cpu_atom/cycles/".
 */
static int event_matches(const char *want, const char *e)
{
	size_t n = strlen(want);
	const char *slash = strchr(e, '/');

	if (strncmp(want, e, n) == 0 && (e[n] == '\0' || e[n] == ':'))
		return 1;
	return slash != NULL && strncmp(slash + 1, want, n) == 0 && slash[1 + n] == '/';
}

/* A perf script reader's state between lines: the sample being read and where it began. */
struct script {
	struct sb_prof *p;
	const char *name;
	char *err;
	size_t errlen;
	char comm[256], ev[128];
	struct frame *fr;	/* the sample's frames, leaf first */
	char (*dsos)[256];
	size_t n;
	unsigned long lineno, start;	/* the current line; the sample's header line */
	int in_sample, counted;
};

/* The sample read so far into the profile (when its event counts); 0 or 3. */
static int end_sample(struct script *s)
{
	int rc = 0;

	if (s->counted && add_sample(s->p, s->comm, s->fr, s->n, 1) != 0)
		rc = sb_fail(s->err, s->errlen, SB_EXIT_ENV, "out of memory");
	free_frames(s->fr, s->n);
	s->n = 0;
	s->in_sample = 0;
	return rc;
}

/* "comm tid period event: [inline frame]" starts a sample; 0, 2 or 3. */
static int script_header(struct script *s, char *line)
{
	char *rest;
	int h = parse_header(line, s->comm, sizeof(s->comm), s->ev, sizeof(s->ev), &rest);

	if (h == -2)
		return sb_fail(s->err, s->errlen, SB_EXIT_ENV, "out of memory");
	if (h != 0)
		return sb_fail(s->err, s->errlen, SB_EXIT_USAGE, "%s:%lu: not a perf script sample header "
			       "(want: comm tid period event:)", s->name, s->lineno);
	if (s->p->event[0] == '\0')
		snprintf(s->p->event, sizeof(s->p->event), "%s", s->ev);
	s->counted = event_matches(s->p->event, s->ev);
	if (!s->counted)
		s->p->skipped++;
	s->in_sample = 1;
	s->start = s->lineno;
	if (trim(rest)[0] != '\0') {
		int f = parse_frame(rest, &s->fr[0], s->dsos[0], sizeof(s->dsos[0]));

		if (f == -2)
			return sb_fail(s->err, s->errlen, SB_EXIT_ENV, "out of memory");
		if (f == 0)
			s->n = 1;
	}
	return 0;
}

/* One call-chain line "ADDRESS SYMBOL (DSO)" of the current sample; 0, 2 or 3. */
static int script_frame(struct script *s, char *line)
{
	int f;

	if (!s->in_sample)
		return sb_fail(s->err, s->errlen, SB_EXIT_USAGE, "%s:%lu: a call-chain frame outside a sample",
			       s->name, s->lineno);
	if (s->n == MAXFRAMES)
		return 0;	/* deeper than perf's own default limit: cut */
	f = parse_frame(line, &s->fr[s->n], s->dsos[s->n], sizeof(s->dsos[s->n]));
	if (f == -2)
		return sb_fail(s->err, s->errlen, SB_EXIT_ENV, "out of memory");
	if (f != 0)
		return sb_fail(s->err, s->errlen, SB_EXIT_USAGE, "%s:%lu: not a frame 'ADDRESS SYMBOL (DSO)' "
			       "(sample of line %lu)", s->name, s->lineno, s->start);
	s->n++;
	return 0;
}

int sb_prof_read_script(struct sb_prof *p, FILE *in, const char *name, const char *event,
			char *err, size_t errlen)
{
	static struct frame fr[MAXFRAMES];
	static char dsos[MAXFRAMES][256];
	struct script s = { .p = p, .name = name, .err = err, .errlen = errlen, .fr = fr, .dsos = dsos };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	if (event != NULL && event[0] != '\0')
		snprintf(p->event, sizeof(p->event), "%s", event);
	for (;;) {
		len = getline(&line, &cap, in);
		if (len >= 0)
			s.lineno++;
		int blank = len < 0 || trim(line)[0] == '\0';
		int header = len >= 0 && !blank && !isspace((unsigned char)line[0]);

		/* a blank line, the next header or the end closes the sample */
		if (s.in_sample && (blank || header) && (rc = end_sample(&s)) != 0)
			break;
		if (len < 0)
			break;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (blank)
			continue;
		rc = header ? script_header(&s, line) : script_frame(&s, line);
		if (rc != 0)
			break;
	}
	free_frames(fr, s.n);
	free(line);
	if (rc == 0 && ferror(in))
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: read error: %s", name, strerror(errno));
	return rc;
}

/* ---- folded stacks: "comm;outer;...;leaf COUNT" ---- */

int sb_prof_read_folded(struct sb_prof *p, FILE *in, const char *name, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t len;
	static struct frame fr[MAXFRAMES];
	static char nodso[1];
	int rc = 0;

	while ((len = getline(&line, &cap, in)) >= 0) {
		char *s, *sp, *end, *save = NULL, *t, *comm;
		double count;
		size_t n = 0;

		lineno++;
		s = trim(line);
		if (*s == '\0' || *s == '#')
			continue;
		sp = strrchr(s, ' ');
		if (sp == NULL) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: not 'frame;frame;... COUNT'", name, lineno);
			break;
		}
		errno = 0;
		count = strtod(sp + 1, &end);
		if (errno || *end != '\0' || end == sp + 1 || !(count > 0)) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: '%s' is not a positive count", name, lineno,
				     sp + 1);
			break;
		}
		*sp = '\0';
		comm = strtok_r(s, ";", &save);
		/* frames root first; the sample wants them leaf first */
		char *list[MAXFRAMES];
		size_t m = 0;
		while ((t = strtok_r(NULL, ";", &save)) != NULL && m < MAXFRAMES)
			list[m++] = t;
		for (size_t i = 0; i < m; i++) {
			char *f = list[m - 1 - i];
			size_t l = strlen(f), k = sizeof(SB_PROF_KSUFFIX) - 1;
			struct frame *x = &fr[n];

			x->kernel = l > k && strcmp(f + l - k, SB_PROF_KSUFFIX) == 0;
			if (x->kernel)
				f[l - k] = '\0';
			x->unresolved = strncmp(f, "0x", 2) == 0 && x->kernel;
			x->dso = nodso;
			x->name = strdup(f);
			if (x->name == NULL) {
				rc = SB_EXIT_ENV;
				break;
			}
			n++;
		}
		if (rc == 0 && add_sample(p, comm ? comm : "[unknown]", fr, n, count) != 0)
			rc = SB_EXIT_ENV;
		free_frames(fr, n);
		if (rc) {
			sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
			break;
		}
	}
	free(line);
	if (rc == 0 && ferror(in))
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: read error: %s", name, strerror(errno));
	return rc;
}

/* ---- top tables ---- */

int sb_prof_read_top(struct sb_prof *p, FILE *in, const char *name, char *err, size_t errlen)
{
	char *line = NULL, *f[SB_TOP_NCOLS + 1];
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t len;
	int rc = 0;

	p->pct_only = 1;
	p->total = 100;
	while ((len = getline(&line, &cap, in)) >= 0) {
		char *e1, *e2;
		double self, children;
		struct sb_sym *s;

		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (lineno == 1) {
			if (strcmp(line, TOP_HEADER) != 0) {
				rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:1: not a top table (want the header %s)",
					     name, TOP_HEADER);
				break;
			}
			continue;
		}
		if (line[0] == '\0')
			continue;
		if (sb_csv_split(line, f, SB_TOP_NCOLS + 1) != SB_TOP_NCOLS) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: want %d fields", name, lineno, SB_TOP_NCOLS);
			break;
		}
		self = strtod(f[SB_TOP_COL_SELF_PCT], &e1);
		children = strtod(f[SB_TOP_COL_CHILDREN_PCT], &e2);
		if (*e1 || *e2 || e1 == f[SB_TOP_COL_SELF_PCT] || e2 == f[SB_TOP_COL_CHILDREN_PCT] || self < 0 ||
		    children < 0 || (strcmp(f[SB_TOP_COL_SPACE], SB_TOP_KERNEL) != 0 &&
				     strcmp(f[SB_TOP_COL_SPACE], SB_TOP_USER) != 0)) {
			rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s:%lu: bad row (percents, then space kernel or user)",
				     name, lineno);
			break;
		}
		s = sym_get(p, f[SB_TOP_COL_SYMBOL], f[SB_TOP_COL_DSO], strcmp(f[SB_TOP_COL_SPACE], SB_TOP_KERNEL) == 0);
		if (s == NULL) {
			rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
			break;
		}
		s->self += self;
		s->children += children;
		p->top_samples += strtod(f[SB_TOP_COL_SELF_SAMPLES], NULL);
		if (s->kernel)
			p->kernel += self;
	}
	free(line);
	if (rc == 0 && lineno == 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: empty file", name);
	return rc;
}

static int open_in(const char *path, FILE **f, char *err, size_t errlen)
{
	*f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (*f == NULL)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
	return 0;
}

int sb_prof_load(struct sb_prof *p, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char buf[4096], head[128];
	const char *file = path;
	FILE *f;
	int rc;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, sizeof(buf), "%s/top.csv", path);
		if (access(buf, R_OK) != 0)
			snprintf(buf, sizeof(buf), "%s/folded.txt", path);
		file = buf;
	}
	if ((rc = open_in(file, &f, err, errlen)) != 0)
		return rc;
	if (fgets(head, sizeof(head), f) == NULL) {
		if (f != stdin)
			fclose(f);
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: empty file", file);
	}
	rewind(f);
	if (strncmp(head, TOP_HEADER, strlen(TOP_HEADER)) == 0)
		rc = sb_prof_read_top(p, f, file, err, errlen);
	else
		rc = sb_prof_read_folded(p, f, file, err, errlen);
	if (f != stdin)
		fclose(f);
	if (rc == 0 && p->total <= 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no samples", file);
	return rc;
}

