/* sb-history: the history of sweeps in SQLite: add, rebuild, list, show (the N-way table), changes (change points, a CI gate). */
#define _GNU_SOURCE	/* asprintf */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "cli.h"
#include "history/history.h"
#include "fmt/otava.h"
#include "msg/exit.h"
#include "msg/msg.h"
#include "stat/stats.h"
#include "io/number.h"
#include "rundir/rundir.h"

#define ERRLEN 1024

static const char usage_head[] =
	"usage: sb-history add [--partial] RUNDIR...     sweeps into the history (again: no change)\n"
	"       sb-history rebuild [--results DIR] [--partial]   the history anew from the run directories\n"
	"       sb-history list [TESTCASE...]             the sweeps, in order\n"
	"       sb-history show TESTCASE [--by testbed [--kernel K]] [--format F]\n"
	"                                                 the N-way table: one column per kernel\n"
	"       sb-history changes [TESTCASE...] [--since KERNEL|DATE] [--format F]\n"
	"                                                 change points over every series; a CI gate\n"
	"       sb-history drift [TESTCASE...] [--target PCT]\n"
	"                                                 the runs' noise and the machine's drift\n"
	"                                                 between sweeps, and what buys precision\n"
	"       sb-history drift --advise META            that advice alone, in two lines, for the\n"
	"                                                 testcase, params, testbed and shape META\n"
	"                                                 (meta's keys) names; nothing when unknown\n"
	"       sb-history export TESTCASE --format otava [--points all] [--testbed HOST]\n"
	"                                                 the history as Apache Otava's CSV: time,\n"
	"                                                 commit, kernel, testbed, each mode's curve\n"
	"                                                 and peak (--points all: every point too;\n"
	"                                                 Otava tests each column on its own)\n"
	"       sb-history migrate                        the database to this version's schema\n"
	"\n";
static const char usage_tail[] =
	"\n"
	"Exit: 0 done (changes: no regression at or after --since that still holds at the\n"
	"newest kernel), 1 changes found one (or a point that failed: 0 ops/s), 2 usage,\n"
	"input or database error (or a database refused: a link, another user's), 3\n"
	"environment error (full disk, I/O, memory), 130 interrupted.\n";

struct opts {
	const char *db, *results, *commits, *testbed, *since, *kernel, *advise;
	int partial, by_testbed, timeout_ms, any_params, all_points, min_seg_given;
	double timeout_s;
	int order;		/* enum sb_hist_order */
	int column;		/* enum sb_hist_column */
	const char *format;	/* a name of show's or changes' table (history.h), or otava (export) */
	double alpha;
	long min_seg;
	struct sb_drift_report_opts drift;
	double drift_pct;	/* show --drift; < 0: learned */
	char **pos;
	int npos;
};

static __attribute__((noreturn)) void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "sb-history: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\ntry 'sb-history --help'\n");
	exit(SB_EXIT_USAGE);
}

static void set_min_segment(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	struct opts *o = opts;
	double d;

	(void)value;
	if (strspn(v, "0123456789") != strlen(v) || strlen(v) > 4)
		usage_error("--min-segment: '%s' is not a whole number of sweeps (1 to 1000)", v);
	if (sb_decimal(v, &d) != 0 || !(d >= row->dlo && d <= row->dhi)) {
		fprintf(stderr, "sb-history: %s: '%s' is not a number from %g to %g\ntry 'sb-history --help'\n",
			"--min-segment", v, row->dlo, row->dhi);
		exit(SB_EXIT_USAGE);
	}
	o->min_seg = (long)d;
	o->min_seg_given = 1;
}

/* --format F: a name of show's or changes' table, or otava (export's); each command checks its own. */
static void set_format(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	(void)row;
	(void)value;
	if (!sb_hist_format_in(sb_show_format, v) && !sb_hist_format_in(sb_changes_format, v) && strcmp(v, "otava") != 0)
		usage_error("--format: unknown value '%s'", v);
	((struct opts *)opts)->format = v;
}

/* --format's help, from the tables (history/formats.c) */
static char format_help[256];

