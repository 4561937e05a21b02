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
