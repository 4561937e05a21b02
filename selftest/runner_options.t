#!/usr/bin/env bash
# The runner's own answers: --format samples, --run, --no-header, --print-header, --check, --list-options.
. "$(dirname "$0")/lib.sh"
bin=$B/bin/null1_processes
short="--period-ms 100 -s 2 --warmup 1"
CSV_HEADER='phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms'
SAMPLES_HEADER="mode,tasks,run,$CSV_HEADER"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# one_line REGEX NAME: the last run exited 2 with one line on stderr, matching REGEX
one_line() {
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "$2 exits 2 in one line${err:+ ($err)}"
	like "$err" "$1" "$2 names the problem"
}

# ---- --format samples: complete samples.csv rows, mode/tasks/run included ----
for m in processes threads; do
	run "$B/bin/getppid1_$m" -t 2 $short --format samples --run 7
	is "$rc" 0 "samples $m exits 0${err:+ ($err)}"
	is "$(printf '%s\n' "$out" | head -1)" "$SAMPLES_HEADER" "samples $m: samples.csv's header"
	is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1-5 | tr '\n' ' ')" \
		"$m,2,7,warmup,1 $m,2,7,measure,1 $m,2,7,measure,2 " "samples $m: every row has mode, tasks, run, then phase and sample"
	bad=$(printf '%s\n' "$out" | sed 1d | awk -F, '{
		if (NF != 13) print "fields " NR
		r = $7 / $6; if (r - $8 > $8 * 1e-4 || $8 - r > $8 * 1e-4) print "rate " NR
		if ($9 > $10) print "min>max " NR
		if ($11 != "" && ($11 < 0 || $11 > 100)) print "idle " NR }')
	is "$bad" "" "samples $m: 13 fields, ops_per_s = ops / elapsed_s, min <= max, idle in 0..100"
done
run "$bin" -t 1 $short --format samples
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f3 | sort -u)" "1" "--run defaults to 1"
run "$bin" -t 2 $short --format samples -v
like "$(printf '%s\n' "$out" | head -1)" "^$SAMPLES_HEADER,task_0,task_1$" "-v --format samples adds a column per task"
is "$(printf '%s\n' "$out" | sed 1d | awk -F, '{ print NF }' | sort -u)" "15" "and every row has them"
run "$bin" --check --run 0
one_line "--run: '0' is out of range \(1\.\.1000000000\)" "--run 0"
run "$bin" --check --run 1000000001
one_line "--run: '1000000001' is out of range" "--run 1000000001"
run "$bin" --check --run 1000000000
is "$rc" 0 "--run 1000000000 is accepted"

# ---- --no-header ----
run "$bin" -t 1 $short --format csv --no-header
is "$rc" 0 "csv --no-header exits 0"
is "$(printf '%s\n' "$out" | cut -d, -f1,2 | tr '\n' ' ')" "warmup,1 measure,1 measure,2 " "csv --no-header: the rows, no header"
run "$bin" -t 1 $short --format samples --no-header
is "$(printf '%s\n' "$out" | cut -d, -f1-5 | tr '\n' ' ')" \
	"processes,1,1,warmup,1 processes,1,1,measure,1 processes,1,1,measure,2 " "samples --no-header: the rows, no header"
run "$bin" -t 1 $short --no-header
one_line "--no-header: --format text has no header line" "--no-header with text"

# ---- --print-header: the first line of a real run, and nothing else ----
for args in "--format csv" "--format samples" "--format csv -v -t 3" "--format samples -v -t 2 --run 4"; do
	run "$bin" $args --print-header
	hdr=$out hrc=$rc herr=$err
	run "$bin" $args $short
	is "$hrc:$herr" "0:" "--print-header $args exits 0, silent on stderr"
	is "$hdr" "$(printf '%s\n' "$out" | head -1)" "--print-header $args is the first line of the run"
done
is "$("$bin" --format csv --print-header)" "$CSV_HEADER" "--print-header of csv is today's CSV header"
run "$bin" --print-header
one_line "--print-header: --format text has no header line" "--print-header with text"
run "$bin" --format csv --print-header --no-header
one_line "--print-header contradicts --no-header" "--print-header with --no-header"