static const struct sb_cli_choice orders[] = {
	{ "time", SB_ORDER_TIME }, { "version", SB_ORDER_VERSION }, { "commits", SB_ORDER_COMMITS }, { NULL, 0 },
};
static const struct sb_cli_choice columns[] = { { "label", SB_COL_LABEL }, { "kernel", SB_COL_KERNEL }, { NULL, 0 } };
static const struct sb_cli_choice testbed[] = { { "testbed", 1 }, { NULL, 0 } };
static const struct sb_cli_choice all[] = { { "all", 1 }, { NULL, 0 } };

#define AT(f) offsetof(struct opts, f)
#define FLAG(n, f, h)		{ .name = n, .kind = SB_CLI_FLAG, .field = AT(f), .help = h }
#define TEXT(n, a, f, h)	{ .name = n, .arg = a, .kind = SB_CLI_STRING, .field = AT(f), .help = h }
#define NUMBER(n, a, f, lo, hi, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_DECIMAL, .field = AT(f), .dlo = lo, .dhi = hi, .help = h }
#define CHOICE(n, a, f, c, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_CHOICE, .field = AT(f), .choices = c, \
	  .bad = "--" n ": unknown value '%s'", .help = h }
#define ONLY(n, a, f, c, b, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_CHOICE, .field = AT(f), .choices = c, .bad = b, .help = h }

/* In --help's order. An option: a row here, a field in struct opts, its consumer. */
static const struct sb_cli_opt table[] = {
	TEXT("db", "FILE", db, "the history (default $SB_HISTORY, else results/history.db)"),
	NUMBER("timeout", "S", timeout_s, 0, 86400, "seconds to wait for another writer's lock (default 60)"),
	CHOICE("order", "O", order, orders,
	       "time (default: the sweeps' start), version (kernel version:\n"
	       "6.9 < 6.10-rc1 < 6.10 < 6.10.1), or commits FILE (a commit a\n"
	       "line, oldest first, e.g. git rev-list --reverse A..B; sweeps\n"
	       "whose commit is not in FILE are left out, with a note)"),
	CHOICE("column", "C", column, columns,
	       "label (default: one column per label, which defaults to the\n"
	       "kernel release) or kernel (release and commit)"),
	TEXT("testbed", "HOST", testbed, "only that machine's sweeps (its host, or a VM's host_name)"),
	FLAG("any-params", any_params,
	     "one series across the testcase's params (an experiment that\n"
	     "changes a param on purpose); by default params split series"),
	{ .name = "format", .arg = "F", .kind = SB_CLI_CALL, .set = set_format, .help = format_help },
	FLAG("partial", partial, "add, rebuild: take interrupted sweeps too"),
	TEXT("results", "DIR", results, "rebuild: the results directory (default: the history's)"),
	ONLY("by", "testbed", by_testbed, testbed, "--by: only 'testbed'",
	     "show: one column per testbed (--kernel K: that kernel's)"),
	TEXT("kernel", "K", kernel, "show --by testbed: the kernel whose testbeds are compared"),
	TEXT("since", "KERNEL|DATE", since, "changes: gate only on changes at or after it"),
	ONLY("points", "all", all_points, all, "--points: only 'all' (export)", "export: every point too"),
	NUMBER("alpha", "A", alpha, 1e-9, 0.5, "changes: the false-alarm rate over all series (default 0.05)"),
	{ .name = "min-segment", .arg = "N", .kind = SB_CLI_CALL, .set = set_min_segment, .dlo = 1, .dhi = 1000,
	  .help = "changes: the fewest sweeps between changes (default 2)" },
	NUMBER("drift", "PCT", drift_pct, 0, 100,
	       "show: the drift between sweeps, a sweep's offset sd in %\n"
	       "(0: none, the runs alone); default: learned from the history"),
	NUMBER("target", "PCT", drift.target, 0.01, 100, "drift: the change to plan sweeps for (default 2)"),
	NUMBER("run-cost", "S", drift.run_cost, 1e-3, 1e6, "drift: seconds a run (default 1.35)"),
	NUMBER("sweep-cost", "S", drift.sweep_cost, 0, 1e6, "drift: seconds a sweep's own overhead (default 1.2)"),
	NUMBER("reboot-cost", "S", drift.reboot_cost, 0, 1e6, "drift: seconds a reboot (default 90)"),
	TEXT("advise", "META", advise, "drift: only the advice for META's testcase, params, testbed\n"
	     "and shape, in two lines (runtest.sh --dry-run's)"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_HELP, .help = "this text" },
	{ .name = "version", .kind = SB_CLI_DOC, .help = "sb-history's version (as the only argument)" },
};

