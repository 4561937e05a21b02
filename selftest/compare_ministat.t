#!/bin/bash
# compare_ministat.t: compare.sh on files of numbers: hand-computed vectors, input errors, Debian's ministat.
set -u
cd "$(dirname "$0")/.." || exit 1

D=selftest/data/compare/ministat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# same DESCRIPTION EXPECTED ARGS...: stdout of compare.sh ARGS is EXPECTED, exit 0.
same() {
	local desc=$1 want=$2 got rc
	shift 2
	got=$(./compare.sh "$@" 2>"$tmp/err")
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "# exit $rc; stderr: $(cat "$tmp/err")"
		diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed 's/^/# /'
	fi
}

# fails DESCRIPTION CODE PATTERN ARGS...: exit CODE, stderr one line matching PATTERN, no stdout.
fails() {
	local desc=$1 code=$2 pat=$3 rc
	shift 3
	./compare.sh "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$code" ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -Eq -- "$pat" "$tmp/err"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "# exit $rc (want $code); stderr: $(cat "$tmp/err"); stdout bytes: $(wc -c <"$tmp/out")"
	fi
}

cd "$tmp" || exit 1
printf '1\n2\n3\n' >x3
printf '2\n4\n6\n' >y3
printf '6\n7\n8\n' >z3
printf '4\n1\n3\n2\n' >even4
printf '5\n5\n5\n' >five
printf '1\n1\n2\n' >stack
printf '3\n4\n5\n' >flat
printf '6\n6\n6\n' >six
printf '1e-9\n2e-9\n3e-9\n' >nano1
printf '2e-9\n4e-9\n6e-9\n' >nano2
printf -- '-1\n0\n1\n' >zero
printf '3\n4\n5\n' >x345
printf '1000000000000000\n1000000000000002\n1000000000000004\n' >big1
printf '1100000000000000\n1100000000000002\n1100000000000004\n' >big2
printf '1\n2\n3abc\n4\n' >junk
printf '1\nnan\n3\n4\n' >nan
printf '1\n2\ninf\n' >inf
printf '1\n1e999\n3\n' >huge
printf '1\n2\n' >two
: >empty
printf '# comment\n\n1\n#2\n2\n 3 # three\n' >commented
cd - >/dev/null || exit 1
T=$tmp

# x = {1, 2, 3}: mean 2, s^2 = (1 + 0 + 1) / 2 = 1.  + = {2, 4, 6}: mean 4, s^2 = (4 + 0 + 4) / 2 = 4.
# df = 4. pooled s = sqrt((2*4 + 2*1) / 4) = sqrt(2.5) = 1.58114.
# 80%: t = 1.533, e = 1.533 * sqrt(2.5) * sqrt(1/3 + 1/3) = 1.533 * 1.2909944 = 1.97909 < d = 2.
# re = 1.533 * sqrt((2*4 + 2*1 * 4^2/2^2) * 6 / (3*3*4)) = 1.533 * sqrt(8/3) = 2.5033786,
# 100 * re / 2 = 125.169 %; d / mean0 = 100 %.
same "n = 3, difference at 80%: figures by hand" "x $T/x3
+ $T/y3
    N           Min           Max        Median           Avg        Stddev