# ---- --check: what a run would refuse, with its code and message, and nothing else ----
run "$bin" --check -t 2
is "$rc:$out:$err" "0::" "--check exits 0 and prints nothing"
run "$bin" --check -t 1000
is "$rc:$out:$err" "0::" "--check is silent even where a run notes oversubscription"
check_same() {	# check_same NAME CMD...: --check fails as the run does
	local name=$1 crc cerr
	shift
	run "$@" --check
	crc=$rc cerr=$err
	run "$@" $short
	is "$crc" "$rc" "$name: --check exits as a run does ($rc)"
	is "$cerr" "$err" "$name: with the run's message"
	[ "$rc" != 0 ]
	ok $? "$name: (which is a failure)"
}
check_same "bad --param" "$bin" --param nosuch=1
check_same "bad --param value" "$B/selftest/params_processes" --param size=0
check_same "bad HWLOC_SYNTHETIC" env HWLOC_SYNTHETIC=bogus:3 "$bin"
check_same "bad HWLOC_XMLFILE" env HWLOC_XMLFILE=/nonexistent.xml "$bin"
check_same "bad --cpus" "$bin" --cpus 0-100000
check_same "wrong mode" "$B/bin/alloc_free2_processes"
check_same "bad option value" "$bin" -t 0
# prepare and the private directory are the run's, not the check's
run "$B/selftest/params_processes" --check --param dir="$dir" --param size=4096
is "$rc" 0 "--check does not run testcase_prepare (which would refuse size=4096)"
is "$(ls -A "$dir")" "" "--check makes no private directory"

# ---- --list-options: the option table, as --help shows it ----
run "$bin" --list-options
list=$out
is "$rc:$err" "0:" "--list-options exits 0"
bad=$(printf '%s\n' "$list" | grep -Ev '^option=(-[a-zA-Z]|--[a-z][a-z-]*|-[a-zA-Z],--[a-z][a-z-]*) arg=[^ ]* sweep=(yes|no) help=[^ ].*$')
is "$bad" "" "every line is option=NAMES arg=ARG sweep=yes|no help=TEXT"
is "$(printf '%s\n' "$list" | awk '/ sweep=yes / { sub(/^option=/, "", $1); print $1 }' | tr '\n' ' ')" \
	"--warmup-min --warmup-max --warmup-period-ms --period-ms --placement --stall-timeout --param " "sweep=yes marks what runtest.sh passes through"
# --help's option lines, rebuilt from --list-options: the same table makes both.
rebuilt=$(printf '%s\n' "$list" | sed -E 's/^option=([^ ]*) arg=([^ ]*) sweep=[a-z]+ help=(.*)$/\1\t\2\t\3/' |
	awk -F'\t' '{
		s = ""; l = $1
		if ($1 ~ /^-[^-]/) { s = substr($1, 1, 2); l = substr($1, 4); if (l != "") s = s "," }
		if (l != "" && $2 != "") l = l " " $2
		printf "  %-3s %-18s %s\n", s, l, $3 }')
helped=$("$bin" --help | sed -n '2,/^  -h, --help/p')
is "$rebuilt" "$helped" "--help's option lines are --list-options' lines, in order"
for o in $(printf '%s\n' "$helped" | grep -oE '^  (-[a-zA-Z],? )? *--?[a-z][a-z-]*' | grep -oE -- '--?[a-z][a-z-]*$'); do
	printf '%s\n' "$list" | grep -qE -- "^option=([^ ]*,)?$o "
	ok $? "--help's $o is in --list-options"
done

# --warmup-min/--warmup-max: seconds with decimals; a floor above the cap is refused, not capped in silence
run "$B/bin/getppid1_processes" --period-ms 100 -s 1 --warmup auto --warmup-period-ms 50 --warmup-min 0.3 \
	--warmup-max 0.3 --format csv --no-header
is "$rc:$(printf '%s\n' "$out" | grep -c '^warmup,')" 0:6 "--warmup-min 0.3 --warmup-max 0.3: 6 warmup samples of 50 ms"
run "$B/bin/getppid1_processes" --warmup-min 3 --warmup-max 1 --check
one_line '^getppid1_processes: --warmup-min 3 s is more than --warmup-max 1 s$' "--warmup-min above --warmup-max"
run "$B/bin/getppid1_processes" --warmup-max 0.0001 --check
one_line "^getppid1_processes: --warmup-max: '0.0001' has more than 3 decimals$" "--warmup-max with 4 decimals"
run "$B/bin/getppid1_processes" --warmup-max 86401 --check
one_line "out of range \(0..86400 seconds\)" "--warmup-max above a day"

# An answer that cannot be written is an environment error, not a silent 0.
if [ -w /dev/full ]; then
	for a in --list-options --help "--format samples --print-header"; do
		run sh -c "\"\$0\" $a >/dev/full" "$bin"
		is "$rc" 3 "$a into a full device exits 3"
	done
else
	skip "no /dev/full"
fi

echo "1..$_n"
exit "$_failed"
