/* ministat-compatible data sets: reading columns of numbers, the plot, the table, Student's t. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "msg/exit.h"
#include "ministat.h"

/* Index = OR of the set numbers (1..7) plotted in a cell: x and + together give '*'. */
static const char plot_symbol[SB_MINISTAT_MAXSETS + 1] = {
	' ', 'x', '+', '*', '%', '#', '@', 'O'
};

int sb_mset_init(struct sb_mset *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	return s->name == NULL ? -1 : 0;
}

int sb_mset_add(struct sb_mset *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *v = realloc(s->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

void sb_mset_free(struct sb_mset *s)
{
	free(s->name);
	free(s->v);
	free(s->sorted);
	memset(s, 0, sizeof(*s));
}

int sb_mset_finish(struct sb_mset *s, const char *what, char *err, size_t errlen)
{
	if (s->n < SB_MINISTAT_MINVALUES) {
		if (s->n == 0)
			snprintf(err, errlen, "%s: no values; a data set needs at least %d",
				 what, SB_MINISTAT_MINVALUES);
		else
			snprintf(err, errlen, "%s: only %zu value%s; a data set needs at least %d",
				 what, s->n, s->n == 1 ? "" : "s", SB_MINISTAT_MINVALUES);
		return SB_EXIT_USAGE;
	}
	free(s->sorted);
	s->sorted = malloc(s->n * sizeof(*s->sorted));
	if (s->sorted == NULL ||
	    sb_stats_compute_var(s->v, s->n, &s->st, &s->var, s->sorted) != 0) {
		snprintf(err, errlen, "%s: out of memory", what);
		return SB_EXIT_ENV;
	}
	if (!isfinite(s->st.mean) || !isfinite(s->var)) {
		snprintf(err, errlen, "%s: the values are too large: their sum or variance overflows",
			 what);
		return SB_EXIT_USAGE;
	}
	return 0;
}

/* Copy at most 40 characters of a bad token into a message, so one line stays one line. */
static const char *excerpt(const char *tok, char *buf, size_t len)
{
	size_t n = strlen(tok);

	if (n > 40)
		snprintf(buf, len, "%.37s...", tok);
	else
		snprintf(buf, len, "%s", tok);
	return buf;
}

static int parse_value(const char *tok, double *out, const char *what,
		       unsigned long lineno, char *err, size_t errlen)
{
	char *end, ex[48];
	double d;

	errno = 0;
	d = strtod(tok, &end);
	if (end == tok || *end != '\0') {
		snprintf(err, errlen, "%s:%lu: '%s' is not a number", what, lineno,
			 excerpt(tok, ex, sizeof(ex)));
		return SB_EXIT_USAGE;
	}
	if (isnan(d)) {
		snprintf(err, errlen, "%s:%lu: '%s': NaN is not a measurement", what, lineno,
			 excerpt(tok, ex, sizeof(ex)));
		return SB_EXIT_USAGE;
	}
	if (isinf(d)) {
		snprintf(err, errlen, "%s:%lu: '%s' is %s", what, lineno, excerpt(tok, ex, sizeof(ex)),
			 errno == ERANGE ? "out of range" : "infinite");
		return SB_EXIT_USAGE;
	}
	*out = d;
	return 0;
}

int sb_mset_read(FILE *f, const char *what, int column, const char *delim,
		 struct sb_mset *s, char *err, size_t errlen)
{
	char *line = NULL, *tok;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int rc = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		char *p = line;
		double d;

		lineno++;
		if (memchr(line, '\0', (size_t)len) != NULL) {	/* "3\0004" would be read as 3 */
			snprintf(err, errlen, "%s:%lu: a NUL byte: the file is damaged", what, lineno);
			rc = SB_EXIT_USAGE;
			break;
		}
		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		/* Columns are runs of non-delimiters; a '#' column starts a comment. */
		tok = NULL;
		for (int i = 1;; i++) {
			size_t tl;

			p += strspn(p, delim);
			if (*p == '\0' || *p == '#')
				break;
			tl = strcspn(p, delim);
			if (i == column) {
				p[tl] = '\0';
				tok = p;
				break;
			}
			p += tl;
		}
		if (tok == NULL)
			continue;
		rc = parse_value(tok, &d, what, lineno, err, errlen);
		if (rc != 0)
			break;
		if (sb_mset_add(s, d) != 0) {
			snprintf(err, errlen, "%s: out of memory after %zu values", what, s->n);
			rc = SB_EXIT_ENV;
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: read error after line %lu: %s", what, lineno,
			 strerror(errno));
		rc = SB_EXIT_ENV;
	}
	free(line);
	return rc;
}

struct plot {
	int width;
	double min, max, span, dx, x0;
	size_t height;		/* rows in use; row 0 is never drawn */
	size_t cap;		/* rows allocated */
	unsigned char *cells;	/* cap rows of width cells: OR of set numbers */
	int nbars;
	char *bars;		/* nbars rows of width: '|', '_', 'M', 'A' or 0 */
};

static void plot_extend(struct plot *pl, double a)
{
	if (a < pl->min)
		pl->min = a;
	if (a > pl->max)
		pl->max = a;
	pl->span = pl->max - pl->min;
	pl->dx = pl->span / (pl->width - 1.0);
	pl->x0 = pl->min - .5 * pl->dx;
}

/* Column of value a; truncation as in ministat, clamped so rounding can never index outside. */
static int plot_col(const struct plot *pl, double a)
{
	double c = (a - pl->x0) / pl->dx;

	if (!(c >= 0))
		return 0;
	if (c >= pl->width)
		return pl->width - 1;
	return (int)c;
}

static int plot_set(struct plot *pl, const struct sb_mset *s, int val, int bar)
{
	char *b = pl->bars + (size_t)bar * pl->width;
	size_t run = 0, maxrun = 1, rows;
	double av = s->st.mean, sd = s->st.stddev;
	int prev = -1, x, m;

	for (size_t k = 0; k < s->n; k++) {
		x = plot_col(pl, s->sorted[k]);
		if (x == prev) {
			if (++run > maxrun)
				maxrun = run;
		} else {
			run = 1;
			prev = x;
		}
	}
	rows = maxrun + 1;
	/*
	 * ministat sets the height to this set's need even when an earlier set
	 * needed more, hiding that set's upper rows, and clears rows above the
	 * old height when it grows again; the same here, so plots match.
	 */
	if (rows > pl->height) {
		if (rows > pl->cap) {
			unsigned char *c = realloc(pl->cells, rows * pl->width);

			if (c == NULL)
				return -1;
			pl->cells = c;
			pl->cap = rows;
		}
		memset(pl->cells + pl->height * pl->width, 0, (rows - pl->height) * pl->width);
	}
	pl->height = rows;

	prev = -1;
	for (size_t k = 0; k < s->n; k++) {
		x = plot_col(pl, s->sorted[k]);
		if (x == prev) {
			run++;
		} else {
			run = 1;
			prev = x;
		}
		pl->cells[run * pl->width + x] |= (unsigned char)val;
	}

	if (!isnan(sd)) {
		x = plot_col(pl, av - sd);
		m = plot_col(pl, av + sd);
		b[m] = '|';
		b[x] = '|';
		for (int z = x + 1; z < m; z++)
			if (b[z] == 0)
				b[z] = '_';
	}
	b[plot_col(pl, s->st.median)] = 'M';
	b[plot_col(pl, av)] = 'A';
	return 0;
}

static void plot_rule(FILE *out, int width)
{
	putc('+', out);
	for (int i = 0; i < width; i++)
		putc('-', out);
	fputs("+\n", out);
}

static int plot_print(FILE *out, struct sb_mset *const *sets, int nsets, const struct sb_mopts *o)
{
	struct plot pl = { .width = o->width, .min = 999e99, .max = -999e99 };
	int rc = 0;

	for (int i = 0; i < nsets; i++) {
		const struct sb_mset *s = sets[i];

		plot_extend(&pl, s->st.min);
		plot_extend(&pl, s->st.max);
		plot_extend(&pl, s->st.mean - s->st.stddev);
		plot_extend(&pl, s->st.mean + s->st.stddev);
	}
	if (pl.span == 0) {
		fputs("[no plot, span is zero width]\n", out);
		return 0;
	}
	pl.nbars = o->separate ? nsets : 1;
	pl.bars = calloc((size_t)pl.nbars, (size_t)pl.width);
	if (pl.bars == NULL)
		return SB_EXIT_ENV;
	for (int i = 0; i < nsets; i++)
		if (plot_set(&pl, sets[i], i + 1, o->separate ? i : 0) != 0) {
			rc = SB_EXIT_ENV;
			goto out;
		}

	plot_rule(out, pl.width);
	for (size_t z = 1; z < pl.height; z++) {
		const unsigned char *row = pl.cells + (pl.height - z) * pl.width;

		putc('|', out);
		for (int j = 0; j < pl.width; j++)
			putc(plot_symbol[row[j] & 7], out);
		fputs("|\n", out);
	}
	for (int i = 0; i < pl.nbars; i++) {
		const char *b = pl.bars + (size_t)i * pl.width;

		putc('|', out);
		for (int j = 0; j < pl.width; j++)
			putc(b[j] ? b[j] : ' ', out);
		fputs("|\n", out);
	}
	plot_rule(out, pl.width);
out:
	free(pl.cells);
	free(pl.bars);
	return rc;
}

static void print_vitals(FILE *out, const struct sb_mset *s, int i)
{
	fprintf(out, "%c %3zu %13.8g %13.8g %13.8g %13.8g %13.8g\n", plot_symbol[i + 1],
		s->n, s->st.min, s->st.max, s->st.median, s->st.mean, s->st.stddev);
}

static void print_relative(FILE *out, const struct sb_mset *s, const struct sb_mset *base,
			   double conf)
{
	struct sb_tdiff d;

	if (sb_tdiff(base->n, base->st.mean, base->var, s->n, s->st.mean, s->var, conf, &d) != 0)
		return;		/* cannot happen: levels and sizes are checked earlier */
	if (d.significant) {
		fprintf(out, "Difference at %.1f%% confidence\n", conf);
		fprintf(out, "\t%g +/- %g\n", d.diff, d.halfwidth);
		if (isfinite(d.rel_pct) && isfinite(d.rel_halfwidth_pct))
			fprintf(out, "\t%g%% +/- %g%%\n", d.rel_pct, d.rel_halfwidth_pct);
		else	/* ministat prints inf% here: a percentage of nothing is not a figure */
			fprintf(out, "\t(no change in %%: the first set's mean is 0)\n");
		fprintf(out, "\t(Student's t, pooled s = %g)\n", d.pooled_s);
	} else {
		fprintf(out, "No difference proven at %.1f%% confidence\n", conf);
	}
}

int sb_ministat_print(FILE *out, struct sb_mset *const *sets, int nsets,
		      const struct sb_mopts *o)
{
	if (!o->quiet)
		for (int i = 0; i < nsets; i++)
			fprintf(out, "%c %s\n", plot_symbol[i + 1], sets[i]->name);
	if (!o->stats_only && !o->no_plot) {
		int rc = plot_print(out, sets, nsets, o);

		if (rc != 0)
			return rc;
	}
	if (!o->quiet)
		fputs("    N           Min           Max        Median           Avg        Stddev\n",
		      out);
	for (int i = 0; i < nsets; i++) {
		print_vitals(out, sets[i], i);
		if (i > 0 && !o->stats_only)
			print_relative(out, sets[i], sets[0], o->conf);
	}
	return 0;
}
