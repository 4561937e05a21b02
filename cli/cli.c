/* THE option engine of every C tool: one table a tool (or subcommand), whence the parse, the value checks and --help's option list. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* getopt_long's value of a long-only row: past every char, so no letter is taken for it. */
#define LONG_ONLY(i) (256 + (int)(i))
#define MAX_OPTS 128	/* rows a table may have (getopt's arrays are on the stack) */

/* "-n", "--format" (long_labels: "-t/--tasks"): how messages name an option. */
static const char *label(const struct sb_cli *cli, const struct sb_cli_opt *o, char *buf, size_t size)
{
	if (cli->long_labels && o->letter && o->name)
		snprintf(buf, size, "-%c/--%s", o->letter, o->name);
	else if (o->letter)
		snprintf(buf, size, "-%c", o->letter);
	else
		snprintf(buf, size, "--%s", o->name ? o->name : "");
	return buf;
}

/* The message, cut at 1 KiB, to the tool's usage_error(). */
static void usage_error(const struct sb_cli *cli, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

static void usage_error(const struct sb_cli *cli, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli->usage_error(cli, msg);
}

/* An option the table does not know: the tool's unknown(), else "unknown option 'X'" to its usage_error(). */
static __attribute__((noreturn)) void unknown(const struct sb_cli *cli, const char *typed, int optopt)
{
	if (cli->unknown)
		cli->unknown(cli, typed, optopt);
	usage_error(cli, "unknown option '%s'", typed);
}

/* An option without its value: the tool's missing(), else "X needs a value" to its usage_error(). */
static __attribute__((noreturn)) void missing(const struct sb_cli *cli, const char *typed, int optopt)
{
	if (cli->missing)
		cli->missing(cli, typed, optopt);
	usage_error(cli, "%s needs a value", typed);
}

static long number(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *lab,
		   const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if ((end == arg || *end != '\0') && cli->not_number)
		usage_error(cli, cli->not_number, lab, arg);
	if (end == arg || *end != '\0' || errno != 0 || v < o->lo || v > o->hi)
		usage_error(cli, cli->bad_number ? cli->bad_number : "%s: '%s' is not a whole number from %ld to %ld",
			    lab, arg, o->lo, o->hi);
	return v;
}

static double decimal(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *lab,
		      const char *arg)
{
	double d;

	if (cli->decimal(arg, &d) != 0 || !(d >= o->dlo && d <= o->dhi))
		usage_error(cli, cli->bad_decimal ? cli->bad_decimal : "%s: '%s' is not a number from %g to %g",
			    lab, arg, o->dlo, o->dhi);
	return d;
}

/* runtest.sh's count: digits only (no sign, no blank: strtol takes both), at most 9, >= lo. */
static long count(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *lab, const char *s)
{
	if (!*s || strspn(s, "0123456789") != strlen(s))
		usage_error(cli, "%s: '%s' is not a whole number", lab, s);
	if (strlen(s) > 9)
		usage_error(cli, "%s: '%s' is too large", lab, s);
	if (strtol(s, NULL, 10) < o->lo)
		usage_error(cli, "%s: '%s' must be at least %ld", lab, s, o->lo);
	return strtol(s, NULL, 10);
}

/* "5", "0.5", "1.25" seconds (or percent) as thousandths, then the row's range. */
static long thousandths(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *lab,
			const char *s)
{
	const char *dot = strchr(s, '.'), *unit = o->kind == SB_CLI_PERCENT ? "percent" : "seconds";
	size_t nint = dot ? (size_t)(dot - s) : strlen(s), nfrac = dot ? strlen(dot + 1) : 0;
	long v = 0;

	if (!*s || strspn(s, "0123456789.") != strlen(s) || nint == 0 || (dot && nfrac == 0) ||
	    (dot && strchr(dot + 1, '.')))
		usage_error(cli, "%s: '%s' is not a number of %s like 5 or 0.5", lab, s, unit);
	if (nfrac > 3)
		usage_error(cli, "%s: '%s' has more than 3 decimals", lab, s);
	if (nint > 6 && o->hi > 0)
		usage_error(cli, "%s: '%s' is out of range (%ld..%ld seconds)", lab, s, o->lo, o->hi);
	if (nint > 6)
		usage_error(cli, "%s: '%s' is too large", lab, s);
	for (size_t i = 0; i < nint; i++)
		v = v * 10 + (s[i] - '0');
	for (size_t i = 0; i < 3; i++)
		v = v * 10 + (i < nfrac ? dot[1 + i] - '0' : 0);
	if (o->kind == SB_CLI_PERCENT && v == 0)
		usage_error(cli, "%s: '%s' must be more than 0", lab, s);
	if (o->hi == 0 && o->lo > 0 && v == 0)
		usage_error(cli, "%s: '%s' must be more than 0 seconds", lab, s);
	if (o->hi > 0 && (v < o->lo * 1000 || v > o->hi * 1000))
		usage_error(cli, "%s: '%s' is out of range (%ld..%ld seconds)", lab, s, o->lo, o->hi);
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
		o->set(opts, o, arg, c->value);
	else
		*(int *)((char *)opts + o->field) = c->value;
}

/* One option with its argument (NULL: none; a pair: its first word, arg2 the second) into *opts. */
static void apply(const struct sb_cli *cli, const struct sb_cli_opt *o, const char *arg, const char *arg2,
		  void *opts, const char *typed, const char *lab)
{
	char *at = (char *)opts + o->field;

	switch (o->kind) {
	case SB_CLI_FLAG:
		*(int *)at = 1;
		break;
	case SB_CLI_SET:
		*(int *)at = (int)o->lo;
		break;
	case SB_CLI_STRING:
		*(const char **)at = arg;
		break;
	case SB_CLI_PAIR:
		((const char **)at)[0] = arg;
		((const char **)at)[1] = arg2;
		break;
	case SB_CLI_INT:
		*(int *)at = (int)number(cli, o, lab, arg);
		break;
	case SB_CLI_LONG:
		*(long *)at = number(cli, o, lab, arg);
		break;
	case SB_CLI_COUNT:
		*(long *)at = count(cli, o, lab, arg);
		break;
	case SB_CLI_SECONDS:
	case SB_CLI_PERCENT:
		*(long *)at = thousandths(cli, o, lab, arg);
		break;
	case SB_CLI_DECIMAL:
		*(double *)at = decimal(cli, o, lab, arg);
		break;
	case SB_CLI_CHOICE:
		choose(cli, o, arg, opts);
		break;
	case SB_CLI_CALL:
		o->set(opts, o, arg, 0);
		break;
	case SB_CLI_HELP:
		cli->help();
	case SB_CLI_REFUSED:
	case SB_CLI_DOC:
	case SB_CLI_TITLE:
		unknown(cli, typed, o->letter);
	}
	if (cli->seen != NULL)
		cli->seen(opts, o, lab, arg);
}

static int listed_only(const struct sb_cli_opt *o)
{
	return o->kind == SB_CLI_DOC || o->kind == SB_CLI_TITLE;
}

/* getopt's short options ("n:"; ":" first when quiet) and long options (none: nlong 0) of the table. */
static size_t getopt_arrays(const struct sb_cli *cli, char *shorts, size_t size, struct option *longs)
{
	size_t k = 0, nlong = 0;

	if (cli->nopts >= MAX_OPTS)
		abort();	/* a table too long for the arrays: the tool's bug */
	if (cli->quiet)
		shorts[k++] = ':';
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];

		if (listed_only(o))
			continue;
		if (o->letter && k + 3 < size) {
			shorts[k++] = o->letter;
			if (o->arg)
				shorts[k++] = ':';
		}
		if (o->name) {
			longs[nlong].name = o->name;
			longs[nlong].has_arg = o->arg ? required_argument : no_argument;
			longs[nlong].flag = NULL;
			longs[nlong].val = o->letter ? o->letter : LONG_ONLY(i);
			nlong++;
		}
	}
	shorts[k] = '\0';
	longs[nlong] = (struct option){ NULL, 0, NULL, 0 };
	return nlong;
}

