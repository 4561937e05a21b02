/* sb-rundir: the one writer of run directories: makes one with its run id, sets meta's keys and its status. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msg/msg.h"
#include "msg/exit.h"
#include "cli.h"
#include "rundir/facts.h"
#include "rundir/keys.h"
#include "rundir/writer.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */

#define PROG "sb-rundir"
#define HINT "see sb-rundir --help"

/* get: 1 when the key is absent (SB_EXIT_FAIL's number, read as "no such key" by the shell) */
enum { EXIT_ABSENT = SB_EXIT_FAIL };

static const char usage_text[] =
	"usage: sb-rundir create PARENT LABEL [--at EPOCH] [--stdin] [KEY=VALUE...]\n"
	"       sb-rundir latest PARENT ID\n"
	"       sb-rundir set DIR [--stdin] KEY=VALUE...\n"
	"       sb-rundir status DIR STATUS [--error MSG] [--point MODE TASKS] [--if S[,S...]]\n"
	"                        [--stdin] [KEY=VALUE...]\n"
	"       sb-rundir adopt DIR FILE [KEY=VALUE...]\n"
	"       sb-rundir get DIR KEY\n"
	"       sb-rundir keys [--markdown]\n"
	"       sb-rundir facts PID\n"
	"The one writer of a run directory's meta (results/README.md). create: makes\n"
	"PARENT/LABEL-YYYYmmddTHHMMSS (-2, -3 ... when taken) with meta (status running,\n"
	"run_id, date) and room kept for the final status; prints the id. latest: the\n"
	"PARENT/latest link to ID. set: keys of the table, values on one line (--stdin:\n"
	"KEY=VALUE lines). status: running, complete, failed or interrupted, with error\n"
	"and failed_mode/failed_tasks (empty unless given); --if: only when the status is\n"
	"one of those. adopt: meta becomes FILE's keys (a guest's meta) and these. get: a\n"
	"key's value (exit 1: absent). keys: the key table. facts: the machine's facts\n"
	"meta records (host, kernel, arch, os, cpu; start: PID's boot id and start time),\n"
	"key=value lines. Every write is a rename.\n";
static const char usage_tail[] = "Exit: 0, 1 (get: absent), 2 bad input, 3 cannot write.\n";

static void check(int rc, const char *err)
{
	if (rc != SB_EXIT_OK)
		sb_die(rc, "%s", err);
}

/* KEY=VALUE lines of stdin into m */
static void put_stdin(struct sb_meta *m, int allow_status)
{
	char *line = NULL, err[512];
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, stdin)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0)
			continue;
		check(sb_meta_put(m, line, allow_status, err, sizeof(err)), err);
	}
	if (ferror(stdin))
		sb_die(SB_EXIT_ENV, "cannot read standard input: %s", strerror(errno));
	free(line);
}

struct args {
	int use_stdin;
	const char *at, *error, *mode, *tasks, *only_if;
	char **kv;
	size_t nkv;
};

#define AT(f) offsetof(struct args, f)
#define TEXT(n, a, f, h)	{ .name = n, .arg = a, .kind = SB_CLI_STRING, .field = AT(f), .help = h }

/* In --help's order: create's, set's and status's options. An option: a row here, a field in
 * struct args, its consumer (put_args, cmd_create, cmd_status). */
static const struct sb_cli_opt table[] = {
	TEXT("at", "EPOCH", at, "create: the run's time, seconds since the epoch (default: now)"),
	{ .name = "stdin", .kind = SB_CLI_FLAG, .field = AT(use_stdin), .help = "KEY=VALUE lines on standard input too" },
	TEXT("error", "MSG", error, "status: the error meta records"),
	{ .name = "point", .arg = "MODE TASKS", .kind = SB_CLI_PAIR, .field = AT(mode),
	  .help = "status: the point that failed (failed_mode, failed_tasks)" },
	TEXT("if", "S[,S...]", only_if, "status: only when the status is one of those"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_DOC, .help = "this text (as the only argument)" },
	{ .name = "version", .kind = SB_CLI_DOC, .help = "sb-rundir's version (as the only argument)" },
};
/* keys' own */
static const struct sb_cli_opt keys_table[] = {
	{ .name = "markdown", .kind = SB_CLI_FLAG, .help = "keys: the table as results/README.md's markdown" },
};

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	sb_usage_die(HINT, "%s", msg);
}

