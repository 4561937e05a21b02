/* Profile diffs: the symbols whose share changed between two profiles, and their table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/export.h"
#include "profile.h"
#include "profile_diff.h"

static int cmp_delta(const void *a, const void *b)
{
	const struct sb_prof_delta *x = a, *y = b;
	double ax = fabs(x->change), ay = fabs(y->change);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel - y->kernel;
	return strcmp(x->name, y->name);
}

static const struct sb_sym *find_sym(const struct sb_prof *p, const char *name, int kernel)
{
	for (size_t i = 0; i < p->nsyms; i++)
		if (p->syms[i].kernel == kernel && strcmp(p->syms[i].name, name) == 0)
			return &p->syms[i];
	return NULL;
}

static double share(const struct sb_prof *p, const struct sb_sym *s, int children)
{
	return s == NULL ? 0 : sb_prof_pct(p, children ? s->children : s->self);
}

struct sb_prof_delta *sb_prof_diff_rows(const struct sb_prof *b, const struct sb_prof *x, int children,
					size_t *n)
{
	struct sb_prof_delta *d = malloc((b->nsyms + x->nsyms + 1) * sizeof(*d));
	size_t k = 0;

	if (d == NULL)
		return NULL;
	for (int side = 0; side < 2; side++) {
		const struct sb_prof *p = side ? x : b, *o = side ? b : x;

		for (size_t i = 0; i < p->nsyms; i++) {
			const struct sb_sym *s = &p->syms[i], *t = find_sym(o, s->name, s->kernel);

			if (side == 1 && t != NULL)
				continue;	/* counted from the base side */
			d[k].name = s->name;
			d[k].dso = s->dso[0] ? s->dso : (t && t->dso[0] ? t->dso : "");
			d[k].kernel = s->kernel;
			d[k].base = side ? share(o, t, children) : share(p, s, children);
			d[k].new = side ? share(p, s, children) : share(o, t, children);
			d[k].change = d[k].new - d[k].base;
			/* unchanged at the printed precision: not a change */
			if (fabs(d[k].change) >= 0.005)
				k++;
		}
	}
	qsort(d, k, sizeof(*d), cmp_delta);
	*n = k;
	return d;
}

static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_' || *s == '[' || *s == ']')
			fputc('\\', out);
		fputc(*s, out);
	}
}

void sb_prof_print_diff(FILE *out, const struct sb_prof_delta *d, size_t n, size_t limit,
			enum sb_prof_fmt fmt, int children, const char *csv_prefix, int csv_header)
{
	const char *what = children ? "with children" : "self";

	if (n > limit)
		n = limit;
	if (fmt == SB_PROF_CSV) {
		if (csv_header)
			fprintf(out, "%sshare,space,symbol,dso,base_pct,new_pct,change_pp\n",
				csv_prefix[0] ? "mode,tasks,throughput_change_pct,throughput_halfwidth_pct,verdict," : "");
		for (size_t i = 0; i < n; i++) {
			fprintf(out, "%s%s,%s,", csv_prefix, children ? "children" : "self",
				d[i].kernel ? "kernel" : "user");
			sb_csv_field(out, d[i].name);
			fputc(',', out);
			sb_csv_field(out, d[i].dso);
			fprintf(out, ",%.2f,%.2f,%+.2f\n", d[i].base, d[i].new, d[i].change);
		}
		return;
	}
	if (fmt == SB_PROF_MARKDOWN) {
		fprintf(out, "| symbol | space | base %% (%s) | new %% | change (pp) |\n", what);
		fputs("|---|---|---:|---:|---:|\n", out);
		for (size_t i = 0; i < n; i++) {
			fputs("| ", out);
			md_text(out, d[i].name);
			fprintf(out, " | %s | %.2f | %.2f | %+.2f |\n", d[i].kernel ? "kernel" : "user",
				d[i].base, d[i].new, d[i].change);
		}
		if (n == 0)
			fputs("| (no symbol changed its share) | | | | |\n", out);
		return;
	}
	fprintf(out, "  %8s %8s %8s  %-6s  %s\n", "base%", "new%", "change", "space",
		children ? "symbol (share with children)" : "symbol (self share)");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %8.2f %8.2f %+8.2f  %-6s  %s\n", d[i].base, d[i].new, d[i].change,
			d[i].kernel ? "kernel" : "user", d[i].name);
	if (n == 0)
		fputs("  (no symbol changed its share)\n", out);
}

