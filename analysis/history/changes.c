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

/* Shaped like a date (it starts YYYY-): then it must be a whole, real one. */
static int date_shaped(const char *s)
{
	return isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
	       isdigit((unsigned char)s[3]) && s[4] == '-';
}

static int kernel_is(const struct sb_hist_sweep *s, const char *k)
{
	size_t n = strlen(k);

	return strcmp(s->column, k) == 0 || strcmp(s->label, k) == 0 || strcmp(s->release, k) == 0 ||
	       (n >= 7 && *s->commit && strncasecmp(s->commit, k, n) == 0);
}

/*
 * The first place in the order --since names: a kernel's first sweep, or the
 * first sweep on or after a date. Returns 0, or 2 for a kernel no sweep has,
 * a date that is no calendar date (2026-02-30: a typo must not turn the gate
 * off) or one after the newest sweep (the gate would judge nothing).
 */
static int since_place(const struct sb_hist *h, const char *since, size_t *ord, char *err,
		       size_t errlen)
{
	const char *newest = "";
	int kernel = 0;

	*ord = 0;
	if (since == NULL)
		return 0;
	*ord = (size_t)-1;
	for (size_t i = 0; i < h->nsw; i++)
		kernel |= kernel_is(&h->sw[i], since);
	if (!kernel && date_shaped(since) && sb_hist_date(since) != 1)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: not a calendar date (YYYY-MM-DD)", since);
	for (size_t i = 0; i < h->nsw; i++) {
		const struct sb_hist_sweep *s = &h->sw[i];
		int hit = kernel ? kernel_is(s, since) : strncmp(s->date, since, 10) >= 0;

		if (strcmp(s->date, newest) > 0)
			newest = s->date;
		if (hit && s->ord < *ord)
			*ord = s->ord;
	}
	if (*ord != (size_t)-1)
		return 0;
	if (!kernel && date_shaped(since))
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: after the newest sweep of the selection (%.10s): "
			       "the gate would judge nothing", since, newest);
	return sb_fail(err, errlen, SB_EXIT_USAGE, "--since %s: no sweep of that kernel (label, release or commit) "
		       "in the selection", since);
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

/* A JSON record's opening: its series' testcase, params and testbed (after a comma unless first). */
static void json_series_head(FILE *out, const struct sb_hist_sweep *s, int more)
{
	fputs(more ? ",\n  {\"test\": " : "\n  {\"test\": ", out);
	sb_json_str(out, s->test);
	fputs(", \"params\": ", out);
	sb_json_str(out, s->params);
	fputs(", \"testbed\": ", out);
	sb_json_str(out, s->tb_name);
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

		json_series_head(out, s, i > 0);
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
	fputs(nf ? "\n]" : "]", out);
}

/* A point of a sweep whose run measured no progress (a mean not above 0): a failed measurement. */
static int point_failed(const struct sb_hist *h, const struct sb_hist_point *p)
{
	for (size_t k = 0; k < p->n; k++)
		if (!(h->obs[p->off + k] > 0) || !isfinite(h->obs[p->off + k]))
			return 1;
	return 0;
}

/*
 * The failed points (added with --partial), each said: not a value to leave
 * out of the series, a measurement that failed. Those at or after --since
 * gate as a regression does. Returns how many gate.
 */
static size_t print_failed(FILE *out, const struct sb_hist *h, size_t since, enum sb_hist_format fmt)
{
	size_t gate = 0, n = 0;
	char pt[64];

	for (size_t i = 0; i < h->nsw; i++) {
		const struct sb_hist_sweep *s = &h->sw[i];

		for (size_t j = 0; j < s->npts; j++) {
			if (!point_failed(h, &s->pts[j]))
				continue;
			gate += s->ord >= since;
			sb_hist_point_name(h, s->pts[j].mode, s->pts[j].tasks, pt, sizeof(pt));
			if (fmt == SB_FMT_JSON) {
				json_series_head(out, s, n++ > 0);
				fputs(", \"point\": ", out);
				sb_json_str(out, pt);
				fputs(", \"at\": ", out);
				sb_json_str(out, s->column);
				fputs(", \"at_date\": ", out);
				sb_json_str(out, s->date);
				fputs(", \"at_run_id\": ", out);
				sb_json_str(out, s->run_id);
				fprintf(out, ", \"gates\": %s}", s->ord >= since ? "true" : "false");
			} else if (out != NULL) {
				fprintf(out, "%s%s%s%s %s on %s: FAILED at %s (%.10s): a run measured no progress (0 ops/s)%s\n",
					fmt == SB_FMT_MARKDOWN ? "- " : "", s->test, *s->params ? " [" : "", s->params,
					pt, s->tb_name, s->column, s->date, s->ord >= since ? "" : " (before --since)");
			}
		}
	}
	if (fmt == SB_FMT_JSON && n > 0)
		fputs("\n", out);
	return gate;
}

