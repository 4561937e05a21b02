/* THE option engine of every C tool: one table a tool (or subcommand), whence the parse, the value checks and --help's option list. */
#ifndef SCALEBENCH_CLI_H
#define SCALEBENCH_CLI_H

#include <stddef.h>
#include <stdio.h>

enum sb_cli_kind {
	SB_CLI_FLAG,	/* no argument: 1 into an int */
	SB_CLI_SET,	/* no argument: lo into an int (an enum) */
	SB_CLI_STRING,	/* the argument as given, into a const char * */
	SB_CLI_PAIR,	/* two words ("--point MODE TASKS"), into two const char * from field on */
	SB_CLI_INT,	/* a whole number in [lo, hi], into an int */
	SB_CLI_LONG,	/* a whole number in [lo, hi], into a long (or an unsigned long) */
	SB_CLI_COUNT,	/* digits only, at most 9, at least lo, into a long (runtest.sh's counts) */
	SB_CLI_SECONDS,	/* seconds, up to 3 decimals, as milliseconds into a long (lo..hi s; hi 0: none) */
	SB_CLI_PERCENT,	/* a percentage the same way, in thousandths, more than 0 */
	SB_CLI_DECIMAL,	/* a number by the tool's decimal() in [dlo, dhi], into a double */
	SB_CLI_CHOICE,	/* one of choices[]: its value into an int, or to set() */
	SB_CLI_CALL,	/* the argument (NULL: none) to set(), which checks and keeps it */
	SB_CLI_HELP,	/* the tool's help(), which prints the usage and exits */
	SB_CLI_REFUSED,	/* known to the parse (its argument taken), then refused as unknown */
	SB_CLI_DOC,	/* in the option list only: the tool reads it itself (from argv, or as its only argument) */
	SB_CLI_TITLE,	/* in the option list only: help is a heading line */
};

struct sb_cli_choice {
	const char *name;
	int value;
};

struct sb_cli_opt;
typedef void sb_cli_set_fn(void *opts, const struct sb_cli_opt *o, const char *arg, int value);

struct sb_cli_opt {
	char letter;		/* short form, or 0 */
	const char *name;	/* long form without "--", or NULL */
	const char *arg;	/* the argument's name, or NULL: it takes none */
	enum sb_cli_kind kind;
	size_t field;		/* offsetof(the tool's options struct, what it sets) */
	long lo, hi;		/* numbers: the range; SB_CLI_SET: lo is the value */
	const struct sb_cli_choice *choices;	/* SB_CLI_CHOICE: ended by a NULL name */
	const char *bad;	/* SB_CLI_CHOICE: the message of another value, "%s" the value */
	sb_cli_set_fn *set;	/* SB_CLI_CALL; SB_CLI_CHOICE instead of field */
	int group;		/* the tool's own grouping, for seen() (0: none) */
	const char *help;	/* the option list's text ('\n' continues it), NULL: not listed */
	const char *key;	/* the tool's own name for it (a pair's name handed to bash), or NULL */
	double dlo, dhi;	/* SB_CLI_DECIMAL: the range */
};

