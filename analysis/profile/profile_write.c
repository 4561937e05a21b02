/* Profiles written and shown: the CSV field writer and splitter, per-symbol shares sorted, folded and top tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/export.h"
#include "profile.h"

#include "format/top.h"

/* ---- CSV ---- */

size_t sb_csv_split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *r = line, *w;

	while (n < max) {
		f[n++] = w = r;
		if (*r == '"') {
			r++;
			for (;;) {
				if (*r == '\0')
					break;
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
			while (*r && *r != ',')
				r++;
		} else {
			while (*r && *r != ',')
				w = ++r;
		}
		if (*r == '\0') {
			*w = '\0';
			break;
		}
		r++;
		*w = '\0';
	}
	return n;
}

double sb_prof_pct(const struct sb_prof *p, double v)
{
	if (p->pct_only)
		return v;
	return p->total > 0 ? 100.0 * v / p->total : 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sb_sym *x = *(const struct sb_sym *const *)a, *y = *(const struct sb_sym *const *)b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->children != y->children)
		return x->children > y->children ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel - y->kernel;
	return strcmp(x->name, y->name);
}

int sb_prof_sorted(const struct sb_prof *p, const struct sb_sym ***out)
{
	const struct sb_sym **v = malloc((p->nsyms ? p->nsyms : 1) * sizeof(*v));

	if (v == NULL)
		return -1;
	for (size_t i = 0; i < p->nsyms; i++)
		v[i] = &p->syms[i];
	qsort(v, p->nsyms, sizeof(*v), cmp_sym);
	*out = v;
	return 0;
}

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct sb_stack *)a)->folded, ((const struct sb_stack *)b)->folded);
}

int sb_prof_write_folded(const struct sb_prof *p, FILE *out)
{
	struct sb_stack *v = malloc((p->nstacks ? p->nstacks : 1) * sizeof(*v));

	if (v == NULL)
		return -1;
	memcpy(v, p->stacks, p->nstacks * sizeof(*v));
	qsort(v, p->nstacks, sizeof(*v), cmp_stack);
	for (size_t i = 0; i < p->nstacks; i++)
		fprintf(out, "%s %.0f\n", v[i].folded, v[i].count);
	free(v);
	return ferror(out) ? -1 : 0;
}

int sb_prof_write_top_csv(const struct sb_prof *p, FILE *out)
{
	const struct sb_sym **v;

	if (sb_prof_sorted(p, &v) != 0)
		return -1;
	fprintf(out, "%s\n", SB_TOP_HEADER);
	for (size_t i = 0; i < p->nsyms; i++) {
		for (int k = 0; k < SB_TOP_NCOLS; k++) {
			if (k)
				fputc(',', out);
			switch ((enum sb_top_col)k) {
			case SB_TOP_COL_SELF_PCT:
				fprintf(out, "%.2f", sb_prof_pct(p, v[i]->self));
				break;
			case SB_TOP_COL_CHILDREN_PCT:
				fprintf(out, "%.2f", sb_prof_pct(p, v[i]->children));
				break;
			case SB_TOP_COL_SELF_SAMPLES:
				fprintf(out, "%.0f", p->pct_only ? 0 : v[i]->self);
				break;
			case SB_TOP_COL_CHILDREN_SAMPLES:
				fprintf(out, "%.0f", p->pct_only ? 0 : v[i]->children);
				break;
			case SB_TOP_COL_SPACE:
				fputs(v[i]->kernel ? SB_TOP_KERNEL : SB_TOP_USER, out);
				break;
			case SB_TOP_COL_SYMBOL:
				sb_csv_field(out, v[i]->name);
				break;
			case SB_TOP_COL_DSO:
				sb_csv_field(out, v[i]->dso);
				break;
			case SB_TOP_NCOLS:
				break;
			}
		}
		fputc('\n', out);
	}
	free(v);
	return ferror(out) ? -1 : 0;
}

int sb_prof_write_top_text(const struct sb_prof *p, FILE *out, size_t limit)
{
	const struct sb_sym **v;
	size_t n;

	if (sb_prof_sorted(p, &v) != 0)
		return -1;
	n = p->nsyms < limit ? p->nsyms : limit;
	fprintf(out, "event %s, %.0f samples, %.1f%% in the kernel", p->event[0] ? p->event : "unknown",
		p->total, sb_prof_pct(p, p->kernel));
	if (p->kernel_unresolved > 0)
		fprintf(out, " (%.1f%% of it without symbols)",
			p->kernel > 0 ? 100.0 * p->kernel_unresolved / p->kernel : 0);
	fputs("\n\n", out);
	fprintf(out, "%7s %7s  %-6s  %-40s %s\n", "self%", "total%", "space", "symbol", "dso");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%7.2f %7.2f  %-6s  %-40s %s\n", sb_prof_pct(p, v[i]->self),
			sb_prof_pct(p, v[i]->children), v[i]->kernel ? "kernel" : "user", v[i]->name,
			v[i]->dso[0] ? v[i]->dso : "-");
	free(v);
	return ferror(out) ? -1 : 0;
}