static const struct sb_cli cli;

static void finish_output(void);

static __attribute__((noreturn)) void help(void)
{
	fputs(usage_head, stdout);
	sb_cli_list(&cli, stdout);
	fputs(usage_tail, stdout);
	finish_output();	/* onto a full disk: exit 3, not 0 */
	exit(SB_EXIT_OK);
}

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	usage_error("%s", msg);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]),
	.decimal = sb_decimal, .bad_decimal = "%s: '%s' is not a number from %g to %g",
	.usage_error = cli_error, .help = help,
};

static void parse(int argc, char **argv, struct opts *o)
{
	const char *env = getenv("SB_HISTORY");
	struct sb_cli_scan s;
	enum sb_cli_step st;

	*o = (struct opts){ .timeout_s = 60, .alpha = 0.05, .min_seg = 2,
			    .drift = { .run_cost = 1.35, .sweep_cost = 1.2, .reboot_cost = 90, .target = 2 },
			    .drift_pct = -1, .format = "text" };
	o->pos = calloc((size_t)argc + 1, sizeof(*o->pos));
	if (o->pos == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	sb_cli_scan_init(&s, argc, argv);
	while ((st = sb_cli_next(&cli, &s, o)) != SB_CLI_END) {
		if (st == SB_CLI_OPERAND)
			o->pos[o->npos++] = (char *)s.word;
		/* --order commits FILE: the one option with a second word */
		if (st == SB_CLI_OPTION && s.o->field == AT(order) && o->order == SB_ORDER_COMMITS) {
			if (s.i >= argc)
				usage_error("%s", "--order commits needs a FILE (a commit a line, oldest first)");
			o->commits = argv[s.i++];
		}
	}
	o->timeout_ms = (int)(1000 * o->timeout_s);
	if (o->db == NULL)
		o->db = env && *env ? env : "results/history.db";
	if (*o->db == '\0')
		usage_error("%s", "--db: empty file name");
}

static void finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		sb_die(SB_EXIT_ENV, "cannot write the output: %s", strerror(errno));
}

/* A run directory's message on stderr: a name from a shared results directory may hold anything,
 * so control characters go out as \xNN (as list and show print stored texts). */
static void say_escaped(const char *msg)
{
	fputs("sb-history: ", stderr);
	for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			fprintf(stderr, "\\x%02x", *c);
		else
			fputc(*c, stderr);
	fputc('\n', stderr);
}

/* --format on a command with one output (list's TSV, add's line): text only, not silently text. */
static void text_only(const struct opts *o)
{
	if (strcmp(o->format, "text") != 0)
		usage_error("%s: --format text only", o->pos[0]);
}

static void add_line(const char *db, const size_t cnt[SB_ADD_NWHAT])
{
	printf("%s: %zu added, %zu already there, %zu replaced (status changed), %zu not complete or failed, "
	       "%zu unreadable, %zu refused (another sweep under its key)\n", db, cnt[SB_ADD_NEW], cnt[SB_ADD_SAME],
	       cnt[SB_ADD_REPLACED], cnt[SB_ADD_REFUSED], cnt[SB_ADD_BAD], cnt[SB_ADD_TAKEN]);
}

/*
 * Add dirs[0..n-1] in one write transaction -> cnt[SB_ADD_*]. Each run
 * directory not added is said on stderr (quiet: only the unreadable ones).
 * line: add's line on stdout is written (and flushed) before the commit, so
 * that output that cannot be written commits nothing. Returns 0; 2 when one
 * was not added or the database failed; 3.
 */
