/* The reports' formats by name, from show's and changes' printer tables: lookup, the words of errors, --format's help. */
#include <stdio.h>
#include <string.h>

#include "history.h"

int sb_hist_format_in(const char *(*table)(size_t), const char *name)
{
	for (size_t i = 0; table(i) != NULL; i++)
		if (strcmp(table(i), name) == 0)
			return 1;
	return 0;
}

void sb_hist_format_words(const char *(*table)(size_t), char *buf, size_t len)
{
	size_t n = 0, at = 0;

	while (table(n) != NULL)
		n++;
	*buf = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", table(i));
}

/* show's names in order (the first the default; "(show)": not one of changes'), then changes' own */
void sb_hist_format_help(char *buf, size_t len)
{
	size_t at = 0;

	*buf = '\0';
	for (size_t i = 0; sb_show_format(i) != NULL && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s", i ? ", " : "", sb_show_format(i),
				       i == 0 ? " (default)" :
				       sb_hist_format_in(sb_changes_format, sb_show_format(i)) ? "" : " (show)");
	for (size_t i = 0; sb_changes_format(i) != NULL && at < len; i++)
		if (!sb_hist_format_in(sb_show_format, sb_changes_format(i)))
			at += (size_t)snprintf(buf + at, len - at, ", %s (changes)", sb_changes_format(i));
}
