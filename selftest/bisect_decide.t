#!/bin/bash
# bisect_decide.t: sb-bisect's decisions (analysis/bisect/decide.c) on fixed inputs: the ends' gap against what they detect, the sequential test's verdicts, the cap, bad input.
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
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror ${SB_SAN:+-fsanitize=$SB_SAN} -I. -Ianalysis $(printf -- "-I%s " analysis/*/) -o "$tmp/t" "$tmp/t.c" "$B/libsbanalysis.a" -lm \
	2>"$tmp/cc.log" || { echo "Bail out! cc failed: $(head -n 5 "$tmp/cc.log" | tr '\n' ' ')"; exit 1; }
plan 11
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
exit "$_failed"