static int add_dirs(struct sqlite3 *db, char **dirs, size_t n, int partial, int quiet,
		    const char *line, size_t cnt[SB_ADD_NWHAT], char *err, size_t errlen)
{
	struct sb_hist_ins *ins = NULL;
	int rc = sb_hist_exec(db, "BEGIN IMMEDIATE", err, errlen);

	if (rc == 0)
		rc = sb_hist_ins_new(db, &ins, err, errlen);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		int what;
		char msg[ERRLEN];

		rc = sb_hist_add(ins, dirs[i], partial, &what, msg, sizeof(msg));
		if (rc != 0) {
			snprintf(err, errlen, "%s", msg);
			break;
		}
		if (what == SB_ADD_BAD || what == SB_ADD_TAKEN || (what == SB_ADD_REFUSED && !quiet))
			say_escaped(msg);
		cnt[what]++;
	}
	sb_hist_ins_free(ins);
	if (rc == 0 && line != NULL) {
		add_line(line, cnt);
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = sb_fail(err, errlen, SB_EXIT_ENV, "cannot write the output (%s): nothing added",
				     strerror(errno));
	}
	if (rc == 0)
		rc = sb_hist_exec(db, "COMMIT", err, errlen);
	if (rc != 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return cnt[SB_ADD_BAD] || cnt[SB_ADD_TAKEN] || (!quiet && cnt[SB_ADD_REFUSED]) ? SB_EXIT_USAGE : 0;
}

static int cmd_add(struct opts *o, char *err, size_t errlen)
{
	struct sqlite3 *db;
	size_t cnt[SB_ADD_NWHAT] = { 0 };
	int rc;

	if (o->npos < 2)
		usage_error("%s", "add: no run directory given");
	text_only(o);
	if ((rc = sb_hist_open(o->db, SB_HIST_WRITE, o->timeout_ms, &db, err, errlen)) != 0)
		return rc;
	*err = '\0';
	rc = add_dirs(db, o->pos + 1, (size_t)o->npos - 1, o->partial, 0, o->db, cnt, err, errlen);
	sb_hist_close(db);
	if (rc == SB_EXIT_USAGE && *err == '\0')
		snprintf(err, errlen, "%zu of %d run directories not added",
			 cnt[SB_ADD_REFUSED] + cnt[SB_ADD_BAD] + cnt[SB_ADD_TAKEN], o->npos - 1);
	return rc;
}

/* The run directories under results: DIR/<test>/<run-id>/meta (not the latest links), sorted. */
static int run_dirs(const char *results, char ***out, size_t *n, char *err, size_t errlen)
{
	struct dirent **tests;
	int nt = scandir(results, &tests, NULL, alphasort);

	*out = NULL;
	*n = 0;
	if (nt < 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--results %s: %s", results, strerror(errno));
	for (int i = 0; i < nt; i++) {
		struct dirent **runs;
		char *td = NULL;
		int nr = tests[i]->d_name[0] == '.' || asprintf(&td, "%s/%s", results, tests[i]->d_name) < 0 ? -1 :
			 scandir(td, &runs, NULL, alphasort);

		for (int j = 0; j < nr; j++) {
			char *rd = NULL, *meta = NULL;
			struct stat st;

			if (runs[j]->d_name[0] != '.' && asprintf(&rd, "%s/%s", td, runs[j]->d_name) >= 0 &&
			    lstat(rd, &st) == 0 && S_ISDIR(st.st_mode) && asprintf(&meta, "%s/meta", rd) >= 0 &&
			    access(meta, F_OK) == 0) {
				char **nv = realloc(*out, (*n + 1) * sizeof(*nv));

				if (nv != NULL) {
					*out = nv;
					(*out)[(*n)++] = rd;
					rd = NULL;
				}
			}
			free(rd);
			free(meta);
			free(runs[j]);
		}
		if (nr >= 0)
			free(runs);
		free(td);
		free(tests[i]);
	}
	free(tests);
	return 0;
}

/* rebuild's new file and its journal, removed when a signal ends the process mid-rebuild */
static char rebuild_tmp[4200], rebuild_journal[4208];

static void rebuild_signal(int sig)
{
	(void)sig;
	unlink(rebuild_journal);
	unlink(rebuild_tmp);
	_exit(SB_EXIT_INTERRUPTED);
}

/*
 * DB.rebuild.XXXXXX beside the database: a new empty file, O_EXCL under a
 * random name (a name known in advance could be planted), with the mode a
 * created file gets; removed on a catchable terminating signal.
 */
static int rebuild_file(const char *dbpath, char *err, size_t errlen)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGPIPE,
				    SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF };
	struct sigaction sa = { .sa_handler = rebuild_signal };
	sigset_t all, old;
	mode_t um = umask(022);
	int fd, e;

	umask(um);
	if ((size_t)snprintf(rebuild_tmp, sizeof(rebuild_tmp), "%s.rebuild.XXXXXX", dbpath) >= sizeof(rebuild_tmp))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: name too long", dbpath);
	/* no signal between the file's making and its handler's knowing the name */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = mkostemp(rebuild_tmp, O_CLOEXEC);
	e = errno;
	if (fd >= 0) {
		snprintf(rebuild_journal, sizeof(rebuild_journal), "%s-journal", rebuild_tmp);
		sigfillset(&sa.sa_mask);
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		*rebuild_tmp = '\0';
		return sb_fail(err, errlen, e == ENOSPC || e == EMFILE || e == ENFILE || e == EIO ? SB_EXIT_ENV :
			       SB_EXIT_USAGE, "cannot make a new file beside %s: %s", dbpath, strerror(e));
	}
	fchmod(fd, 0666 & ~um);
	close(fd);
	sb_msg_remove_on_die(rebuild_tmp);
	return 0;
}