static __attribute__((noreturn)) void unknown(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)optopt;
	if (c->what)
		sb_usage_die(HINT, "%s: unknown option '%s'", c->what, typed);
	sb_usage_die(HINT, "%s: unknown option, or its value missing", typed);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]), .dash_dash_unknown = 1,
	.usage_error = cli_error, .unknown = unknown, .missing = unknown,
};
static const struct sb_cli keys_cli = {
	.opts = keys_table, .nopts = 1, .what = "keys", .dash_dash_unknown = 1,
	.usage_error = cli_error, .unknown = unknown, .missing = unknown,
};

/* the options and KEY=VALUE words from argv[from] on */
static void parse(int argc, char **argv, int from, struct args *a)
{
	memset(a, 0, sizeof(*a));
	a->kv = calloc((size_t)argc, sizeof(*a->kv));
	if (!a->kv)
		sb_die(SB_EXIT_ENV, "out of memory");
	a->nkv = (size_t)sb_cli_scan(&cli, argc - from, argv + from, a, a->kv);
}

static void put_args(struct sb_meta *m, const struct args *a, int allow_status)
{
	char err[512];

	if (a->use_stdin)
		put_stdin(m, allow_status);
	for (size_t i = 0; i < a->nkv; i++)
		check(sb_meta_put(m, a->kv[i], allow_status, err, sizeof(err)), err);
}

static void load(struct sb_meta *m, const char *dir)
{
	char path[PATH_MAX], err[PATH_MAX + 256];

	check(sb_meta_new(m), "out of memory");
	snprintf(path, sizeof(path), "%s/meta", dir);
	check(sb_meta_load(m, path, err, sizeof(err)), err);
}

static int cmd_create(const char *parent, const char *label, const struct args *a)
{
	struct sb_meta m;
	char id[NAME_MAX + 1], err[PATH_MAX + 256], *end;
	time_t at = time(NULL);

	if (a->at) {
		errno = 0;
		at = (time_t)strtoll(a->at, &end, 10);
		if (!*a->at || *end || errno)
			sb_usage_die(HINT, "--at: '%s' is not seconds since the epoch", a->at);
	}
	check(sb_meta_new(&m), "out of memory");
	put_args(&m, a, 0);
	check(sb_rundir_create(parent, label, at, &m, id, sizeof(id), err, sizeof(err)), err);
	printf("%s\n", id);
	sb_meta_free(&m);
	return SB_EXIT_OK;
}

static int cmd_set(const char *dir, const struct args *a)
{
	struct sb_meta m;
	char err[PATH_MAX + 256];

	if (a->nkv == 0 && !a->use_stdin)
		sb_usage_die(HINT, "set: no KEY=VALUE");
	load(&m, dir);
	put_args(&m, a, 0);
	check(sb_meta_store(&m, dir, 0, err, sizeof(err)), err);
	sb_meta_free(&m);
	return SB_EXIT_OK;
}

/* one of the status keys: KEY=VALUE, an empty value for NULL */
static void put_status(struct sb_meta *m, const char *key, const char *value)
{
	char *kv, err[512];

	if (asprintf(&kv, "%s=%s", key, value ? value : "") < 0)
		sb_die(SB_EXIT_ENV, "out of memory");
	check(sb_meta_put(m, kv, 1, err, sizeof(err)), err);
	free(kv);
}

/* 1 when status is one of the comma-separated list */
static int listed(const char *list, const char *status)
{
	size_t n = strlen(status);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, status, n) == 0)
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

static int cmd_status(const char *dir, const char *status, const struct args *a)
{
	struct sb_meta m;
	char err[PATH_MAX + 256];
	int s = sb_meta_key_index("status", 6);
	const char *now;

	if (!sb_rundir_status_valid(status))
		sb_usage_die(HINT, "status '%s': not running, complete, failed or interrupted", status);
	load(&m, dir);
	now = m.val[s] ? m.val[s] : "";
	if (a->only_if && !listed(a->only_if, now)) {
		sb_meta_free(&m);
		return SB_EXIT_OK;
	}
	put_args(&m, a, 0);
	put_status(&m, "status", status);
	put_status(&m, "error", a->error);
	put_status(&m, "failed_mode", a->mode);
	put_status(&m, "failed_tasks", a->tasks);
	check(sb_meta_store(&m, dir, strcmp(status, "running") != 0, err, sizeof(err)), err);
	sb_meta_free(&m);
	return SB_EXIT_OK;
}