const struct sb_cli_opt *sb_cli_row(const struct sb_cli *cli, int c)
{
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];

		if (!listed_only(o) && (o->letter ? o->letter == c : LONG_ONLY(i) == c))
			return o;
	}
	return NULL;
}

int sb_cli_parse(const struct sb_cli *cli, int argc, char **argv, void *opts)
{
	char shorts[2 * MAX_OPTS + 2], lab[64];
	struct option longs[MAX_OPTS + 1];
	size_t nlong = getopt_arrays(cli, shorts, sizeof(shorts), longs);
	int c;

	opterr = !cli->quiet;
	/* getopt when no row has a long form: getopt_long would read "--x" as one unknown option */
	while ((c = nlong ? getopt_long(argc, argv, shorts, longs, NULL) : getopt(argc, argv, shorts)) != -1) {
		const struct sb_cli_opt *o = c == '?' || c == ':' ? NULL : sb_cli_row(cli, c);

		if (c == ':')
			missing(cli, argv[optind - 1], optopt);
		if (o == NULL)
			unknown(cli, argv[optind - 1], optopt);
		apply(cli, o, optarg, NULL, opts, argv[optind - 1], label(cli, o, lab, sizeof(lab)));
	}
	return optind;
}

/* ---- the in-order walk ------------------------------------------------------------- */

const struct sb_cli_opt *sb_cli_find(const struct sb_cli *cli, const char *name)
{
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];

		if (listed_only(o) || name[0] != '-')
			continue;
		if (name[1] == '-' ? o->name && strcmp(name + 2, o->name) == 0 :
				     o->letter && name[1] == o->letter && name[2] == '\0')
			return o;
	}
	return NULL;
}

const struct sb_cli_opt *sb_cli_doc(const struct sb_cli *cli, const char *word)
{
	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];

		if (o->kind == SB_CLI_DOC && o->name && strncmp(word, "--", 2) == 0 && strcmp(word + 2, o->name) == 0)
			return o;
	}
	return NULL;
}

void sb_cli_scan_init(struct sb_cli_scan *s, int argc, char **argv)
{
	memset(s, 0, sizeof(*s));
	s->argc = argc;
	s->argv = argv;
}

