/* sb-history show's printer: the tables of the built model (show.c) as text, markdown, csv or JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/rate.h"
#include "fmt/export.h"
#include "show_priv.h"

/* ---- words ---- */

static void fmt_cell(char *buf, size_t len, const struct cell *c, int md)
{
	char r[32];

	if (c->runs == 0) {
		snprintf(buf, len, c->failed ? "FAILED (a run measured 0 ops/s)" : "-");
		return;
	}
	sb_rate_human(c->mean, r, sizeof(r));
	if (isnan(c->ci))
		snprintf(buf, len, "%s (1 run, no interval)", r);
	else
		snprintf(buf, len, "%s %s%.1f%% (%zu runs)", r, md ? "±" : "+/-", 100 * c->ci / c->mean, c->runs);
}

/* "12.1% worse (detectable 2.3%)", "same, +0.4% (detectable 2.0%)" */
static void fmt_vs(char *buf, size_t len, const struct vs *v)
{
	if (!v->ok)
		snprintf(buf, len, "n/a");
	else if (strcmp(v->word, "same") == 0)
		snprintf(buf, len, "same, %+.1f%% (detectable %.1f%%)", v->pct, v->det);
	else
		snprintf(buf, len, "%.1f%% %s (detectable %.1f%%)", fabs(v->pct), v->word, v->det);
}

static void csv_num(FILE *out, double v, int ok)
{
	if (ok && isfinite(v))
		fprintf(out, ",%.6g", v);
	else
		fputs(",", out);
}

/* ---- the reports ---- */

struct grid {
	char **s;		/* lines x (ncols + 1) strings */
	size_t lines, ncols;
};

static char *gs(struct grid *g, size_t line, size_t col)
{
	return g->s[line * (g->ncols + 1) + col];
}

/* The params of column c's first sweep. */
static const char *col_params(const struct sb_hist *h, const struct table *t, size_t c)
{
	return h->sw[t->cols[c].sw[0]].params;
}

/* --any-params: a table whose columns differ in params says so, and which columns ran which. */
static void params_by_column(FILE *out, const struct sb_hist *h, const struct table *t, int md)
{
	size_t from = 0;

	fprintf(out, "%sparams by column:", md ? "\n" : "");
	for (size_t c = 1; c <= t->ncols; c++) {
		if (c < t->ncols && strcmp(col_params(h, t, c), col_params(h, t, from)) == 0)
			continue;
		fprintf(out, "%s %s%s%s: %s", from ? ";" : "", t->cols[from].name, c - from > 1 ? ".." : "",
			c - from > 1 ? t->cols[c - 1].name : "", *col_params(h, t, from) ? col_params(h, t, from) : "none");
		from = c;
	}
	fputc('\n', out);
}

static void title(FILE *out, const struct sb_hist *h, const struct table *t, const struct sb_show_opts *o, int md,
		  const char *dw)
{
	const struct sb_hist_sweep *s = t->first;
	int vary = 0;

	for (size_t c = 1; c < t->ncols; c++)
		vary |= strcmp(col_params(h, t, c), col_params(h, t, 0)) != 0;
	fprintf(out, "%s%s%s%s%s", md ? "### " : "", s->test, vary ? "  params: vary (below)" :
		*s->params ? "  params: " : "", vary ? "" : s->params, o->by_testbed ? "" : "  testbed: ");
	if (o->by_testbed)
		fprintf(out, "  kernel: %s\n", s->column);
	else
		fprintf(out, "%s (%s)\n", s->tb_name, s->tb_facts);
	if (vary)
		params_by_column(out, h, t, md);
	fprintf(out, "%sops/s, higher is better; each column: its runs' mean %s the half-width of the 95%% "
		"confidence interval across runs (a column's sweeps pooled); vs first, vs previous: the change, "
		"a sweep the unit, the drift between sweeps in it; each column pair's points and curves one "
		"family (weighted Holm, 95%%, compare's gate), and the smallest change the pair could detect "
		"there (80%% power)\n%s%s\n%s", md ? "\n" : "", md ? "±" : "+/-", md ? "\n" : "",
		o->by_testbed ? "testbeds side by side: no drift between them is modelled (--drift applies)" : dw,
		md ? "\n" : "");
}

/* The strings of a table: 3 lines a row (value, vs first, vs previous); -1 when memory runs out. */
static int fill_grid(const struct table *t, char **names, size_t nr, int md, const struct judged *jd,
		     struct grid *g)
{
	char buf[160];

