/* sb-history changes: the change points of every series of a selection, found at once, and the CI gate on them. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "exit.h"
#include "history.h"
#include "msg.h"

struct found {
	const struct sb_cp_change *c;
	const struct sb_hist_series *se;
	const struct sb_hist_sweep *last, *at, *newest;	/* last: the newest sweep before it */
	int regression, counts;
};

static int is_date(const char *s)
{
	return strlen(s) >= 10 && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[3]) &&
	       s[4] == '-' && isdigit((unsigned char)s[5]) && s[7] == '-' && isdigit((unsigned char)s[8]);
}

static int kernel_is(const struct sb_hist_sweep *s, const char *k)
{
	size_t n = strlen(k);

	return strcmp(s->column, k) == 0 || strcmp(s->label, k) == 0 || strcmp(s->release, k) == 0 ||
	       (n >= 7 && *s->commit && strncasecmp(s->commit, k, n) == 0);
}

/*
 * The first place in the order --since names: a kernel's first sweep, or the
 * first sweep on or after a date (SIZE_MAX: none). Returns 0, or 2 for a
 * kernel no sweep has.
 */
static int since_place(const struct sb_hist *h, const char *since, size_t *ord, char *err,
		       size_t errlen)
{
	*ord = 0;
	if (since == NULL)
		return 0;
	*ord = (size_t)-1;
	for (size_t i = 0; i < h->nsw; i++) {
		const struct sb_hist_sweep *s = &h->sw[i];
		int hit = is_date(since) ? strncmp(s->date, since, strlen(since)) >= 0 : kernel_is(s, since);

		if (hit && s->ord < *ord)
			*ord = s->ord;
	}
	if (*ord == (size_t)-1 && !is_date(since))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: no sweep of that kernel (label, release or commit) "
			       "in the selection", since);
	return 0;
}

/* The series' name; a change across params (--any-params) names both sides' params. */
static void series_name(const struct sb_hist *h, const struct found *f, char *buf, size_t len)
{
	const struct sb_hist_sweep *s = f->last, *a = f->at;
	int two = strcmp(s->params, a->params) != 0;
	char pt[64];

	sb_hist_point_name(h, f->se->mode, f->se->tasks, pt, sizeof(pt));
	snprintf(buf, len, "%s%s%s%s%s%s %s on %s", s->test, *s->params || two ? " [" : "", s->params,
		 two ? " -> " : "", two ? a->params : "", *s->params || two ? "]" : "", pt, s->tb_name);
}

static void print_text(FILE *out, const struct sb_hist *h, const struct found *f, size_t nf, int md)
{
	char name[512];

	if (md && nf > 0)
		fputs("| series | first kernel after | change | 95% interval | p | holds at newest |\n"
		      "|---|---|---|---|---|---|\n", out);
	for (size_t i = 0; i < nf; i++) {
		const struct sb_cp_change *c = f[i].c;

		series_name(h, &f[i], name, sizeof(name));
		if (md)
			fprintf(out, "| %s | %s (%.10s) | %.1f%% %s | %+.1f%% to %+.1f%% | %.2g | %s (%s) |\n",
				name, f[i].at->column, f[i].at->date, fabs(c->pct), c->pct < 0 ? "worse" : "better",
				c->lo, c->hi, c->p, c->holds ? "yes" : "no", f[i].newest->column);
		else
			fprintf(out, "%s: from %s (%.10s): %.1f%% %s [%+.1f%%, %+.1f%%], p %.2g, %s at %s\n",
				name, f[i].at->column, f[i].at->date, fabs(c->pct),
				c->pct < 0 ? "worse" : "better", c->lo, c->hi, c->p,
				c->holds ? "still holds" : "does not hold", f[i].newest->column);
	}
}