/* One tool's (or subcommand's) options and how it reports their errors. */
struct sb_cli {
	const struct sb_cli_opt *opts;
	size_t nopts;
	/*
	 * sb_cli_parse: quiet: getopt prints nothing (opterr 0, a leading ':'),
	 * missing() and unknown() say it all; otherwise getopt's own message comes first.
	 */
	int quiet;
	const char *what;	/* the tool's word for itself in its messages, for its callbacks */
	/* "%s" the option as labelled (-n, --format), "%s" the value, "%ld" lo, "%ld" hi (NULL:
	 * "... is not a whole number from lo to hi") */
	const char *bad_number;
	/* "%s" the option, "%s" the value: not a number at all (NULL: bad_number says it) */
	const char *not_number;
	/* SB_CLI_DECIMAL: the tool's number syntax (0: a number into *d), its message ("%s" the
	 * option, "%s" the value, "%g" dlo, "%g" dhi; NULL: "... is not a number from dlo to dhi") */
	int (*decimal)(const char *s, double *d);
	const char *bad_decimal;
	int long_labels;	/* messages name an option "-t/--tasks" (a letter and a name) */
	/* a usage error with this message: never returns */
	void (*usage_error)(const struct sb_cli *cli, const char *msg) __attribute__((noreturn));
	/* typed: the argument the parse stopped at; optopt: getopt's (0 in a scan). NULL: the engine
	 * says "unknown option 'TYPED'" and "TYPED needs a value" through usage_error */
	void (*unknown)(const struct sb_cli *cli, const char *typed, int optopt) __attribute__((noreturn));
	void (*missing)(const struct sb_cli *cli, const char *typed, int optopt) __attribute__((noreturn));
	void (*help)(void) __attribute__((noreturn));
	/* after each option applied (NULL: nothing); label as bad_number's, arg its value or NULL */
	void (*seen)(void *opts, const struct sb_cli_opt *o, const char *label, const char *arg);
	/* sb_cli_next: "--name=VALUE" is "--name VALUE" */
	int equals;
	/* sb_cli_next: "--" is an option to the tool, not the end of options */
	int dash_dash_unknown;
	/* sb_cli_next: an option not in the table; -1 unknown, else how many values it takes */
	int (*foreign)(const char *opt);
	/* --help's option list: the label's column width (0: 20) */
	int width;
	int runner_columns;	/* "  -t, --tasks N ..." in a 3-column and an 18-column field */
};

/* argv's options into *opts by the table (getopt_long: options and operands in any order,
 * operands moved last), each checked; returns optind (the first operand). */
int sb_cli_parse(const struct sb_cli *cli, int argc, char **argv, void *opts);

/* The in-order walk (runtest.sh's, vm/boot.sh's, sb-history's grammar): each word as it
 * comes; table rows are applied as in sb_cli_parse, the rest handed back. */
enum sb_cli_step {
	SB_CLI_END,		/* no word left */
	SB_CLI_OPTION,		/* a row of the table, applied; s->o */
	SB_CLI_OPERAND,		/* s->word: not an option ("-" is one), or any word after "--" */
	SB_CLI_FOREIGN,		/* s->word, s->value: an option foreign() knows */
	SB_CLI_DASH_DASH,	/* "--": the words after it are operands (s->i the first) */
};

struct sb_cli_scan {
	int argc;
	char **argv;
	int i;				/* the next word */
	int after_dash_dash;
	const struct sb_cli_opt *o;	/* SB_CLI_OPTION: its row */
	const char *word;		/* the option as typed (without "=VALUE"), or the operand */
	const char *value;		/* its value, or NULL */
	int first, n;			/* the words of argv this step took */
	char buf[256];
};

void sb_cli_scan_init(struct sb_cli_scan *s, int argc, char **argv);
enum sb_cli_step sb_cli_next(const struct sb_cli *cli, struct sb_cli_scan *s, void *opts);
/* The whole walk: operands into ops (room for argc; the words after "--" too; NULL: an operand
 * is unknown()), returns how many. */
int sb_cli_scan(const struct sb_cli *cli, int argc, char **argv, void *opts, char **ops);

/* The table's option list for --help: "  LABEL   HELP" a row, HELP's lines aligned. */
void sb_cli_list(const struct sb_cli *cli, FILE *out);

/* The row of getopt's value c (a letter, or 256 + a long-only row's index), or NULL. */
const struct sb_cli_opt *sb_cli_row(const struct sb_cli *cli, int c);
/* The row NAME ("--kernel", "-h"), or NULL. */
const struct sb_cli_opt *sb_cli_find(const struct sb_cli *cli, const char *name);

/* The SB_CLI_DOC row WORD ("--vs") names, one the tool reads from argv itself, or NULL. */
const struct sb_cli_opt *sb_cli_doc(const struct sb_cli *cli, const char *word);

/* argv is "PROG WORD" exactly: a tool's own one-word call (--version, --help). */
int sb_cli_alone(int argc, char **argv, const char *word);

#endif