x   3             1             3             2             2             1
+   3             2             6             4             4             2
Difference at 80.0% confidence
	2 +/- 1.97909
	100% +/- 125.169%
	(Student's t, pooled s = 1.58114)" -A -c 80 "$T/x3" "$T/y3"

# 95%: t = 2.776, e = 2.776 * 1.2909944 = 3.58376 > 2.
# Plot, width 10: min 1, max 6, dx = 5/9, x0 = 1 - dx/2; column = (v - x0) / dx = (v - 0.7222) * 1.8:
# 1 -> 0.5 -> 0, 2 -> 2, 3 -> 4.1 -> 4, 4 -> 5.9 -> 5, 6 -> 9.5 -> 9. x at 0 2 4, + at 2 5 9, both
# at 2 -> '*'. Bars: x |..| from 0 to 4, A and M at 2; + | at 2 and 9 (over x's A), A and M at 5.
same "plot by hand, shared bar" "x $T/x3
+ $T/y3
+----------+
|x * x+   +|
||_|_|A___||
+----------+
    N           Min           Max        Median           Avg        Stddev
x   3             1             3             2             2             1
+   3             2             6             4             4             2
No difference proven at 95.0% confidence" -w 10 "$T/x3" "$T/y3"

same "plot by hand, -s separate bars" "x $T/x3
+ $T/y3
+----------+
|x * x+   +|
||_A_|     |
|  |__A___||
+----------+
    N           Min           Max        Median           Avg        Stddev
x   3             1             3             2             2             1
+   3             2             6             4             4             2
No difference proven at 95.0% confidence" -s -w 10 "$T/x3" "$T/y3"

# ministat's plot is as high as the last set needs: x = {1, 1, 2} stacks two 1s, but + = {3, 4, 5}
# needs one row, so the second x is not drawn. x: mean 4/3, s = sqrt(1/3); the plot spans
# [4/3 - s, 5]: min 0.75598, dx = 4.24402 / 9, x0 = min - dx / 2; 1 -> 1, 2 -> 3, 3 -> 5, 4 -> 7,
# 5 -> 9. x's bar | at 0 and 2, M and then A at 1; +'s | at 5 and 9, M and A at 7.
# pooled s = sqrt((2*1 + 2/3) / 4) = 0.816497, e = 2.776 * 0.816497 * 0.816497 = 1.85067;
# re = 2.776 * sqrt((2*1 + 2/3 * 4^2/(4/3)^2) * 6 / 36) = 2.776 * sqrt(8/6) = 3.20545,
# 100 * re / (4/3) = 240.409 %, 100 * (8/3) / (4/3) = 200 %.
same "plot height follows the last set, as in ministat" "x $T/stack
+ $T/flat
+----------+
| x x + + +|
||A|  |_A_||
+----------+
    N           Min           Max        Median           Avg        Stddev
x   3             1             2             1     1.3333333    0.57735027
+   3             3             5             4             4             1
Difference at 95.0% confidence
	2.66667 +/- 1.85067
	200% +/- 240.409%
	(Student's t, pooled s = 0.816497)" -w 10 "$T/stack" "$T/flat"

# Even n: {4, 1, 3, 2} sorted 1 2 3 4: median (2 + 3) / 2 = 2.5 (Debian's ministat says 3);
# mean 2.5; s^2 = (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3, s = 1.2909944.
same "even n: median is the mean of the two middle values" "x $T/even4
    N           Min           Max        Median           Avg        Stddev
x   4             1             4           2.5           2.5     1.2909944" -n "$T/even4"

# One set without variance: x = {5, 5, 5}, + = {1, 2, 3}. pooled s = sqrt((0 + 2*1) / 4) = 0.707107;
# e = 2.776 * 0.7071068 * 0.8164966 = 1.60272 < |d| = 3; d / mean0 = -60 %;
# re = 2.776 * sqrt(2*1 * 6 / 36) = 1.6027243, 100 * re / 5 = 32.0545 %.
same "zero variance in the baseline" "x $T/five
+ $T/x3
    N           Min           Max        Median           Avg        Stddev
x   3             5             5             5             5             0
+   3             1             3             2             2             1
Difference at 95.0% confidence
	-3 +/- 1.60272
	-60% +/- 32.0545%
	(Student's t, pooled s = 0.707107)" -A "$T/five" "$T/x3"

# Both without variance: pooled s = 0, e = 0 < d = 1: a difference of 20 % +/- 0.
# Plot: x three high at column 0, + three high at column 73, A (over | and M) on each.
same "zero variance in both sets" "x $T/five
+ $T/six
+--------------------------------------------------------------------------+
|x                                                                        +|
|x                                                                        +|
|x                                                                        +|
|A                                                                        A|
+--------------------------------------------------------------------------+
    N           Min           Max        Median           Avg        Stddev
x   3             5             5             5             5             0
+   3             6             6             6             6             0
Difference at 95.0% confidence
	1 +/- 0
	20% +/- 0%
	(Student's t, pooled s = 0)" "$T/five" "$T/six"

same "identical data sets: no plot, no difference" "x $T/five
+ $T/five
[no plot, span is zero width]
    N           Min           Max        Median           Avg        Stddev
x   3             5             5             5             5             0
+   3             5             5             5             5             0
No difference proven at 95.0% confidence" "$T/five" "$T/five"

# The x3/y3 vector scaled by 1e-9: the same relative figures.
same "values near 1e-9" "x $T/nano1
+ $T/nano2
    N           Min           Max        Median           Avg        Stddev
x   3         1e-09         3e-09         2e-09         2e-09         1e-09
+   3         2e-09         6e-09         4e-09         4e-09         2e-09
Difference at 80.0% confidence
	2e-09 +/- 1.97909e-09
	100% +/- 125.169%
	(Student's t, pooled s = 1.58114e-09)" -A -c 80 "$T/nano1" "$T/nano2"

# A first set whose mean is 0: the difference, and no percentage of it (ministat prints inf%).
same "a base mean of 0: no change in %" "x $T/zero
+ $T/x345
    N           Min           Max        Median           Avg        Stddev
x   3            -1             1             0             0             1
+   3             3             5             4             4             1
Difference at 95.0% confidence
	4 +/- 2.26659
	(no change in %: the first set's mean is 0)
	(Student's t, pooled s = 1)" -A "$T/zero" "$T/x345"

# 1e15 + {0, 2, 4}: the sums are exact, deviations -2 0 2, s = 2 (a one-pass sum of squares
# loses it all at this magnitude). d = 1e14, e = 2.776 * 2 * 0.8164966 = 4.53319;
# re = 2.776 * sqrt((2*4 + 2*4 * 1.21) * 6 / 36) = 2.776 * 1.7165858 = 4.76524, / 1e15 * 100.
same "values near 1e15" "x $T/big1
+ $T/big2
    N           Min           Max        Median           Avg        Stddev
x   3         1e+15         1e+15         1e+15         1e+15             2
+   3       1.1e+15       1.1e+15       1.1e+15       1.1e+15             2
Difference at 95.0% confidence
	1e+14 +/- 4.53319
	10% +/- 4.76524e-13%
	(Student's t, pooled s = 2)" -A "$T/big1" "$T/big2"

# 99.5%: the true quantile for df 4 is 5.598 (ministat's table has 7.173, the 99.8% one):
# x = {1,2,3}, + = {6,7,8}: pooled s = 1, e = 5.598 * 0.8164966 = 4.57075 < d = 5;
# re = 5.598 * sqrt((2*1 + 2*1 * 7^2/2^2) * 6 / 36) = 5.598 * 2.1015867 = 11.7647, * 100 / 2.
same "99.5% uses the true 99.5% quantile" "x $T/x3
+ $T/z3
    N           Min           Max        Median           Avg        Stddev
x   3             1             3             2             2             1
+   3             6             8             7             7             1
Difference at 99.5% confidence
	5 +/- 4.57075
	250% +/- 588.234%
	(Student's t, pooled s = 1)" -A -c 99.5 "$T/x3" "$T/z3"

same "-q drops legend and heading" "x   3             1             3             2             2             1
+   3             2             6             4             4             2
No difference proven at 95.0% confidence" -q -A "$T/x3" "$T/y3"

same "comments and blank lines are skipped" "x $T/commented
    N           Min           Max        Median           Avg        Stddev
x   3             1             3             2             2             1" -n "$T/commented"

# The third column's figures computed by awk (n odd: the median is the middle value).
row=$(grep -v '^#' "$D/columns.csv" | cut -d, -f3 | sort -g | awk '
	{ v[NR] = $1; s += $1 }
	END { m = s / NR; for (i = 1; i <= NR; i++) q += (v[i] - m) ^ 2
	      printf "x %3d %13.8g %13.8g %13.8g %13.8g %13.8g", NR, v[1], v[NR], v[(NR + 1) / 2], m, sqrt(q / (NR - 1)) }')
same "-C and -d pick a column" "x $D/columns.csv
    N           Min           Max        Median           Avg        Stddev
$row" -n -C 3 -d , "$D/columns.csv"

got=$(printf '1\n2\n3\n' | ./compare.sh -n)
[ "$(printf '%s\n' "$got" | head -n 1)" = "x <stdin>" ] && [[ $got == *"x   3             1"* ]]
ok $? "no file: standard input, named <stdin>"

got=$(printf '1\n2\n3\n' | ./compare.sh -n "$T/y3" -)
[ "$(printf '%s\n' "$got" | sed -n 2p)" = "+ -" ] && [[ $got == *"+   3             1             3"* ]]
ok $? "'-' reads standard input"

# Seven data sets: symbols x + * % # @ O, six comparisons against the first.
got=$(./compare.sh -A "$D"/a.txt "$D"/b.txt "$D"/c.txt "$D"/d.txt "$D"/e.txt "$D"/f.txt "$D"/g.txt)
[ "$(printf '%s\n' "$got" | head -n 7 | cut -c1 | tr -d '\n')" = 'x+*%#@O' ] &&
	[ "$(printf '%s\n' "$got" | grep -Ec '^(Difference|No difference)')" -eq 6 ]
ok $? "seven data sets"

# Relative figure against the formula, computed here independently: a.txt against b.txt,
# df = 7 + 9 - 2 = 14, t(95%, 14) = 2.145.
want=$(perl -e '
	sub load { open(my $f, "<", $_[0]) or die; my @v = grep { /^\s*[-0-9.]/ } <$f>; chomp @v; @v }
	sub mv { my @v = @_; my $m = 0; $m += $_ for @v; $m /= @v; my $s = 0; $s += ($_ - $m) ** 2 for @v;
		($m, $s / (@v - 1), scalar @v) }
	my ($m0, $v0, $n0) = mv(load($ARGV[0])); my ($m, $v, $n) = mv(load($ARGV[1]));
	my $t = 2.145;
	my $re = $t * sqrt((($n - 1) * $v + ($n0 - 1) * $v0 * $m * $m / ($m0 * $m0)) * ($n + $n0) / ($n * $n0 * ($n + $n0 - 2)));
	printf("\t%.6g%% +/- %.6g%%\n", 100 * ($m - $m0) / $m0, 100 * $re / $m0);' "$D/a.txt" "$D/b.txt")
got=$(./compare.sh -A "$D/a.txt" "$D/b.txt" | grep '% +/- ')
[ "$got" = "$want" ]
ok $? "relative change and its +/- follow the formula (want '$want', got '$got')"

fails "text after a number: file and line" 2 "junk:3: '3abc' is not a number" "$T/junk"
fails "NaN rejected with file and line" 2 "nan:2: .*NaN" "$T/nan"
fails "infinity rejected with file and line" 2 "inf:3: .*infinite" "$T/inf"
fails "overflow rejected with file and line" 2 "huge:2: .*out of range" "$T/huge"
fails "two values are too few" 2 "two: only 2 values" "$T/x3" "$T/two"
fails "an empty file is too few" 2 "empty: no values" "$T/empty"
fails "a missing file is named" 2 "cannot open $T/missing" "$T/x3" "$T/missing"
fails "eight data sets are too many" 2 "at most 7" "$T/x3" "$T/x3" "$T/x3" "$T/x3" "$T/x3" \
	"$T/x3" "$T/x3" "$T/x3"
fails "unknown confidence level" 2 "confidence level" -c 97 "$T/x3"
fails "width below 2" 2 "-w" -w 1 "$T/x3"
fails "column 0" 2 "-C" -C 0 "$T/x3"
fails "run-mode option on files" 2 "run directories" --threshold 5 "$T/x3" "$T/y3"

if command -v python3 >/dev/null 2>&1; then
	python3 selftest/bench/gen_ttable.py --check analysis/stat/stats.c
	ok $? "analysis/stat/stats.c holds the t table selftest/bench/gen_ttable.py computes"
else
	echo "ok $((n += 1)) # skip python3 not installed"
fi

# Debian's ministat (an older version) prints 100*e/mean0 as the relative +/- and a
# different median for even n; every other byte must match. The fixtures have odd n.
mask() { sed -E 's/^(\t[^ ]+% \+\/- ).*%$/\1<re>%/'; }
while read -r args; do
	if ! command -v ministat >/dev/null 2>&1; then
		echo "ok $((n += 1)) # skip ministat not installed: $args"
		continue
	fi
	# shellcheck disable=SC2086
	a=$(cd "$D" && ministat $args | mask)
	# shellcheck disable=SC2086
	b=$(cd "$D" && ../../../../compare.sh $args | mask)
	[ -n "$a" ] && [ "$a" = "$b" ]
	ok $? "same as Debian's ministat: $args"
	if [ -n "$a" ] && [ "$a" != "$b" ]; then
		diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | sed 's/^/# /'
	fi
done <<'EOF'
a.txt b.txt
b.txt a.txt d.txt
-s a.txt b.txt c.txt
-A a.txt d.txt
-n a.txt b.txt c.txt d.txt
-c 80 a.txt b.txt
-c 90 a.txt c.txt
-c 98 a.txt d.txt
-c 99 a.txt d.txt g.txt
-w 40 a.txt b.txt c.txt
-w 120 -s a.txt e.txt f.txt
-w 2 a.txt b.txt
a.txt b.txt c.txt d.txt e.txt f.txt g.txt
-s a.txt b.txt c.txt d.txt e.txt f.txt g.txt
-C 2 -d , columns.csv
e.txt e.txt
g.txt
EOF

echo "1..$n"