	g->ncols = t->ncols;
	g->lines = 3 * nr + 1;
	g->s = calloc(g->lines * (t->ncols + 1), sizeof(char *));
	if (g->s == NULL)
		return -1;
	g->s[0] = strdup("point");
	for (size_t j = 0; j < t->ncols; j++)
		g->s[j + 1] = strdup(t->cols[j].name);
	for (size_t i = 0; i < nr; i++) {
		size_t l = 1 + 3 * i;

		g->s[l * (t->ncols + 1)] = strdup(names[i]);
		g->s[(l + 1) * (t->ncols + 1)] = strdup("  vs first");
		g->s[(l + 2) * (t->ncols + 1)] = strdup("  vs previous");
		for (size_t j = 0; j < t->ncols; j++) {
			fmt_cell(buf, sizeof(buf), &jd->c[i * t->ncols + j], md);
			g->s[l * (t->ncols + 1) + j + 1] = strdup(buf);
			fmt_vs(buf, sizeof(buf), &jd->first[i * t->ncols + j]);
			g->s[(l + 1) * (t->ncols + 1) + j + 1] = strdup(j ? buf : "");
			fmt_vs(buf, sizeof(buf), &jd->prev[i * t->ncols + j]);
			g->s[(l + 2) * (t->ncols + 1) + j + 1] = strdup(j ? buf : "");
		}
	}
	for (size_t k = 0; k < g->lines * (t->ncols + 1); k++)
		if (g->s[k] == NULL)
			return -1;
	return 0;
}

static void free_grid(struct grid *g)
{
	for (size_t k = 0; g->s && k < g->lines * (g->ncols + 1); k++)
		free(g->s[k]);
	free(g->s);
}

static void print_text(FILE *out, struct grid *g)
{
	size_t *w = calloc(g->ncols + 1, sizeof(*w));

	if (w == NULL)
		return;
	for (size_t l = 0; l < g->lines; l++)
		for (size_t j = 0; j <= g->ncols; j++)
			if (strlen(gs(g, l, j)) > w[j])
				w[j] = strlen(gs(g, l, j));
	for (size_t l = 0; l < g->lines; l++) {
		size_t last = 0;

		for (size_t j = 1; j <= g->ncols; j++)
			if (*gs(g, l, j))
				last = j;
		if (last == 0 && gs(g, l, 0)[0] == ' ')
			continue;	/* "vs" lines of a single column */
		for (size_t j = 0; j <= last; j++)
			fprintf(out, "%s%-*s", j ? "   " : "", j < last ? (int)w[j] : 0, gs(g, l, j));
		fputc('\n', out);
	}
	free(w);
}

static void print_md(FILE *out, struct grid *g)
{
	for (size_t j = 0; j <= g->ncols; j++)
		fprintf(out, "| %s ", gs(g, 0, j));
	fputs("|\n", out);
	for (size_t j = 0; j <= g->ncols; j++)
		fputs("|---", out);
	fputs("|\n", out);
	for (size_t l = 1; l < g->lines; l += 3) {
		fprintf(out, "| %s ", gs(g, l, 0));
		for (size_t j = 1; j <= g->ncols; j++) {
			fprintf(out, "| %s", gs(g, l, j));
			if (j > 1)
				fprintf(out, "<br>vs first: %s<br>vs previous: %s", gs(g, l + 1, j), gs(g, l + 2, j));
			fputc(' ', out);
		}
		fputs("|\n", out);
	}
}

static void json_vs(FILE *out, const char *name, const struct vs *v)
{
	fprintf(out, ", \"%s\": ", name);
	if (!v->ok) {
		fputs("null", out);
		return;
	}
	fputs("{\"pct\": ", out);
	sb_json_num(out, v->pct);
	fputs(", \"interval_pct\": ", out);
	sb_json_num(out, v->hw);
	fputs(", \"detectable_pct\": ", out);
	sb_json_num(out, v->det);
	fprintf(out, ", \"verdict\": \"%s\"}", v->word);
}

/* A number, or null where there is none (no run, a failed one, a single run's interval): never nan. */
static void json_num_or_null(FILE *out, double v)
{
	if (isfinite(v))
		sb_json_num(out, v);
	else
		fputs("null", out);
}

/* CSV rows or a JSON table: one record per row and column, numbers unrounded. */
static int print_records(FILE *out, const struct sb_hist *h, const struct table *t,
			 const struct rowkey *r, size_t nr, int json, const struct judged *jd)
{
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < t->ncols; j++) {
			const struct sb_hist_sweep *s0 = &h->sw[t->cols[j].sw[0]];
			const struct cell *c = &jd->c[i * t->ncols];
			struct vs a = jd->first[i * t->ncols + j], b = jd->prev[i * t->ncols + j];
			if (json) {
				fputs(i + j ? ",\n    {\"mode\": " : "    {\"mode\": ", out);
				sb_json_str(out, h->modes[r[i].mode]);
				fprintf(out, r[i].tasks ? ", \"tasks\": %ld" : ", \"tasks\": \"curve\"", r[i].tasks);
				fputs(", \"column\": ", out);
				sb_json_str(out, t->cols[j].name);
				fprintf(out, ", \"index\": %zu, \"date\": ", j);
				sb_json_str(out, s0->date);
				fprintf(out, ", \"sweeps\": %zu, \"runs\": %zu, \"mean\": ", c[j].sweeps, c[j].runs);
				json_num_or_null(out, c[j].runs ? c[j].mean : NAN);
				fputs(", \"ci95\": ", out);
				json_num_or_null(out, c[j].ci);
				json_vs(out, "vs_first", &a);
				json_vs(out, "vs_previous", &b);
				fputc('}', out);
				continue;
			}
			sb_csv_field(out, s0->test);
			fputc(',', out);
			sb_csv_field(out, s0->params);
			fputc(',', out);
			sb_csv_field(out, s0->tb_name);
			fputc(',', out);
			sb_csv_field(out, t->cols[j].name);
			fprintf(out, ",%zu,%s,%s,", j, s0->date, h->modes[r[i].mode]);
			if (r[i].tasks)
				fprintf(out, "%ld", r[i].tasks);
			else
				fputs("curve", out);
			fprintf(out, ",%zu,%zu", c[j].sweeps, c[j].runs);
			csv_num(out, c[j].mean, c[j].runs > 0);
			csv_num(out, c[j].ci, 1);
			csv_num(out, a.pct, a.ok);
			csv_num(out, a.hw, a.ok);
			fprintf(out, ",%s", a.ok ? a.word : "");
			csv_num(out, a.det, a.ok);
			csv_num(out, b.pct, b.ok);
			csv_num(out, b.hw, b.ok);
			fprintf(out, ",%s", b.ok ? b.word : "");
			csv_num(out, b.det, b.ok);
			fputc('\n', out);
		}
	return 0;
}

