#!/usr/bin/env bash
# The file formats (format/'s tables): results outlive versions: 4b51cc5's run directories still read, and a run whose meta, samples.csv and summary.csv hold a key and columns this version does not know reads as it does without them; plan.conf (one sweep writes and reads it) refuses a key it does not know.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! make -s BUILD="$B" "$B/bin/sb-summary" "$B/bin/sb-compare" "$B/bin/sb-history" "$B/bin/sb-plan" \
	>"$tmp/make.log" 2>&1; then
	echo "Bail out! make failed: $(tail -n 5 "$tmp/make.log")"
	exit 1
fi
S=$B/bin/sb-summary C=$B/bin/sb-compare H=$B/bin/sb-history P=$B/bin/sb-plan
plan 17

# old/: 4b51cc5's selftest/data (from git when this checkout has the commit; else the tree's, unchanged since)
mkdir -p "$tmp/old"
if git cat-file -e '4b51cc5^{commit}' 2>/dev/null; then
	git archive 4b51cc5 selftest/data | tar -x -C "$tmp/old"
else
	mkdir -p "$tmp/old/selftest" && cp -R selftest/data "$tmp/old/selftest/"
fi
old=$tmp/old/selftest/data
# new/: the same runs from a later version: a meta key, samples.csv columns (one inside, one at
# the end) and a summary.csv column (before lkp_linear) that this version does not know
cp -R "$old" "$tmp/new"
new=$tmp/new
for d in $(cd "$new" && find . -name meta -printf '%h\n' | sort); do
	printf 'zz_future_key=from a later version\n' >>"$new/$d/meta"
	if [ -f "$new/$d/samples.csv" ]; then
		awk -F, -v OFS=, '{ $3 = $3 OFS (NR == 1 ? "future_col" : "7"); print $0 OFS (NR == 1 ? "future_tail" : "x") }' \
			"$old/$d/samples.csv" >"$new/$d/samples.csv"
	fi
	if [ -f "$new/$d/summary.csv" ]; then
		awk -F, -v OFS=, '{ $(NF - 1) = $(NF - 1) OFS (NR == 1 ? "future_sum" : "1.5"); print }' \
			"$old/$d/summary.csv" >"$new/$d/summary.csv"
	fi
done
good=$(cd "$old" && find plot/good profile -name meta -printf '%h\n' | sort)

# sb-summary: samples.csv's reader (the run means) and the plot records (meta, summary.csv, samples.csv, points.csv)
bad=''
for d in $good compare/results/unix1/base-20260101T000000 compare/results/unix1/single-20260103T000000; do
	"$S" "$old/$d/samples.csv" >"$tmp/a" 2>&1 || bad="$bad $d(old)"
	"$S" "$new/$d/samples.csv" >"$tmp/b" 2>&1 || bad="$bad $d(new)"
	cmp -s "$tmp/a" "$tmp/b" || bad="$bad $d(differs)"
done
is "$bad" '' "sb-summary reads 4b51cc5's samples.csv, and the same with two unknown columns gives the same bytes"
bad=''
for d in $good; do
	"$S" --format plot "$old/$d" >"$tmp/a" 2>&1 || bad="$bad $d(old)"
	"$S" --format plot "$new/$d" >"$tmp/b" 2>&1 || bad="$bad $d(new)"
	grep -q '^meta	zz_future_key	from a later version$' "$tmp/b" || bad="$bad $d(no key)"
	grep -v zz_future_key "$tmp/b" | cmp -s "$tmp/a" - || bad="$bad $d(differs)"
done
is "$bad" '' "--format plot reads 4b51cc5's runs; an unknown meta key is handed on, unknown columns change nothing"
bad=''
for f in gab bencher; do
	"$S" --format "$f" "$old/plot/good/unix1/6.8.0-lock-20260102T100000" >"$tmp/a" 2>&1 || bad="$bad $f(old)"
	"$S" --format "$f" "$new/plot/good/unix1/6.8.0-lock-20260102T100000" >"$tmp/b" 2>&1 || bad="$bad $f(new)"
	cmp -s "$tmp/a" "$tmp/b" || bad="$bad $f(differs)"
done
is "$bad" '' "the JSON exports (meta's test, label, run_id and summary.csv) read the same from the later run"

