#!/bin/bash
# bisect_decide.t: sb-bisect's decisions (analysis/bisect/decide.c, decide_drift.c) on fixed inputs: the ends' gap against what they detect, the sequential test's verdicts, the cap, bad input; with the drift between sweeps: the ends' gap, whether a step can decide, the step's sweeps moderating a learned drift.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s BUILD="$B" "$B/libsbanalysis.a" >"$tmp/make.log" 2>&1 ||
	{ echo "Bail out! make failed: $(tail -n 3 "$tmp/make.log" | tr '\n' ' ')"; exit 1; }
cat >"$tmp/t.c" <<'EOF_C'
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "bisect/decide.h"

static void side(const char *name, const double *v, size_t n, struct sb_side *s)
{
	if (sb_side_of(v, n, s) < 0) { printf("%s: refused\n", name); exit(1); }
}

int main(void)
{
	const double g[] = { 100, 101, 99, 100, 100.5, 99.5 }, b[] = { 90, 91, 89, 90, 90.5, 89.5 };
	const double close[] = { 100.2, 99.2, 101.1, 99.8, 100.6, 99.4 };
	const double atgood[] = { 100.3, 99.6, 100.1 }, atbad[] = { 90.2, 89.9 }, mid[] = { 95, 95.1, 94.9, 95, 95, 95.1, 94.9, 95, 95, 95, 95, 95 };
	const double one[] = { 90 };
	struct sb_side G, B, C;
	struct sb_gap gap;
	struct sb_step s;
	struct sb_rule r = SB_RULE_DEFAULT, bad_rule = SB_RULE_DEFAULT;

	side("good", g, 6, &G); side("bad", b, 6, &B); side("close", close, 6, &C);
	sb_gap_check(&G, &B, &gap);
	printf("gap %.2f differ %d detectable_below %d\n", gap.change_pct, gap.differ, gap.detectable_pct < 2);
	sb_gap_check(&G, &C, &gap);
	printf("aa differ %d\n", gap.differ);
	printf("gap one run %d\n", sb_gap_check(&G, &(struct sb_side){ 1, 90, 0 }, &gap));
	sb_decide(&G, &B, &r, atgood, 1, &s);
	printf("one run: %s\n", sb_verdict_name[s.v]);
	sb_decide(&G, &B, &r, atgood, 3, &s);
	printf("at good: %s pos<0.1 %d\n", sb_verdict_name[s.v], fabs(s.position) < 0.1);
	sb_decide(&G, &B, &r, atbad, 2, &s);
	printf("at bad: %s\n", sb_verdict_name[s.v]);
	sb_decide(&G, &B, &r, mid, 6, &s);
	printf("middle, 6 runs: %s\n", sb_verdict_name[s.v]);
	sb_decide(&G, &B, &r, mid, 12, &s);
	printf("middle, 12 runs of cap 24: %s\n", sb_verdict_name[s.v]);
	r.max_runs = 12;
	sb_decide(&G, &B, &r, mid, 12, &s);
	printf("middle at the cap: %s\n", sb_verdict_name[s.v]);
	sb_decide(&B, &G, &r, atgood, 3, &s);
	printf("ends swapped (a gain): %s\n", sb_verdict_name[s.v]);
	bad_rule.alpha = 0.7;
	printf("bad rule %d, equal ends %d, one-run end %d\n", sb_decide(&G, &B, &bad_rule, one, 1, &s),
	       sb_decide(&G, &G, &r, one, 1, &s), sb_decide(&G, &(struct sb_side){ 1, 90, 0 }, &r, one, 1, &s));
	return 0;
}
EOF_C
# the rule on sweeps with the drift (decide_drift.c): ends of 3 sweeps of 10 runs (2% sd a run)
cat >"$tmp/d.c" <<'EOF_C'
#include <math.h>
#include <stdio.h>
#include "bisect/decide_drift.h"

/* k sweeps of n runs (log variance 4e-4) at level m + off[i] */
static void mk(struct sb_drift_sweep *s, double m, const double *off, size_t k, size_t n)
{
	for (size_t i = 0; i < k; i++)
		s[i] = (struct sb_drift_sweep){ m + off[i], 4e-4, n, NULL };
}

