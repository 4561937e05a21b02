/* compare --profile's throughput verdicts with the machine's drift between sweeps: the figure compare uses, point by point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/history.h"
#include "msg/msg.h"
#include "profile_drift.h"

struct sb_prof_drift {
	struct sb_drift base;		/* --drift's, or the default */
	struct sb_drift_lookup *hist;	/* NULL: none read */
	int across;			/* the runs crossed a boot (or one is unknown) */
	int used;
	struct sb_drift first;		/* the first point's figure */
	char note[600];			/* where it came from */
};

int sb_prof_drift_open(const struct sb_run *b, const struct sb_run *x, double drift_pct, const char *history,
		       struct sb_prof_drift **out, char *err, size_t errlen)
{
	struct sb_prof_drift *d = calloc(1, sizeof(*d));
	const struct sb_run *skip[2] = { b, x };

	*out = NULL;
	if (!d)
		return sb_fail(err, errlen, SB_EXIT_ENV, "out of memory");
	d->across = sb_run_across(b, x);
	*out = d;
	if (drift_pct >= 0) {
		sb_drift_given(drift_pct, &d->base);
		snprintf(d->note, sizeof(d->note), "--drift");
		return 0;
	}
	sb_drift_default(&d->base);
	return sb_drift_lookup_find(history, b, skip, 2, 5000, &d->hist, d->note, sizeof(d->note), err, errlen);
}

void sb_prof_drift_free(struct sb_prof_drift *d)
{
	if (!d)
		return;
	sb_drift_lookup_free(d->hist);
	free(d);
}

void sb_prof_drift_point(struct sb_prof_drift *d, const char *mode, long tasks, struct sb_drift *out)
{
	sb_drift_lookup_point(d->hist, mode, tasks, d->across, &d->base, out);
	if (!d->used++)
		d->first = *out;
}

void sb_prof_drift_note(const struct sb_prof_drift *d, char *buf, size_t len)
{
	char w[1200];

	if ((d->used ? &d->first : &d->base)->src == SB_DRIFT_NONE) {
		snprintf(buf, len, "the throughput verdicts take the runs inside each sweep as the independent "
			 "values (--drift 0): the drift between the two sweeps is in no interval.");
		return;
	}
	sb_drift_words(d->used ? &d->first : &d->base, w, sizeof(w));
	snprintf(buf, len, "the throughput verdicts take a sweep a side; %s (%s, %s), in every interval; %s.", w,
		 d->used > 1 ? "the first point's" : "the point's", d->across ? "across boots" : "one boot", d->note);
}