/* The history anew from the run directories alone: written beside, then renamed over the old one. */
static int cmd_rebuild(struct opts *o, char *err, size_t errlen)
{
	char **dirs = NULL, *slash = strrchr(o->db, '/'), *base = NULL;
	size_t n = 0, cnt[SB_ADD_NWHAT] = { 0 };
	struct sqlite3 *db = NULL;
	int rc;

	if (o->npos > 1)
		usage_error("rebuild: unexpected argument '%s'", o->pos[1]);
	text_only(o);
	if (o->results == NULL) {	/* the database's directory */
		base = slash ? strndup(o->db, (size_t)(slash - o->db)) : strdup(".");
		if (base == NULL)
			return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	}
	rc = run_dirs(o->results ? o->results : base, &dirs, &n, err, errlen);
	if (rc == 0)
		rc = rebuild_file(o->db, err, errlen);
	if (rc == 0)
		rc = sb_hist_open(rebuild_tmp, SB_HIST_CREATE, o->timeout_ms, &db, err, errlen);
	if (rc == 0)
		rc = add_dirs(db, dirs, n, o->partial, 1, NULL, cnt, err, errlen);
	sb_hist_close(db);
	if (rc == SB_EXIT_USAGE && *err == '\0')
		rc = 0;		/* unreadable run directories were said, and left out */
	if (rc == 0 && rename(rebuild_tmp, o->db) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "cannot replace %s: %s", o->db, strerror(errno));
	if (rc == 0) {
		*rebuild_tmp = *rebuild_journal = '\0';	/* it is the history now */
		sb_msg_remove_on_die(NULL);
		add_line(o->db, cnt);
	}
	else if (*rebuild_tmp) {
		unlink(rebuild_journal);
		unlink(rebuild_tmp);
	}
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	free(base);
	return rc;
}

/* The selection (positional testcases) loaded and put in order. Returns 0, 2 or 3. */
static int load(struct opts *o, char **tests, size_t ntests, struct sb_hist *h, char *err,
		size_t errlen)
{
	struct sqlite3 *db;
	size_t dropped;
	int rc = sb_hist_open(o->db, SB_HIST_READ, o->timeout_ms, &db, err, errlen);

	if (rc != 0)
		return rc;
	rc = sb_hist_load(db, tests, ntests, o->testbed, h, err, errlen);
	sb_hist_close(db);
	if (rc == 0)
		rc = sb_hist_order(h, o->order, o->commits, o->column, o->any_params, &dropped, err, errlen);
	if (rc == 0 && dropped > 0)
		fprintf(stderr, "sb-history: note: %zu sweep%s left out: %s commit is not in %s\n", dropped,
			dropped == 1 ? "" : "s", dropped == 1 ? "its" : "their", o->commits);
	if (rc != 0)
		sb_hist_free(h);
	return rc;
}