int main(void)
{
	const double o3[] = { 0.006, -0.004, -0.002 }, wide[] = { 0.03, -0.03, 0 };
	const double flat[12] = { 0 }, apart[12] = { .03, -.03, .03, -.03, .03, -.03, .03, -.03, .03, -.03, .03, -.03 };
	struct sb_drift_sweep g[3], b[3], x[12];
	struct sb_drift_side G = { g, 3 }, B = { b, 3 }, X = { x, 12 };
	struct sb_drift d, h;
	struct sb_drift_est quiet = { 0, 6, 6, 7, 0, 0 };	/* a history of 7 sweeps that showed no drift */
	struct sb_rule r = SB_RULE_DEFAULT;
	struct sb_gap gap;
	struct sb_step s1, s2;

	sb_drift_default(&d);
	r.max_runs = 64;
	/* a clear 2.8% gap (p < 0.01), yet below the 3.1% the ends detect with 80% power */
	mk(g, 0, o3, 3, 10); mk(b, log(0.972), o3, 3, 10);
	sb_gap_check_drift(&G, &B, &d, &gap);
	printf("clear gap: differ %d p<0.01 %d below detectable %d decidable %d\n", gap.differ, gap.p < 0.01,
	       fabs(gap.change_pct) < gap.detectable_pct, sb_ends_decidable(&G, &B, &d, &r, 2));
	/* ends whose own sweeps spread +/-3%: a step cannot decide, however its sweeps fall */
	mk(g, 0, wide, 3, 10); mk(b, log(0.95), wide, 3, 10);
	printf("wide ends: decidable %d\n", sb_ends_decidable(&G, &B, &d, &r, 2));
	/* one sweep an end: the default's 2% alone */
	G.k = B.k = 1;
	mk(g, 0, flat, 1, 10); mk(b, log(0.9), flat, 1, 10);
	printf("one sweep an end: -10%% decidable %d", sb_ends_decidable(&G, &B, &d, &r, 2));
	mk(b, log(0.95), flat, 1, 10);
	printf(", -5%% decidable %d\n", sb_ends_decidable(&G, &B, &d, &r, 2));
	/* a drift learned from a quiet history: the step's own sweeps, 3% apart, still move it */
	sb_drift_moderate(&d, &quiet, "a quiet history", &h);
	G.k = B.k = 3;
	mk(g, 0, o3, 3, 10); mk(b, log(0.95), o3, 3, 10);
	mk(x, log(0.975), flat, 12, 2);
	sb_decide_drift(&G, &B, &h, &r, &X, &s1);
	mk(x, log(0.975), apart, 12, 2);
	sb_decide_drift(&G, &B, &h, &r, &X, &s2);
	printf("step spread moves a learned drift: %d\n", s2.sd > s1.sd * 1.2);
	/* a step at the bad end's level, 8 sweeps of 2 runs: bad */
	mk(x, log(0.95), o3, 3, 2); mk(x + 3, log(0.95), o3, 3, 2); mk(x + 6, log(0.95), o3, 2, 2);
	X.k = 8;
	sb_decide_drift(&G, &B, &d, &r, &X, &s1);
	printf("at the bad level: %s\n", sb_verdict_name[s1.v]);
	/* earlier steps: a commit of 2 sweeps, one of 3, one of 1 (no spread of its own) */
	{
		const double a[] = { 0, 0.02 }, b3[] = { -0.05, -0.03, -0.04 };
		struct sb_drift_sweep sa[2], sb[3], sc[1];
		struct sb_drift_side st[3] = { { sa, 2 }, { sb, 3 }, { sc, 1 } };
		struct sb_drift_est e;

		for (size_t i = 0; i < 3; i++)
			sb[i] = (struct sb_drift_sweep){ b3[i], 1e-4, 2, NULL };
		for (size_t i = 0; i < 2; i++)
			sa[i] = (struct sb_drift_sweep){ a[i], 1e-4, 2, NULL };
		sc[0] = sa[0];
		int rc = sb_bisect_drift_est(st, 3, &e);

		printf("steps: %d %.3g on %g df, %zu sweeps", rc, e.tau2, e.df, e.sweeps);
		printf("; one sweep a step %d\n", sb_bisect_drift_est(st + 2, 1, &e));
	}
	return 0;
}
EOF_C
for p in t d; do
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror ${SB_SAN:+-fsanitize=$SB_SAN} -I. -Ianalysis $(printf -- "-I%s " analysis/*/) -o "$tmp/$p" "$tmp/$p.c" "$B/libsbanalysis.a" -lm \
		2>"$tmp/cc.log" || { echo "Bail out! cc failed: $(head -n 5 "$tmp/cc.log" | tr '\n' ' ')"; exit 1; }
done
plan 17
run "$tmp/t"
mapfile -t L <<<"$out"
is "${L[0]}" "gap -10.00 differ 1 detectable_below 1" "a 10% gap at 0.7% sd: the ends differ, and detect less than 2%"
is "${L[1]}" "aa differ 0" "two ends at one level: no difference (the bisect is refused)"
is "${L[2]}" "gap one run -1" "an end of one run cannot be checked"
is "${L[3]}" "one run: more runs" "no verdict before min_runs (2)"
is "${L[4]}" "at good: good pos<0.1 1" "runs at the good level: good, position about 0"
is "${L[5]}" "at bad: bad" "runs at the bad level: bad after 2"
is "${L[6]}" "middle, 6 runs: more runs" "runs halfway between: more runs"
is "${L[7]}" "middle, 12 runs of cap 24: more runs" "below the cap: still more runs"
is "${L[8]}" "middle at the cap: cannot tell" "at the cap: cannot tell (git bisect skip)"
is "${L[9]}" "ends swapped (a gain): bad" "a gain bisects too: the bad end is whichever the bisect calls bad"
is "${L[10]}" "bad rule -1, equal ends -1, one-run end -1" "an unusable rule or ends are refused"
run "$tmp/d"
mapfile -t L <<<"$out"
is "${L[0]}" "clear gap: differ 1 p<0.01 1 below detectable 1 decidable 1" \
	"drift: a clear gap below the detectable change still differs (the guard is whether a step can decide)"
is "${L[1]}" "wide ends: decidable 0" \
	"drift: ends whose sweeps spread are refused (a step's sweeps not yet measured never shrink the drift)"
is "${L[2]}" "one sweep an end: -10% decidable 1, -5% decidable 0" \
	"drift: one sweep an end at the default 2%: a step can decide -10%, not -5%"
is "${L[3]}" "step spread moves a learned drift: 1" \
	"drift: a figure learned on a few sweeps is moderated by the step's own (its weight, not its t's df)"
is "${L[4]}" "at the bad level: bad" "drift: a step at the bad end's level is bad"
is "${L[5]}" "steps: 0 8.33e-05 on 3 df, 5 sweeps; one sweep a step -1" \
	"drift: earlier steps' sweeps about their commit's mean, less the runs' share ((4e-4 - 1e-4 * 1.5) / 3)"
exit "$_failed"
