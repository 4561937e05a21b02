/* sb-options: the testcase binaries' option table (--list-options, --help), so runtest.sh passes runner options through without a copy. */
#include <stdio.h>

#include "options.h"
#include "util.h"

/* sb_options_parse answers --list-options and --help itself and exits. */
int main(int argc, char **argv)
{
	struct sb_options o;

	sb_util_init(argv[0]);	/* its messages and --version say sb-options */
	sb_options_parse(argc, argv, &o);
	/* Reached with valid options other than those two: not this tool's job. */
	fputs("sb-options: usage: sb-options --list-options | --help\n", stderr);
	return 2;
}