static int cmd_list(struct opts *o, char *err, size_t errlen)
{
	struct sb_hist h;
	int rc;

	text_only(o);
	if ((rc = load(o, o->pos + 1, (size_t)o->npos - 1, &h, err, errlen)) != 0)
		return rc;
	/* a testcase named and not there is a typo more often than a question: said, as show says it */
	for (int k = 1; k < o->npos; k++) {
		size_t i = 0;

		while (i < h.nsw && strcmp(h.sw[i].test, o->pos[k]) != 0)
			i++;
		if (i == h.nsw) {
			sb_hist_free(&h);
			return sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no sweep of it in %s", o->pos[k], o->db);
		}
	}
	printf("test\trun_id\tcolumn\trelease\tcommit\tdate\ttestbed\tstatus\tpoints\truns\tparams\n");
	for (size_t i = 0; i < h.nsw; i++) {
		const struct sb_hist_sweep *s = &h.sw[i];
		size_t runs = 0;

		for (size_t j = 0; j < s->npts; j++)
			runs += s->pts[j].n;
		printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%zu\t%zu\t%s\n", s->test, s->run_id, s->column,
		       s->release, *s->commit ? s->commit : "-", s->date, s->tb_name, s->status, s->npts,
		       runs, s->params);
	}
	sb_hist_free(&h);
	return 0;
}

static int cmd_show(struct opts *o, char *err, size_t errlen)
{
	struct sb_show_opts so = { o->format, o->by_testbed, o->kernel, o->drift_pct };
	char words[128];
	struct sb_hist h;
	int rc;

	if (o->npos != 2)
		usage_error("%s", "show: give one TESTCASE");
	if (o->kernel && !o->by_testbed)
		usage_error("%s", "--kernel goes with --by testbed");
	if (strcmp(o->format, "otava") == 0)
		usage_error("%s", "--format otava goes with export");
	if (!sb_hist_format_in(sb_show_format, o->format)) {
		sb_hist_format_words(sb_show_format, words, sizeof(words));
		usage_error("show: --format %s", words);
	}
	if ((rc = load(o, o->pos + 1, 1, &h, err, errlen)) != 0)
		return rc;
	if (h.nsw == 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no sweep of it in %s", o->pos[1], o->db);
	else
		rc = sb_hist_show(stdout, &h, &so, err, errlen);
	sb_hist_free(&h);
	return rc;
}

static int cmd_changes(struct opts *o, char *err, size_t errlen)
{
	struct sb_changes_opts co = { o->format, o->since, { o->alpha, (size_t)o->min_seg }, o->min_seg_given };
	char words[128];
	struct sb_hist h;
	int rc;

	if (!sb_hist_format_in(sb_changes_format, o->format)) {
		sb_hist_format_words(sb_changes_format, words, sizeof(words));
		usage_error("changes: --format %s", words);
	}
	if ((rc = load(o, o->pos + 1, (size_t)o->npos - 1, &h, err, errlen)) != 0)
		return rc;
	rc = sb_hist_changes(stdout, &h, &co, err, errlen);
	sb_hist_free(&h);
	return rc;
}

/* export TESTCASE --format otava: one testbed's series as Otava's CSV (analysis/fmt/otava.c). */
static int cmd_export(struct opts *o, char *err, size_t errlen)
{
	struct sb_hist h;
	int rc;

	if (o->npos != 2)
		usage_error("%s", "export: give one TESTCASE");
	if (strcmp(o->format, "otava") != 0)
		usage_error("%s", "export: --format otava (the one export format)");
	if ((rc = load(o, o->pos + 1, 1, &h, err, errlen)) != 0)
		return rc;
	if (h.nsw == 0)
		rc = sb_fail(err, errlen, SB_EXIT_USAGE, "%s: no sweep of it in %s", o->pos[1], o->db);
	else
		rc = sb_otava_write(stdout, &h, o->all_points, err, errlen);
	sb_hist_free(&h);
	return rc;
}

/* META's keys that name a testcase, its params, a testbed and a sweep shape, into a run's fields. */
static int advise_key(void *ctx, const char *key, const char *val)
{
	struct sb_run *r = ctx;
	const struct {
		const char *key;
		const char **val;
	} keys[] = {
		{ "test", &r->test }, { "params", &r->params }, { "host", &r->host }, { "cpu_model", &r->cpu_model },
		{ "topology", &r->topology }, { "hwloc_version", &r->hwloc_version }, { "placement", &r->placement },
		{ "host_name", &r->host_name }, { "host_cpu", &r->host_cpu }, { "host_topology", &r->host_topology },
		{ "duration", &r->duration }, { "warmup", &r->warmup }, { "period_ms", &r->period_ms },
	};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strcmp(key, keys[k].key) == 0)
			*keys[k].val = val;
	return 0;
}