# sb-compare: the run model (meta and samples.csv) of both sides
u=compare/results/unix1
run "$C" "$old/$u/base-20260101T000000" "$old/$u/new-20260102T000000"
old_out=$out old_rc=$rc
like "$old_rc" '^[01]$' "sb-compare reads 4b51cc5's base and new (exit $old_rc${err:+: $err})"
run "$C" "$new/$u/base-20260101T000000" "$new/$u/new-20260102T000000"
is "$rc:${out//$new/$old}" "$old_rc:$old_out" "sb-compare of the later runs: the same report"
run "$C" "$old/plot/good/unix1/6.1.0-old-20260101T100000" "$old/plot/good/unix1/6.8.0-lock-20260102T100000"
old_out=$out old_rc=$rc
run "$C" "$new/plot/good/unix1/6.1.0-old-20260101T100000" "$new/plot/good/unix1/6.8.0-lock-20260102T100000"
is "$rc:${out//$new/$old}" "$old_rc:$old_out" "sb-compare of runs with summary.csv: the same report from the later runs"

# sb-history: the ingest keeps meta's values from the run model
hist() {	# hist DATA: add plot/good's unix1 runs into a new history; list and show unix1
	"$H" --db "$tmp/h-$2.db" add "$1"/plot/good/unix1/*-2026*/ >/dev/null 2>"$tmp/h.err" &&
		"$H" --db "$tmp/h-$2.db" list unix1 && "$H" --db "$tmp/h-$2.db" show unix1
}
hist "$old" old >"$tmp/a" 2>&1
ok $? "sb-history adds, lists and shows 4b51cc5's runs$(sed 's/^/: /' "$tmp/h.err")"
hist "$new" new >"$tmp/b" 2>&1
ok $? "sb-history adds the later runs"
sed "s|$new|$old|g" "$tmp/b" | cmp -s "$tmp/a" -
ok $? "sb-history: the later runs list and show as 4b51cc5's"
grep -q 'unix1' "$tmp/a"
ok $? "sb-history's list and show name the runs' testcase"

# summary.csv: a file of only will-it-scale's six columns still reads (the oldest runs)
cut -d, -f1-6 "$old/plot/good/unix1/6.8.0-lock-20260102T100000/summary.csv" >"$tmp/six.csv"
mkdir -p "$tmp/six/unix1/r-20260101T000000"
cp "$old/plot/good/unix1/6.8.0-lock-20260102T100000/meta" "$tmp/six/unix1/r-20260101T000000/"
cp "$tmp/six.csv" "$tmp/six/unix1/r-20260101T000000/summary.csv"
run "$S" --format plot "$tmp/six/unix1/r-20260101T000000"
is "$rc" 0 "summary.csv of will-it-scale's six columns alone reads${err:+: $err}"
like "$out" $'\nrow\t2\t' "its rows are there"

# plan.conf: one sweep writes and reads it, so a key sb-plan does not know is an error;
# the keys sweep/plan.sh's plan_conf writes are the table's (modes and run_ms: sb-plan's own and
# the tests', never the sweep's)
written=$(sed -n '/^plan_conf()/,/^}/p' sweep/plan.sh | sed -n '/meta_lines/,/plan\.conf"/p' |
	grep -oE '(^|[[:space:]])[a-z_]+ "' | tr -d ' "\t' | sort)
table=$(grep -oE 'X\("[a-z_]+"' format/plan_conf.h | sed 's/X("//; s/"//' | grep -vxE 'modes|run_ms' | sort)
is "${written//$'\n'/ }" "${table//$'\n'/ }" "sweep/plan.sh writes exactly format/plan_conf.h's keys"
printf '%s\n' modes_total=1 points_mode=list points=1,2 min=1 max=2 step=1 units=2 min_runs=1 max_runs=1 \
	adaptive=0 >"$tmp/plan.conf"
run "$P" plan "$tmp/plan.conf"
is "$rc" 0 "sb-plan reads a plan.conf of known keys${err:+: $err}"
printf 'pointz=1,2\n' >>"$tmp/plan.conf"
run "$P" plan "$tmp/plan.conf"
is "$rc" 2 "an unknown plan.conf key: exit 2"
like "$err" "^sb-plan: $tmp/plan.conf: unknown key 'pointz'" "the error names the file and the key"
is "$(printf '%s\n' "$err" | wc -l):$out" "1:" "one line, nothing on stdout"
exit $_failed
