/* NAME VALUE pairs, each NUL-terminated, on stdout: how a C helper hands values to bash (read -r -d ''). */
#include <stdio.h>
#include <string.h>

#include "pairs.h"

void sb_pair(const char *name, const char *value)
{
	fputs(name, stdout);
	putchar('\0');
	fputs(value ? value : "", stdout);
	putchar('\0');
}

void sb_pair_n(const char *name, long value)
{
	char buf[32] = "";

	if (value != SB_PAIR_NONE)
		snprintf(buf, sizeof(buf), "%ld", value);
	sb_pair(name, buf);
}

void sb_help_row(const char *name, const char *arg, const char *help, int width)
{
	char head[64];
	const char *h = help, *nl;

	snprintf(head, sizeof(head), "%s%s%s", name, arg ? " " : "", arg ? arg : "");
	printf("  %-*s", width, head);
	for (int first = 1; (nl = strchr(h, '\n')) != NULL; h = nl + 1, first = 0)
		printf("%*s%.*s\n", first ? 1 : width + 3, "", (int)(nl - h), h);
	printf("%*s%s\n", h == help ? 1 : width + 3, "", h);
}