/* drift --advise META: the report's advice for META's testcase, params, testbed and shape, or nothing. */
static int drift_advise(struct opts *o, char *err, size_t errlen)
{
	struct sb_run r = { .test = "", .params = "", .host = "", .cpu_model = "", .topology = "",
			    .hwloc_version = "", .placement = "", .host_name = "", .host_cpu = "",
			    .host_topology = "", .duration = "", .warmup = "", .period_ms = "" };
	struct sb_drift_lookup *l = NULL;
	char *text = NULL;
	int rc;

	if (o->npos > 1)
		usage_error("%s", "drift --advise META: no TESTCASE (META names it)");
	if ((rc = sb_meta_read(o->advise, advise_key, &r, &text, err, errlen)) == 0 &&
	    (rc = sb_drift_lookup_open(o->db, &r, NULL, 0, o->timeout_ms, &l, err, errlen)) == 0 &&
	    sb_drift_lookup_advise(stdout, l, &o->drift) < 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	sb_drift_lookup_free(l);
	free(text);
	return rc;
}

/* drift [TESTCASE...]: the runs' noise and the drift between sweeps the history shows (history/drift_report.c). */
static int cmd_drift(struct opts *o, char *err, size_t errlen)
{
	struct sb_hist h;
	int rc;

	text_only(o);
	if (o->advise)
		return drift_advise(o, err, errlen);
	if ((rc = load(o, o->pos + 1, (size_t)o->npos - 1, &h, err, errlen)) != 0)
		return rc;
	rc = sb_hist_drift_report(stdout, &h, &o->drift, err, errlen);
	sb_hist_free(&h);
	return rc;
}

static int cmd_migrate(struct opts *o, char *err, size_t errlen)
{
	struct sqlite3 *db;
	int rc;

	text_only(o);
	rc = sb_hist_open(o->db, SB_HIST_WRITE, o->timeout_ms, &db, err, errlen);

	sb_hist_close(db);
	if (rc == 0)
		printf("%s: schema version %d\n", o->db, SB_HIST_SCHEMA);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const verbs[] = { "add", "rebuild", "list", "show", "changes", "export",
					     "drift", "migrate" };
	static int (*const run[])(struct opts *, char *, size_t) = {
		cmd_add, cmd_rebuild, cmd_list, cmd_show, cmd_changes, cmd_export, cmd_drift, cmd_migrate
	};
	struct opts o;
	char err[ERRLEN] = "";
	int rc = -1;

	sb_msg_prog("sb-history");
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("sb-history (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		finish_output();
		return 0;
	}
	sb_hist_format_help(format_help, sizeof(format_help));
	parse(argc - 1, argv + 1, &o);
	if (o.npos == 0)
		usage_error("%s", "no command given (add, rebuild, list, show, changes, export, drift or migrate)");
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(o.pos[0], verbs[i]) == 0)
			rc = run[i](&o, err, sizeof(err));
	if (rc < 0)
		usage_error("unknown command '%s'", o.pos[0]);
	free(o.pos);
	if (rc < 2)
		finish_output();	/* else the command's own error is the one line said */
	if (rc >= 2)
		sb_die(rc, "%s", err);
	return rc;
}