/* The series given to the method, and what it found, tied back to sweeps. */
/* [lo, hi] as JSON, or null */
static void json_range(FILE *out, const double *r)
{
	if (!isfinite(r[0])) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	sb_json_num(out, r[0]);
	fputs(", ", out);
	sb_json_num(out, r[1]);
	fputc(']', out);
}

/* "Detectable from one kernel to the next ...": what the history lets each series show. */
static void print_detectable(FILE *out, const double *r, int md)
{
	const char *pm = md ? "±" : "+/-";

	if (!isfinite(r[0]) && !isfinite(r[2]))
		return;
	fprintf(out, "%sDetectable from one kernel to the next (one sweep each, the drift between sweeps in it; "
		"5%%, 80%% power):", md ? "\n" : "");
	if (isfinite(r[0]))
		fprintf(out, " %s%.1f%% to %s%.1f%% at a point", pm, r[0], pm, r[1]);
	if (isfinite(r[2]))
		fprintf(out, "%s %s%.1f%% to %s%.1f%% over a curve", isfinite(r[0]) ? "," : "", pm, r[2], pm, r[3]);
	fputs("\n", out);
}

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
		return sb_fail(err, errlen, rc, rc == SB_EXIT_ENV ? "out of memory" :
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

/* Some series can hold a change: two segments of min_seg sweeps, and 3 sweeps at least. */
static int long_enough(const struct sb_hist_series *se, size_t ns, size_t min_seg)
{
	for (size_t i = 0; i < ns; i++)
		if (se[i].n >= 2 * min_seg && se[i].n >= 3)
			return 1;
	return 0;
}

int sb_hist_changes(FILE *out, const struct sb_hist *h, const struct sb_changes_opts *o,
		    char *err, size_t errlen)
{
	struct sb_hist_series *se;
	struct sb_cp_change *cp = NULL;
	struct found *f = NULL;
	size_t ns, nf = 0, since, nreg = 0, nfail = 0;
	double det[4];
	int rc;

	if (h->nsw == 0)
		return sb_fail(err, errlen, SB_EXIT_USAGE, "no sweep of the selection in the history");
	if ((rc = since_place(h, o->since, &since, err, errlen)) != 0)
		return rc;
	if (sb_hist_series(h, &se, &ns) != 0)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	if (o->min_seg_given && !long_enough(se, ns, o->cp.min_seg)) {
		sb_hist_series_free(se, ns);
		return sb_fail(err, errlen, SB_EXIT_USAGE, "--min-segment %zu: no series of the selection has the %zu "
			       "sweeps two segments need: the gate would judge nothing", o->cp.min_seg, 2 * o->cp.min_seg);
	}
	rc = detect(h, se, ns, o, since, &f, &nf, &cp, err, errlen);
	if (rc == 0 && sb_hist_detectable_range(h, se, ns, det) != 0)
		rc = sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	for (size_t i = 0; rc == 0 && i < nf; i++)
		nreg += (size_t)f[i].counts;
	if (rc == 0 && o->format == SB_FMT_JSON) {
		print_json(out, h, f, nf, o, ns, nreg);
		fputs(", \"detectable_pct\": {\"points\": ", out);
		json_range(out, det);
		fputs(", \"curves\": ", out);
		json_range(out, det + 2);
		fputs("}, \"failed\": [", out);
		nfail = print_failed(out, h, since, SB_FMT_JSON);
		fputs("]}\n", out);
	} else if (rc == 0) {
		int md = o->format == SB_FMT_MARKDOWN;

		fprintf(out, "%s%zu series over %zu sweeps in %zu group%s (testcase x params x testbed); false "
			"alarms held at %g%% over all of them%s\n%s", md ? "" : "", ns, h->nsw, h->ngroups,
			h->ngroups == 1 ? "" : "s", 100 * o->cp.alpha, nf ? ":" : ": no change point",
			md && nf ? "\n" : "");
		print_text(out, h, f, nf, md);
		nfail = print_failed(out, h, since, o->format);
		print_detectable(out, det, md);
		fprintf(out, "%sVerdict: %s: %zu regression%s%s%s still hold%s at the newest kernel", md ? "\n" : "",
			nreg ? "REGRESSION" : nfail ? "FAILED" : "no regression", nreg, nreg == 1 ? "" : "s",
			o->since ? " at or after " : "", o->since ? o->since : "", nreg == 1 ? "s" : "");
		if (nfail)
			fprintf(out, "; %zu failed point%s%s%s", nfail, nfail == 1 ? "" : "s",
				o->since ? " at or after " : "", o->since ? o->since : "");
		fputs("\n", out);
	}
	free(f);
	free(cp);
	sb_hist_series_free(se, ns);
	return rc != 0 ? rc : nreg > 0 || nfail > 0;
}
