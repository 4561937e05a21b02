/* The kernel CI exports' model: the one loader's run, its curves and run means, meta's failure keys (from the run model), its outcome, testbed and stable keys. */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci_run.h"
#include "msg/exit.h"

/* A 64-bit FNV-1a hash of s, continuing from h (start with HASH0). */
#define HASH0 0xcbf29ce484222325ULL
static unsigned long long hash(unsigned long long h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Whether s is a name of only [A-Za-z0-9_-] (a KCIDB path segment, a LAVA or SQUAD name part). */
static int plain(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

/* meta's failure keys and revisions, from the run model */
static void take_meta(struct sb_ci_run *c)
{
	const char *const *m = c->r.meta;

	if (m[SB_META_failed_mode])
		snprintf(c->failed_mode, sizeof(c->failed_mode), "%s", m[SB_META_failed_mode]);
	if (m[SB_META_failed_tasks])
		c->failed_tasks = strtol(m[SB_META_failed_tasks], NULL, 10);
	if (m[SB_META_error])
		snprintf(c->error, sizeof(c->error), "%s", m[SB_META_error]);
	if (m[SB_META_git_revision])
		snprintf(c->git_revision, sizeof(c->git_revision), "%s", m[SB_META_git_revision]);
	if (m[SB_META_commit])
		snprintf(c->commit, sizeof(c->commit), "%s", m[SB_META_commit]);
}

/*
 * A sweep that failed (or was interrupted) before any sample was measured
 * has no run for the loader: its meta alone, when meta says so. Of the run's
 * fields only these are set, NULL where meta lacks the key.
 */
static int load_meta_only(const char *dir, struct sb_ci_run *c)
{
	static const struct { enum sb_meta_id key; size_t at; } keys[] = {
#define K(f) { SB_META_##f, offsetof(struct sb_run, f) }
		K(test), K(label), K(kernel), K(host), K(status), K(run_id), K(date),
		K(cpu_model), K(topology), K(placement), K(host_name), K(params),
		K(sweep_start), K(sweep_host), K(sweep_pid),
#undef K
	};
	struct sb_run r = { 0 };
	char *path = NULL, err[64];
	int rc = SB_EXIT_USAGE;

	c->meta_only = 1;
	for (int latest = 0; latest < 2 && rc != 0; latest++) {
		sb_run_free(&r);
		if (asprintf(&path, latest ? "%s/latest" : "%s", dir) < 0)
			return SB_EXIT_ENV;
		rc = sb_run_meta(path, &r, err, sizeof(err));
		free(path);
	}
	memset(&c->r, 0, sizeof(c->r));
	memcpy(c->r.meta, r.meta, sizeof(r.meta));
	c->r.meta_text = r.meta_text, c->r.meta_lines = r.meta_lines, c->r.nmeta_lines = r.nmeta_lines;
	c->r.meta_cap = r.meta_cap;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		*(const char **)((char *)&c->r + keys[i].at) = r.meta[keys[i].key];
	free(r.dir);
	free(r.name);
	free(r.arg);
	take_meta(c);
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

/* The run means of each curve point (SQUAD's metrics), from the loaded point. 0, or 3 out of memory. */
static int take_means(struct sb_ci_run *c)
{
	for (int m = 0; m < SB_NMODES; m++) {
		if (c->cv[m].n == 0)
			continue;
		if ((c->means[m] = calloc(c->cv[m].n, sizeof(*c->means[m]))) == NULL)
			return SB_EXIT_ENV;
		for (size_t i = 0; i < c->cv[m].n; i++)
			if (c->cv[m].pt[i].p != NULL)
				c->means[m][i].v = sb_point_run_means(c->cv[m].pt[i].p, &c->means[m][i].n);
	}
	return 0;
}

/* The run's curves, then its run means. 0, or 3 with err. */
static int take_curves(struct sb_ci_run *c, char *err, size_t errlen)
{
	int rc = 0;

	for (int m = 0; m < SB_NMODES && rc == 0; m++)
		if (sb_curve_of_run(&c->r, sb_mode_name[m], &c->cv[m]) != 0)
			rc = SB_EXIT_ENV;
	if (rc == 0)
		rc = take_means(c);
	if (rc != 0)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* complete: DONE; failed: FAILED; interrupted, abandoned, running: ERROR. */
static enum sb_ci_outcome outcome_of(const struct sb_run *r)
{
	const char *s = r->status ? r->status : "";

	if (strcmp(s, "complete") == 0)
		return SB_CI_DONE;
	return strcmp(s, "failed") == 0 ? SB_CI_FAILED : SB_CI_ERROR;
}

/* The machine the run measured: a VM run's host_name, else host ("" when unknown). */
static const char *testbed_of(const struct sb_run *r)
{
	if (r->host_name && *r->host_name)
		return r->host_name;
	return r->host ? r->host : "";
}

/* What the printers need besides the run: keys, outcome, testbed, which names are plain. */
static void take_keys(struct sb_ci_run *c, const char *commit)
{
	unsigned long long h = HASH0;

	arch_of(c->r.kernel, c->arch, sizeof(c->arch));
	if (c->r.sweep_start && *c->r.sweep_start)
		h = hash(h, c->r.sweep_start);
	else
		h = hash(hash(h, c->r.host), c->r.date);
	h = hash(hash(hash(h, "|"), c->r.test), "|");
	h = hash(h, c->r.run_id);
	snprintf(c->key, sizeof(c->key), "%016llx", h);
	h = hash(hash(hash(HASH0, c->r.kernel), "|"), commit ? commit : c->commit);
	snprintf(c->build_key, sizeof(c->build_key), "%016llx", h);
	c->outcome = outcome_of(&c->r);
	c->testbed = testbed_of(&c->r);
	c->test_plain = c->r.test && plain(c->r.test);
	c->failed_plain = plain(c->failed_mode) && c->failed_tasks > 0;
}

/* Load dir (a run directory, or a test directory's latest) into c. Returns 0; 2 or 3 with a message in err. */
static int load(const char *dir, const char *commit, struct sb_ci_run *c, char *err, size_t errlen)
{
	int rc;

	memset(c, 0, sizeof(*c));
	rc = sb_run_load(dir, &c->r, err, errlen);
	if (rc == SB_EXIT_USAGE) {
		sb_run_free(&c->r);
		if (load_meta_only(dir, c) == 0)
			goto loaded;
		c->meta_only = 0;
		sb_run_free(&c->r);
	}
	if (rc != 0)
		return rc;
	take_meta(c);
	if ((rc = take_curves(c, err, errlen)) != 0)
		return rc;
loaded:
	if (!c->r.run_id || !*c->r.run_id) {
		snprintf(err, errlen, "%s/meta: no run_id= line", c->r.dir);
		return SB_EXIT_USAGE;
	}
	take_keys(c, commit);
	return 0;
}

static void free_run(struct sb_ci_run *c)
{
	for (int m = 0; m < SB_NMODES; m++) {
		sb_curve_free(&c->cv[m]);
		free(c->means[m]);
	}
	sb_run_free(&c->r);
}

int sb_ci_load_all(int n, char **dirs, const char *commit, struct sb_ci_runs *all, char *err,
		   size_t errlen)
{
	unsigned long long h = HASH0;
	int rc = 0;

	memset(all, 0, sizeof(*all));
	if ((all->run = calloc((size_t)(n > 0 ? n : 1), sizeof(*all->run))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return SB_EXIT_ENV;
	}
	/* a run that fails half-way is counted: sb_ci_free_all frees what it holds */
	for (; all->n < n && rc == 0; all->n++)
		rc = load(dirs[all->n], commit, &all->run[all->n], err, errlen);
	for (int i = 0; i < all->n; i++)
		h = hash(hash(h, all->run[i].key), "|");
	snprintf(all->job_id, sizeof(all->job_id), "scalebench-%016llx", h);
	return rc;
}

void sb_ci_free_all(struct sb_ci_runs *all)
{
	for (int i = 0; all->run && i < all->n; i++)
		free_run(&all->run[i]);
	free(all->run);
	all->run = NULL;
	all->n = 0;
}