static void json_table_head(FILE *out, const struct table *t, int first, int by_testbed)
{
	const struct sb_hist_sweep *s = t->first;

	fputs(first ? "{\"tables\": [\n  {\"test\": " : ",\n  {\"test\": ", out);
	sb_json_str(out, s->test);
	fputs(", \"params\": ", out);
	sb_json_str(out, s->params);
	if (by_testbed) {	/* the columns are the testbeds, for one kernel */
		fputs(", \"kernel\": ", out);
		sb_json_str(out, s->column);
	} else {
		fputs(", \"testbed\": ", out);
		sb_json_str(out, s->tb_name);
		fputs(", \"testbed_facts\": ", out);
		sb_json_str(out, s->tb_facts);
	}
	fputs(", \"unit\": \"ops/s\", \"higher_is_better\": true, \"rows\": [\n", out);
}

/* ---- the formats: a printer each, and the table of them by name ---- */

/* text and markdown: each table as a titled grid */
static int print_grids(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o,
		       int md)
{
	int rc = 0;

	for (size_t i = 0; i < m->nt && rc == 0; i++) {
		const struct show_table *st = &m->tabs[i];
		struct grid g = { 0 };

		if ((rc = fill_grid(&m->t[i], st->names, st->nr, md, &st->jd, &g)) == 0) {
			if (i > 0)
				fputc('\n', out);
			title(out, h, &m->t[i], o, md, st->drift_words);
			fputc('\n', out);
			if (md)
				print_md(out, &g);
			else
				print_text(out, &g);
		}
		free_grid(&g);
	}
	return rc;
}

static int show_text(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o)
{
	return print_grids(out, h, m, o, 0);
}

static int show_markdown(FILE *out, const struct sb_hist *h, const struct show_model *m,
			 const struct sb_show_opts *o)
{
	return print_grids(out, h, m, o, 1);
}

static int show_csv(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o)
{
	int rc = 0;

	(void)o;
	fputs("test,params,testbed,column,index,date,mode,tasks,sweeps,runs,mean,ci95,vs_first_pct,"
	      "vs_first_interval_pct,vs_first,vs_first_detectable_pct,vs_previous_pct,"
	      "vs_previous_interval_pct,vs_previous,vs_previous_detectable_pct\n", out);
	for (size_t i = 0; i < m->nt && rc == 0; i++)
		rc = print_records(out, h, &m->t[i], m->tabs[i].r, m->tabs[i].nr, 0, &m->tabs[i].jd);
	return rc;
}

static int show_json(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o)
{
	int rc = 0;

	for (size_t i = 0; i < m->nt && rc == 0; i++) {
		json_table_head(out, &m->t[i], i == 0, o->by_testbed);
		rc = print_records(out, h, &m->t[i], m->tabs[i].r, m->tabs[i].nr, 1, &m->tabs[i].jd);
		fputs("]}", out);
	}
	if (rc == 0)
		fputs("\n]}\n", out);
	return rc;
}

/* show's formats: a new one is a printer above and a row here (and its words in docs/HISTORY.md) */
static const struct {
	const char *name;
	int (*print)(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o);
} formats[] = {
	{ "text", show_text },
	{ "markdown", show_markdown },
	{ "csv", show_csv },
	{ "json", show_json },
};

const char *sb_show_format(size_t i)
{
	return i < sizeof(formats) / sizeof(formats[0]) ? formats[i].name : NULL;
}

/* The tables of m in o's format; 0, or -1 when memory runs out (or the format is none of the table's). */
int sb_show_print(FILE *out, const struct sb_hist *h, const struct show_model *m, const struct sb_show_opts *o)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(o->format, formats[i].name) == 0)
			return formats[i].print(out, h, m, o);
	return -1;
}