static int cmd_adopt(const char *dir, const char *file, const struct args *a)
{
	struct sb_meta m;
	char err[PATH_MAX + 256];

	check(sb_meta_new(&m), "out of memory");
	check(sb_meta_load(&m, file, err, sizeof(err)), err);
	put_args(&m, a, 0);
	check(sb_meta_store(&m, dir, 0, err, sizeof(err)), err);
	sb_meta_free(&m);
	return SB_EXIT_OK;
}

static int cmd_get(const char *dir, const char *key)
{
	struct sb_meta m;
	int i = sb_meta_key_index(key, strlen(key));

	if (i < 0)
		sb_usage_die(HINT, "%s: not a meta key", key);
	load(&m, dir);
	if (!m.val[i]) {
		sb_meta_free(&m);
		return EXIT_ABSENT;
	}
	printf("%s\n", m.val[i]);
	sb_meta_free(&m);
	return SB_EXIT_OK;
}

static int cmd_keys(int markdown)
{
	size_t n;
	const struct sb_meta_key *k = sb_meta_keys(&n);

	if (markdown) {
		sb_meta_keys_markdown(stdout);
		return SB_EXIT_OK;
	}
	for (size_t i = 0; i < n; i++)
		printf("%s\t%s\n", k[i].key, k[i].setter);
	return SB_EXIT_OK;
}

static int finish(int rc)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		sb_die(SB_EXIT_ENV, "cannot write standard output: %s", strerror(errno));
	return rc;
}

int main(int argc, char **argv)
{
	struct args a;
	const char *cmd = argc > 1 ? argv[1] : "";
	int rc;

	sb_msg_prog(PROG);
	if (sb_cli_alone(argc, argv, "-h") || sb_cli_alone(argc, argv, "--help")) {
		fputs(usage_text, stdout);
		sb_cli_list(&cli, stdout);
		sb_cli_list(&keys_cli, stdout);
		fputs(usage_tail, stdout);
		return finish(SB_EXIT_OK);
	}
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("%s (scalebench) %s git %s\n", PROG, SB_VERSION, SB_GIT_REVISION);
		return finish(SB_EXIT_OK);
	}
	if (strcmp(cmd, "keys") == 0 && argc <= 3) {
		int markdown = 0;

		if (sb_cli_scan(&keys_cli, argc - 2, argv + 2, &markdown, NULL) > 0)
			unknown(&keys_cli, argv[2], 0);
		return finish(cmd_keys(markdown));
	}
	if (strcmp(cmd, "facts") == 0 && argc == 3) {
		char *end;
		long pid = strtol(argv[2], &end, 10);

		if (!*argv[2] || *end || pid <= 0)
			sb_usage_die(HINT, "facts: '%s' is not a process id", argv[2]);
		if (sb_rundir_facts(pid, stdout) != 0)
			sb_die(SB_EXIT_ENV, "facts: uname failed");
		return finish(SB_EXIT_OK);
	}
	if (strcmp(cmd, "get") == 0 && argc == 4)
		return finish(cmd_get(argv[2], argv[3]));
	if (strcmp(cmd, "latest") == 0 && argc == 4) {
		char err[PATH_MAX + 256];

		check(sb_rundir_latest(argv[2], argv[3], err, sizeof(err)), err);
		return finish(SB_EXIT_OK);
	}
	if (argc < 4)
		sb_usage_die(HINT, "expected create, latest, set, status, adopt, get or keys with their arguments");
	parse(argc, argv, strcmp(cmd, "set") == 0 ? 3 : 4, &a);
	if (strcmp(cmd, "set") == 0)
		rc = cmd_set(argv[2], &a);
	else if (strcmp(cmd, "create") == 0)
		rc = cmd_create(argv[2], argv[3], &a);
	else if (strcmp(cmd, "status") == 0)
		rc = cmd_status(argv[2], argv[3], &a);
	else if (strcmp(cmd, "adopt") == 0)
		rc = cmd_adopt(argv[2], argv[3], &a);
	else
		sb_usage_die(HINT, "%s: unknown command (create, latest, set, status, adopt, get, keys)", cmd);
	free(a.kv);
	return finish(rc);
}
