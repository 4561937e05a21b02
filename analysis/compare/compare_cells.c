/* The cells of the comparison's tables: a markdown cell and a csv field, escaped (printers only). */
#include <stdio.h>
#include <string.h>

#include "compare_priv.h"

/* Markdown table cells: a '|' in a meta value would split the cell. */
void sb_cmp_md_cell(FILE *out, const char *s)
{
	if (*s == '\0') {
		fputs("-", out);
		return;
	}
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			putc(*s, out);
	}
}

/* A csv field, quoted when it holds a comma, a quote or a line break. */
void sb_cmp_csv_cell(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', out);
		putc(*s, out);
	}
	putc('"', out);
}
