#!/usr/bin/env bash
# compare's gate over the whole comparison (issue 24) on run directories with known run means: which procedure calls what changed, the exit code, --threshold.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mkrun DIR SPEC: a complete run whose point (mode, tasks) has the run means SPEC prints for it,
# one sample a run. SPEC is an awk body given mode m (0 processes, 1 threads) and tasks t that
# prints the space-separated run means.
mkrun() {
	mkdir -p "$1"
	printf 'test=gate\nlabel=%s\nrun_id=%s-20261204T000000\nstatus=complete\nhost=box\nkernel=k\nmodes=processes,threads\nrepeat=3\n' \
		"$(basename "$1")" "$(basename "$1")" >"$1/meta"
	awk -v n="$3" 'function emit(m, t, s,  k, v, i) {
			k = split(s, v, " ")
			for (i = 1; i <= k; i++)
				printf "%s,%d,%d,measure,1,1.000000,%s,%s,,,,\n", m ? "threads" : "processes", t, i, v[i], v[i]
		}
		BEGIN {
			print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct"
			for (m = 0; m < 2; m++) for (t = 1; t <= n; t++) emit(m, t, '"$2"')
		}' >"$1/samples.csv"
}

# gates DIR_A DIR_B ARGS...: the exit codes of --gate curves, holm, bh and point, "c h b p"
gates() {
	local a=$1 b=$2 g rc out=
	shift 2
	for g in curves holm bh point; do
		rc=0
		./compare.sh --drift 0 --gate "$g" "$@" "$a" "$b" >/dev/null 2>&1 || rc=$?
		out+="$rc "
	done
	printf '%s' "${out% }"
}

# 1. 16 points, runs m - 10, m, m + 10 (m = 1000): new has processes at 4 tasks 3% slower. Alone it
# is significant (t = 30 / (10 sqrt(2/3)) = 3.67, df 4, p = 0.021 < 0.05): the old gate fails.
# In a family of 16 points and 2 curves it is not (0.021 > 0.05 / 2 / 16), and the curve's change,
# -0.38%, is far inside its spread (the runs line up across points: run k's curve is m + 10(k-2)).
mkrun "$tmp/base16" '"990 1000 1010"' 8
mkrun "$tmp/one16" '(m == 0 && t == 4) ? "960 970 980" : "990 1000 1010"' 8
is "$(gates "$tmp/base16" "$tmp/one16")" "0 0 0 1" "one point at p 0.021 among 16: only the per-point gate fails"
run ./compare.sh --drift 0 "$tmp/base16" "$tmp/one16"
like "$out" '^ +4  processes +1000 +970 +-3\.00% .*  -  slower$' "its row: slower by its own interval, not changed by the gate"
like "$out" 'Verdict: no regression: 0 of 16 points .*weighted Holm over 16 points and 2 curves' "the verdict names the procedure and the family"
like "$out" 'Detectable .*: \+/-[0-9.]+%( to \+/-[0-9.]+%)? at a point, \+/-[0-9.]+%( to \+/-[0-9.]+%)? over a whole curve' "and what it could have detected"
run ./compare.sh --drift 0 --point processes:4 "$tmp/base16" "$tmp/one16"
is "$rc" 0 "--point: the point is judged by the gate of the whole comparison"
like "$out" '^Verdict: no regression: 0 of 1 point .*weighted Holm over 16 points and 2 curves' "and says so"
run ./compare.sh --drift 0 --gate point --point processes:4 "$tmp/base16" "$tmp/one16"
is "$rc" 1 "--point with --gate point: the point alone fails"