static void print_json(FILE *out, const struct sb_hist *h, const struct found *f, size_t nf,
		       const struct sb_changes_opts *o, size_t ns, size_t nreg)
{
	fprintf(out, "{\"series\": %zu, \"sweeps\": %zu, \"alpha\": ", ns, h->nsw);
	sb_json_num(out, o->cp.alpha);
	fputs(", \"since\": ", out);
	if (o->since)
		sb_json_str(out, o->since);
	else
		fputs("null", out);
	fprintf(out, ", \"regressions\": %zu, \"changes\": [", nreg);
	for (size_t i = 0; i < nf; i++) {
		const struct sb_cp_change *c = f[i].c;
		const struct sb_hist_sweep *s = &h->sw[f[i].se->sw[0]];

		fputs(i ? ",\n  {\"test\": " : "\n  {\"test\": ", out);
		sb_json_str(out, s->test);
		fputs(", \"params\": ", out);
		sb_json_str(out, s->params);
		fputs(", \"testbed\": ", out);
		sb_json_str(out, s->tb_name);
		fputs(", \"mode\": ", out);
		sb_json_str(out, h->modes[f[i].se->mode]);
		fprintf(out, f[i].se->tasks ? ", \"tasks\": %ld" : ", \"tasks\": \"curve\"", f[i].se->tasks);
		fputs(", \"last_before\": ", out);
		sb_json_str(out, f[i].last->column);
		fputs(", \"last_before_commit\": ", out);
		sb_json_str(out, f[i].last->commit);
		fputs(", \"at\": ", out);
		sb_json_str(out, f[i].at->column);
		fputs(", \"at_commit\": ", out);
		sb_json_str(out, f[i].at->commit);
		fputs(", \"at_date\": ", out);
		sb_json_str(out, f[i].at->date);
		fputs(", \"at_run_id\": ", out);
		sb_json_str(out, f[i].at->run_id);
		fputs(", \"newest\": ", out);
		sb_json_str(out, f[i].newest->column);
		fputs(", \"before\": ", out);
		sb_json_num(out, c->before);
		fputs(", \"after\": ", out);
		sb_json_num(out, c->after);
		fputs(", \"pct\": ", out);
		sb_json_num(out, c->pct);
		fputs(", \"lo\": ", out);
		sb_json_num(out, c->lo);
		fputs(", \"hi\": ", out);
		sb_json_num(out, c->hi);
		fputs(", \"p\": ", out);
		sb_json_num(out, c->p);
		fprintf(out, ", \"holds\": %s, \"regression\": %s, \"gates\": %s}", c->holds ? "true" : "false",
			f[i].regression ? "true" : "false", f[i].counts ? "true" : "false");
	}
	fputs(nf ? "\n]}\n" : "]}\n", out);
}

/* The series given to the method, and what it found, tied back to sweeps. */
static int detect(const struct sb_hist *h, const struct sb_hist_series *se, size_t ns,
		  const struct sb_changes_opts *o, size_t since, struct found **fp, size_t *nfp,
		  struct sb_cp_change **cp, char *err, size_t errlen)
{
	struct sb_cp_series *in = calloc(ns + 1, sizeof(*in));
	size_t nc = 0;
	int rc;

	*cp = NULL;
	*fp = NULL;
	*nfp = 0;
	if (in == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < ns; i++)
		in[i] = (struct sb_cp_series){ se[i].obs, se[i].n };
	rc = sb_cp_detect(in, ns, &o->cp, cp, &nc);
	free(in);
	if (rc != 0)
		return sb_fail(err, errlen, rc, rc == 3 ? "out of memory" :
			       "the change-point method refused the series (a sweep without runs, or a value not finite)");
	if ((*fp = calloc(nc + 1, sizeof(**fp))) == NULL)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; i < nc; i++) {
		const struct sb_cp_change *c = &(*cp)[i];
		struct found *f = &(*fp)[(*nfp)++];

		if (c->series >= ns || c->at == 0 || c->at >= se[c->series].n)
			return sb_fail(err, errlen, SB_EXIT_ENV, "the change-point method gave a change outside its series");
		f->c = c;
		f->se = &se[c->series];
		f->last = &h->sw[f->se->sw[c->at - 1]];
		f->at = &h->sw[f->se->sw[c->at]];
		f->newest = &h->sw[f->se->sw[f->se->n - 1]];
		f->regression = c->pct < 0;	/* ops/s: higher is better */
		f->counts = f->regression && c->holds && f->at->ord >= since;
	}
	return 0;
}

int sb_hist_changes(FILE *out, const struct sb_hist *h, const struct sb_changes_opts *o,
		    char *err, size_t errlen)
{
	struct sb_hist_series *se;
	struct sb_cp_change *cp = NULL;
	struct found *f = NULL;
	size_t ns, nf = 0, since, nreg = 0;
	int rc;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep of the selection in the history");
	if ((rc = since_place(h, o->since, &since, err, errlen)) != 0)
		return rc;
	if (sb_hist_series(h, &se, &ns) != 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	rc = detect(h, se, ns, o, since, &f, &nf, &cp, err, errlen);
	for (size_t i = 0; rc == 0 && i < nf; i++)
		nreg += (size_t)f[i].counts;
	if (rc == 0 && o->format == SB_FMT_JSON) {
		print_json(out, h, f, nf, o, ns, nreg);
	} else if (rc == 0) {
		int md = o->format == SB_FMT_MARKDOWN;

		fprintf(out, "%s%zu series over %zu sweeps in %zu group%s (testcase x params x testbed); false "
			"alarms held at %g%% over all of them%s\n%s", md ? "" : "", ns, h->nsw, h->ngroups,
			h->ngroups == 1 ? "" : "s", 100 * o->cp.alpha, nf ? ":" : ": no change point",
			md && nf ? "\n" : "");
		print_text(out, h, f, nf, md);
		fprintf(out, "%sVerdict: %s: %zu regression%s%s%s still hold%s at the newest kernel\n",
			md ? "\n" : "", nreg ? "REGRESSION" : "no regression", nreg, nreg == 1 ? "" : "s",
			o->since ? " at or after " : "", o->since ? o->since : "", nreg == 1 ? "s" : "");
	}
	free(f);
	free(cp);
	sb_hist_series_free(se, ns);
	return rc != 0 ? rc : nreg > 0;
}
