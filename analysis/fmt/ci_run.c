/* A run directory for the kernel CI exports: the one loader's run, its curves, meta's failure keys and a stable key. */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci_run.h"
#include "exit.h"

unsigned long long sb_ci_hash(unsigned long long h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int sb_ci_plain(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

static int take_meta(void *ctx, const char *key, const char *value)
{
	struct sb_ci_run *c = ctx;

	if (strcmp(key, "failed_mode") == 0)
		snprintf(c->failed_mode, sizeof(c->failed_mode), "%s", value);
	else if (strcmp(key, "failed_tasks") == 0)
		c->failed_tasks = strtol(value, NULL, 10);
	else if (strcmp(key, "error") == 0)
		snprintf(c->error, sizeof(c->error), "%s", value);
	else if (strcmp(key, "git_revision") == 0)
		snprintf(c->git_revision, sizeof(c->git_revision), "%s", value);
	else if (strcmp(key, "commit") == 0)
		snprintf(c->commit, sizeof(c->commit), "%s", value);
	if (c->meta_only) {
		static const struct { const char *key; size_t at; } keys[] = {
#define K(f) { #f, offsetof(struct sb_run, f) }
			K(test), K(label), K(kernel), K(host), K(status), K(run_id), K(date),
			K(cpu_model), K(topology), K(placement), K(host_name), K(params),
			K(sweep_start), K(sweep_host), K(sweep_pid),
#undef K
		};

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(key, keys[i].key) == 0)
				*(const char **)((char *)&c->r + keys[i].at) = value;
	}
	return 0;
}

/*
 * A sweep that failed (or was interrupted) before any sample was measured
 * has no run for the loader: its meta alone, when meta says so.
 */
static int load_meta_only(const char *dir, struct sb_ci_run *c)
{
	char *meta = NULL, err[64];
	int rc = SB_EXIT_USAGE;

	for (int latest = 0; latest < 2 && rc != 0; latest++) {
		free(c->meta_text);
		c->meta_text = NULL;
		memset(&c->r, 0, sizeof(c->r));
		c->meta_only = 1;
		if (asprintf(&meta, latest ? "%s/latest/meta" : "%s/meta", dir) < 0)
			return SB_EXIT_ENV;
		rc = sb_meta_read(meta, take_meta, c, &c->meta_text, err, sizeof(err));
		free(meta);
	}
	if (rc != 0 || !c->r.status || strcmp(c->r.status, "complete") == 0 || !c->r.test ||
	    !*c->r.test)
		return SB_EXIT_USAGE;
	c->r.status = sb_status_now(c->r.status, c->r.sweep_host, c->r.sweep_pid, c->r.sweep_start);
	return 0;
}

/* The kernel's machine: the last word of meta's kernel (uname -srvm), [a-z0-9_] only. */
static void arch_of(const char *kernel, char *arch, size_t len)
{
	const char *w = kernel ? strrchr(kernel, ' ') : NULL;
	size_t n = 0;

	w = w ? w + 1 : "";
	for (; *w && n + 1 < len; w++)
		arch[n++] = isalnum((unsigned char)*w) ? (char)tolower((unsigned char)*w) : '_';
	arch[n] = '\0';
}

int sb_ci_load(const char *dir, struct sb_ci_run *c, char *err, size_t errlen)
{
	char *meta = NULL, *text = NULL;
	unsigned long long h = SB_CI_HASH0;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = sb_run_load(dir, &c->r, err, errlen);
	if (rc == SB_EXIT_USAGE) {
		sb_run_free(&c->r);
		if (load_meta_only(dir, c) == 0)
			goto loaded;
		c->meta_only = 0;
		memset(&c->r, 0, sizeof(c->r));
	}
	if (rc != 0)
		return rc;
	if (asprintf(&meta, "%s/meta", c->r.dir) < 0) {
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	rc = sb_meta_read(meta, take_meta, c, &text, err, errlen);
	free(meta);
	free(text);
	for (int m = 0; m < SB_NMODES && rc == 0; m++)
		if (sb_curve_of_run(&c->r, sb_mode_name[m], &c->cv[m]) != 0) {
			snprintf(err, errlen, "out of memory");
			rc = SB_EXIT_ENV;
		}
	if (rc != 0)
		return rc;
loaded:
	if (!c->r.run_id || !*c->r.run_id) {
		snprintf(err, errlen, "%s/meta: no run_id= line", c->r.dir);
		return SB_EXIT_USAGE;
	}
	arch_of(c->r.kernel, c->arch, sizeof(c->arch));
	if (c->r.sweep_start && *c->r.sweep_start)
		h = sb_ci_hash(h, c->r.sweep_start);
	else
		h = sb_ci_hash(sb_ci_hash(h, c->r.host), c->r.date);
	h = sb_ci_hash(sb_ci_hash(sb_ci_hash(h, "|"), c->r.test), "|");
	h = sb_ci_hash(h, c->r.run_id);
	snprintf(c->key, sizeof(c->key), "%016llx", h);
	return 0;
}

void sb_ci_free(struct sb_ci_run *c)
{
	for (int m = 0; m < SB_NMODES; m++)
		sb_curve_free(&c->cv[m]);
	if (!c->meta_only)
		sb_run_free(&c->r);
	free(c->meta_text);
}

enum sb_ci_outcome sb_ci_outcome(const struct sb_ci_run *c)
{
	const char *s = c->r.status ? c->r.status : "";

	if (strcmp(s, "complete") == 0)
		return SB_CI_DONE;
	return strcmp(s, "failed") == 0 ? SB_CI_FAILED : SB_CI_ERROR;
}

const char *sb_ci_testbed(const struct sb_ci_run *c)
{
	if (c->r.host_name && *c->r.host_name)
		return c->r.host_name;
	return c->r.host ? c->r.host : "";
}

int sb_ci_load_all(int n, char **dirs, struct sb_ci_run **runs, int *loaded, char *err, size_t errlen)
{
	int rc = 0;

	*loaded = 0;
	if ((*runs = calloc((size_t)(n > 0 ? n : 1), sizeof(**runs))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	/* a run that fails half-way is counted: sb_ci_free_all frees what it holds */
	for (; *loaded < n && rc == 0; (*loaded)++)
		rc = sb_ci_load(dirs[*loaded], &(*runs)[*loaded], err, errlen);
	return rc;
}

void sb_ci_free_all(struct sb_ci_run *runs, int loaded)
{
	for (int i = 0; runs && i < loaded; i++)
		sb_ci_free(&runs[i]);
	free(runs);
}