/* The option word at s->i (its "=VALUE" split off when the tool takes that): s->word, s->value. */
static void split(const struct sb_cli *cli, struct sb_cli_scan *s)
{
	const char *w = s->argv[s->i], *eq = strchr(w, '=');

	s->word = w;
	s->value = NULL;
	if (cli->equals && strncmp(w, "--", 2) == 0 && eq != NULL) {
		snprintf(s->buf, sizeof(s->buf), "%.*s", (int)(eq - w), w);
		s->word = s->buf;
		s->value = eq + 1;
	}
}

/* The values an option takes (want: 0, 1 or 2) from the words after it, or its "=VALUE". */
static void values(const struct sb_cli *cli, struct sb_cli_scan *s, int want, const char **v2)
{
	if (want == 0 && s->value != NULL)
		usage_error(cli, "%s takes no value", s->word);
	if (s->i + want - (s->value != NULL) >= s->argc)
		missing(cli, s->word, 0);
	if (want > 0 && s->value == NULL)
		s->value = s->argv[++s->i];
	if (want > 1)
		*v2 = s->argv[++s->i];
}

enum sb_cli_step sb_cli_next(const struct sb_cli *cli, struct sb_cli_scan *s, void *opts)
{
	const char *v2 = NULL;
	char lab[64];
	int takes;

	s->o = NULL;
	s->first = s->i;
	s->n = 1;
	if (s->i >= s->argc)
		return SB_CLI_END;
	s->word = s->argv[s->i];
	s->value = NULL;
	if (s->after_dash_dash || s->word[0] != '-' || strcmp(s->word, "-") == 0) {
		s->i++;
		return SB_CLI_OPERAND;
	}
	if (strcmp(s->word, "--") == 0 && !cli->dash_dash_unknown) {
		s->after_dash_dash = 1;
		s->i++;
		return SB_CLI_DASH_DASH;
	}
	split(cli, s);
	s->o = sb_cli_find(cli, s->word);
	takes = s->o ? (s->o->kind == SB_CLI_PAIR ? 2 : s->o->arg != NULL) : cli->foreign ? cli->foreign(s->word) : -1;
	if (takes < 0)
		unknown(cli, s->word, 0);
	values(cli, s, takes, &v2);
	s->i++;
	s->n = s->i - s->first;
	if (s->o == NULL)
		return SB_CLI_FOREIGN;
	apply(cli, s->o, s->value, v2, opts, s->word, cli->long_labels ? label(cli, s->o, lab, sizeof(lab)) : s->word);
	return SB_CLI_OPTION;
}

int sb_cli_scan(const struct sb_cli *cli, int argc, char **argv, void *opts, char **ops)
{
	struct sb_cli_scan s;
	enum sb_cli_step st;
	int n = 0;

	sb_cli_scan_init(&s, argc, argv);
	while ((st = sb_cli_next(cli, &s, opts)) != SB_CLI_END) {
		if (st == SB_CLI_OPERAND && ops == NULL)
			unknown(cli, s.word, 0);
		if (st == SB_CLI_OPERAND)
			ops[n++] = (char *)s.word;
	}
	return n;
}

int sb_cli_alone(int argc, char **argv, const char *word)
{
	return argc == 2 && strcmp(argv[1], word) == 0;
}

/* ---- --help ------------------------------------------------------------------------ */

/* "  -t, --tasks N        tasks ..." as the runner's --help has it: two fixed fields. */
static void runner_row(const struct sb_cli_opt *o, FILE *out)
{
	char shortf[4] = "", longf[64] = "";

	if (o->letter)
		snprintf(shortf, sizeof(shortf), "-%c%s", o->letter, o->name ? "," : "");
	if (o->name)
		snprintf(longf, sizeof(longf), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	fprintf(out, "  %-3s %-18s %s\n", shortf, longf, o->help);
}

void sb_cli_list(const struct sb_cli *cli, FILE *out)
{
	int width = cli->width ? cli->width : 20;

	for (size_t i = 0; i < cli->nopts; i++) {
		const struct sb_cli_opt *o = &cli->opts[i];
		const char *h = o->help, *nl, *arg = o->arg;
		char lab[64];

		if (h == NULL)
			continue;
		if (o->kind == SB_CLI_TITLE) {
			fprintf(out, "%s\n", h);
			continue;
		}
		if (cli->runner_columns) {
			runner_row(o, out);
			continue;
		}
		if (o->letter && o->name)
			snprintf(lab, sizeof(lab), "-%c, --%s", o->letter, o->name);
		else if (o->letter)
			snprintf(lab, sizeof(lab), "-%c", o->letter);
		else
			snprintf(lab, sizeof(lab), "--%s", o->name);
		if (arg)
			snprintf(lab + strlen(lab), sizeof(lab) - strlen(lab), " %s", arg);
		fprintf(out, "  %-*s ", width, lab);
		while ((nl = strchr(h, '\n')) != NULL) {
			fprintf(out, "%.*s\n%*s", (int)(nl - h), h, width + 3, "");
			h = nl + 1;
		}
		fprintf(out, "%s\n", h);
	}
}
