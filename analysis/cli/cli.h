/* Command-line options of the analysis tools as tables: getopt's arrays, --help's option list and the value checks. */
#ifndef SCALEBENCH_CLI_H
#define SCALEBENCH_CLI_H

#include <stddef.h>
#include <stdio.h>

enum sb_cli_kind {
	SB_CLI_FLAG,	/* no argument: 1 into an int */
	SB_CLI_STRING,	/* the argument as given, into a const char * */
	SB_CLI_INT,	/* a whole number in [lo, hi], into an int */
	SB_CLI_LONG,	/* a whole number in [lo, hi], into a long */
	SB_CLI_CHOICE,	/* one of choices[]: its value into an int, or to set() */
	SB_CLI_CALL,	/* the argument (NULL: none) to set(), which checks and keeps it */
	SB_CLI_HELP,	/* the tool's help(), which prints the usage and exits */
	SB_CLI_REFUSED,	/* known to getopt (its argument taken), then refused as unknown */
	SB_CLI_DOC,	/* in the option list only: the tool takes it out of argv before */
};

struct sb_cli_choice {
	const char *name;
	int value;
};

struct sb_cli_opt {
	char letter;		/* short form, or 0 */
	const char *name;	/* long form without "--", or NULL */
	const char *arg;	/* the argument's name, or NULL: it takes none */
	enum sb_cli_kind kind;
	size_t field;		/* offsetof(the tool's options struct, what it sets) */
	long lo, hi;		/* SB_CLI_INT, SB_CLI_LONG: the range */
	const struct sb_cli_choice *choices;	/* SB_CLI_CHOICE: ended by a NULL name */
	const char *bad;	/* SB_CLI_CHOICE: the message of another value, "%s" the value */
	void (*set)(void *opts, const char *arg, int value);	/* SB_CLI_CALL; SB_CLI_CHOICE instead of field */
	int group;		/* the tool's own grouping, for seen() (0: none) */
	const char *help;	/* the option list's text ('\n' continues it), NULL: not listed */
};

/* One tool's (or subcommand's) options and how it reports their errors. */
struct sb_cli {
	const struct sb_cli_opt *opts;
	size_t nopts;
	/*
	 * quiet: getopt prints nothing (opterr 0, a leading ':'), missing() and
	 * unknown() say it all; otherwise getopt's own message comes first.
	 */
	int quiet;
	const char *what;	/* the tool's word for itself in its messages, for its callbacks */
	/* "%s" the option as labelled (-n, --format), "%s" the value, "%ld" lo, "%ld" hi */
	const char *bad_number;
	/* a usage error with this message: never returns */
	void (*usage_error)(const struct sb_cli *cli, const char *msg) __attribute__((noreturn));
	/* typed: the argument getopt stopped at; optopt: getopt's */
	void (*unknown)(const struct sb_cli *cli, const char *typed, int optopt) __attribute__((noreturn));
	void (*missing)(const struct sb_cli *cli, const char *typed, int optopt) __attribute__((noreturn));
	void (*help)(void) __attribute__((noreturn));
	/* after each option applied (NULL: nothing); label as bad_number's */
	void (*seen)(void *opts, const struct sb_cli_opt *o, const char *label);
};

/* argv's options into *opts by the table, each checked; returns optind (the first operand). */
int sb_cli_parse(const struct sb_cli *cli, int argc, char **argv, void *opts);

/* The table's option list for --help: "  LABEL   HELP" a row, HELP's lines aligned. */
void sb_cli_list(const struct sb_cli *cli, FILE *out);

#endif
