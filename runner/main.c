/* The testcase binary's main: the options, the answers that need no run (--info, --print-header), else the run. */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "options.h"
#include "output.h"
#include "params.h"
#include "run.h"
#include "util.h"

/* "unix1" from ".../unix1_processes" */
static void test_name(char *buf, size_t size)
{
	const char *suffix = sb_threads_mode() ? "_threads" : "_processes";
	size_t len = strlen(sb_prog), slen = strlen(suffix);

	if (len > slen && strcmp(sb_prog + len - slen, suffix) == 0)
		len -= slen;
	snprintf(buf, size, "%.*s", (int)len, sb_prog);
}

static void print_info(const char *name)
{
	unsigned int m = sb_api_modes();

	printf("name=%s\n", name);
	printf("description=%s\n", testcase_description ? testcase_description : "");
	printf("modes=%s%s%s\n", m & SB_PROCESSES ? "processes" : "",
	       m == (SB_PROCESSES | SB_THREADS) ? "," : "", m & SB_THREADS ? "threads" : "");
	if (sb_api_meant()) {
		m = sb_api_meant();
		printf("meant=%s%s%s\n", m & SB_PROCESSES ? "processes" : "",
		       m == (SB_PROCESSES | SB_THREADS) ? "," : "", m & SB_THREADS ? "threads" : "");
		printf("meant_else=%s\n", sb_api_meant_else() ? sb_api_meant_else() : "");
	}
	sb_params_info(stdout);
}

int main(int argc, char **argv)
{
	struct sb_options o;
	char name[256];

	sb_util_init(argv[0]);
	/* --help and --list-options answer from inside, as getopt meets them. */
	sb_options_parse(argc, argv, &o);
	test_name(name, sizeof(name));
	if (o.info) {
		print_info(name);
		sb_flush_stdout();
		sb_exit(SB_EXIT_OK);
	}
	if (o.print_header) {
		sb_output_header(&o);
		sb_exit(SB_EXIT_OK);
	}
	sb_run(&o, name);
}
