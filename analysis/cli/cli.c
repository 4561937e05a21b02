/* Command-line options of the analysis tools as tables: getopt's arrays, --help's option list and the value checks. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msg.h"

/* getopt_long's value of a long-only row: past every char, so no letter is taken for it. */
#define LONG_ONLY(i) (256 + (int)(i))

/* "-n", "--format": how messages name an option (its letter when it has one). */
static const char *label(const struct sb_cli_opt *o, char *buf, size_t size)
{
	if (o->letter)
		snprintf(buf, size, "-%c", o->letter);
	else
		snprintf(buf, size, "--%s", o->name);
	return buf;
}

/* The message, however long, to the tool's usage_error(). */
static void usage_error(const struct sb_cli *cli, const char *fmt, ...)
	__attribute__((noreturn));

static void usage_error(const struct sb_cli *cli, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = n < 0 ? NULL : malloc((size_t)n + 1);
	if (msg == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	cli->usage_error(cli, msg);
}

static long number(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *lab,
		   const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || errno != 0 || v < o->lo || v > o->hi)
		usage_error(cli, cli->bad_number, lab, arg, o->lo, o->hi);
	return v;
}

static void choose(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *arg, void *opts)
{
	const struct sb_cli_choice *c;

	for (c = o->choices; c->name != NULL && strcmp(c->name, arg) != 0; c++)
		;
	if (c->name == NULL)
		usage_error(cli, o->bad, arg);
	if (o->set != NULL)
		o->set(opts, arg, c->value);
	else
		*(int *)((char *)opts + o->field) = c->value;
}

/* One option getopt returned, with its argument (NULL: none), into *opts. */
static void apply(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *arg, void *opts,
		  const char *typed)
{
	char *at = (char *)opts + o->field, lab[64];

	label(o, lab, sizeof(lab));
	switch (o->kind) {
	case SB_CLI_FLAG:
		*(int *)at = 1;
		break;
	case SB_CLI_STRING:
		*(const char **)at = arg;
		break;
	case SB_CLI_INT:
		*(int *)at = (int)number(cli, o, lab, arg);
		break;
	case SB_CLI_LONG:
		*(long *)at = number(cli, o, lab, arg);
		break;
	case SB_CLI_CHOICE:
		choose(cli, o, arg, opts);
		break;
	case SB_CLI_CALL:
		o->set(opts, arg, 0);
		break;
	case SB_CLI_HELP:
		cli->help();
	case SB_CLI_REFUSED:
	case SB_CLI_DOC:
		cli->unknown(cli, typed, o->letter);
	}
	if (cli->seen != NULL)
		cli->seen(opts, o, lab);
}

/* getopt's short options ("n:"; ":" first when quiet) and long options (NULL when none) of the table. */
static struct option *getopt_arrays(const struct sb_cli *cli, char *shorts, size_t size)
{
	struct option *longs = calloc(cli->nopts + 1, sizeof(*longs));
	size_t k = 0, nlong = 0;

	if (longs == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	if (cli->quiet)
		shorts[k++] = ':';
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];

		if (o->kind == SB_CLI_DOC)
			continue;
		if (o->letter && k + 3 < size) {
			shorts[k++] = o->letter;
			if (o->arg)
				shorts[k++] = ':';
		}
		if (o->name) {
			longs[nlong].name = o->name;
			longs[nlong].has_arg = o->arg ? required_argument : no_argument;
			longs[nlong].val = o->letter ? o->letter : LONG_ONLY(i);
			nlong++;
		}
	}
	shorts[k] = '\0';
	if (nlong == 0) {
		free(longs);
		return NULL;
	}
	return longs;
}

static const struct sb_cli_opt *row_of(const struct sb_cli *cli, int c)
{
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];

		if (o->kind != SB_CLI_DOC && (o->letter ? o->letter == c : LONG_ONLY(i) == c))
			return o;
	}
	return NULL;
}

int sb_cli_parse(const struct sb_cli *cli, int argc, char **argv, void *opts)
{
	char shorts[128];
	struct option *longs = getopt_arrays(cli, shorts, sizeof(shorts));
	int c;

	opterr = !cli->quiet;
	/* getopt when no row has a long form: getopt_long would read "--x" as one unknown option */
	while ((c = longs ? getopt_long(argc, argv, shorts, longs, NULL) :
		    getopt(argc, argv, shorts)) != -1) {
		const struct sb_cli_opt *o = c == '?' || c == ':' ? NULL : row_of(cli, c);

		if (c == ':')
			cli->missing(cli, argv[optind - 1], optopt);
		if (o == NULL)
			cli->unknown(cli, argv[optind - 1], optopt);
		apply(cli, o, optarg, opts, argv[optind - 1]);
	}
	free(longs);
	return optind;
}

void sb_cli_list(const struct sb_cli *cli, FILE *out)
{
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];
		char lab[64];
		const char *h = o->help, *nl;

		if (h == NULL)
			continue;
		if (o->letter && o->name)
			snprintf(lab, sizeof(lab), "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else if (o->letter)
			snprintf(lab, sizeof(lab), "-%c%s%s", o->letter, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(lab, sizeof(lab), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-20s ", lab);
		while ((nl = strchr(h, '\n')) != NULL) {
			fprintf(out, "%.*s\n%23s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(out, "%s\n", h);
	}
}