# 2. Every processes point 1.5% slower, its runs in alternating order (990 1000 1010, then 1010 1000
# 990): each point alone is no difference (t = 15 / 8.16 = 1.84, p = 0.14), but the curve's runs
# average out the order: its change is certain. Only the curve gate sees it.
mkrun "$tmp/alt" '(t % 2) ? "990 1000 1010" : "1010 1000 990"' 8
mkrun "$tmp/alt15" 'm == 1 ? ((t % 2) ? "990 1000 1010" : "1010 1000 990") : ((t % 2) ? "975.15 985 994.85" : "994.85 985 975.15")' 8
is "$(gates "$tmp/alt" "$tmp/alt15")" "1 0 0 0" "a broad -1.5%: the curve finds it, no point does"
run ./compare.sh --drift 0 "$tmp/alt" "$tmp/alt15"
like "$out" '^Verdict: REGRESSION: 0 of 16 points significantly slower by 0% or more; 1 of 2 curves slower .*: alt15 processes curve -1\.50% \(' "the verdict names the curve"
like "$out" '^  processes +8 +3/3 +-1\.50% .* changed  slower$' "the curves table: processes -1.50%, changed"
run ./compare.sh --drift 0 --threshold 2 "$tmp/alt" "$tmp/alt15"
is "$rc" 0 "--threshold 2: a curve 1.5% slower is not a regression"
like "$out" 'changed  slower, under threshold' "and is shown under the threshold"
run ./compare.sh --drift 0 --threshold 1.5 "$tmp/alt" "$tmp/alt15"
is "$rc" 1 "--threshold 1.5: it is"
run ./compare.sh --drift 0 --fail-on change "$tmp/alt15" "$tmp/alt"
is "$rc" 1 "--fail-on change: the curve faster by 1.52% fails"
run ./compare.sh --drift 0 "$tmp/alt15" "$tmp/alt"
is "$rc" 0 "faster is no regression"
run ./compare.sh --drift 0 --format csv "$tmp/alt" "$tmp/alt15"
like "$(printf '%s\n' "$out" | sed -n 2p)" ',processes,1,.*,same,0\.1[0-9]+,0,[0-9.]+,-1\.500000,1$' "csv: p-value, gate 0, detectable, the curve's change and gate"

# 3. 4 points, each 3% slower (p = 0.021 each): Holm adjusts 0.021 x 4 = 0.085 and calls none;
# Benjamini-Hochberg's step-up rejects all four (p(4) = 0.021 <= 4 x 0.05 / 4); the curves (aligned
# runs: p = 0.020 each, > 0.05 / 4) and the points (> 0.05 / 8) are not enough for the curve gate.
mkrun "$tmp/base4" '"990 1000 1010"' 2
mkrun "$tmp/all4" '"960 970 980"' 2
is "$(gates "$tmp/base4" "$tmp/all4")" "0 0 1 1" "four points at p 0.021: BH and the per-point gate fail, Holm does not"
run ./compare.sh --drift 0 --gate bh "$tmp/base4" "$tmp/all4"
like "$out" 'false discovery rate 5% over the whole comparison: Benjamini-Hochberg over 4 points' "BH says what it controls"
[ "$(printf '%s\n' "$out" | grep -Ec '^ +[12]  .* changed  slower$')" -eq 4 ]
ok $? "and marks all four changed"
run ./compare.sh --drift 0 --gate point "$tmp/base4" "$tmp/all4"
like "$out" '95% confidence at each point alone, no control over the whole comparison' "the per-point gate says it has no control"
run ./compare.sh --drift 0 -c 99 --gate bh "$tmp/base4" "$tmp/all4"
is "$rc" 0 "at 99% BH calls none (0.021 > 0.01)"
run ./compare.sh --drift 0 --gate wrong "$tmp/base4" "$tmp/all4"
is "$rc" 2 "--gate with an unknown procedure: usage error"

# 4. Several new runs are one family: the same 3% point against base twice is 32 points.
run ./compare.sh --drift 0 --gate point "$tmp/base16" "$tmp/one16" "$tmp/one16"
is "$rc" 1 "two new runs, per-point gate: exit 1"
run ./compare.sh --drift 0 "$tmp/base16" "$tmp/one16" "$tmp/one16"
like "$out" 'weighted Holm over 32 points and 4 curves' "two new runs: one family of 32 points and 4 curves"
plan "$_n"
exit "$_failed"
