#!/usr/bin/env bash
# runtest.sh: a tiny real sweep: files, headers, rows, meta keys, lkp-tests' reading, --repeat.
# sb-san: skip: runtest.sh's files and meta as a sweep writes them: shell; the runner and sb-summary are sanitized in runner_*.t and compare_*.t
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads"

SUMMARY_HEADER=tasks,processes,processes_idle,threads,threads_idle,linear,processes_stddev,processes_ci,processes_min,processes_max,processes_n,threads_stddev,threads_ci,threads_min,threads_max,threads_n,processes_runs,processes_precision,threads_runs,threads_precision,processes_peak,threads_peak,lkp_linear
SAMPLES_HEADER=mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms

# ---- the sweep of the issue: 1 and 2 tasks, both modes, 5 samples of 200 ms ----
rc=0
# (one 200 ms warmup sample: a starved machine may give the tasks no CPU in
# the very first one, and "every sample counted" is about the measured ones)
./runtest.sh getppid1 --max-procs 2 --duration 1 --warmup 0.2 --period-ms 200 --repeat 1 \
	--label t1 --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "sweep exits 0"
[ "$rc" = 0 ] || diag_file "$T/err"
run=$(cat "$T/out")
is "$(wc -l <"$T/out" | tr -d ' ')" 1 "standard output is one line: the run directory"
like "$run" "^$T/r/getppid1/t1-[0-9]{8}T[0-9]{6}$" "run directory is results/<test>/<label>-<stamp>"
for f in summary.csv samples.csv meta; do
	ok "$([ -s "$run/$f" ]; echo $?)" "$f exists"
done
is "$(readlink "$T/r/getppid1/latest")" "${run##*/}" "latest points to the run"
is "$(ls -A "$run" | tr '\n' ' ')" "meta points.csv samples.csv summary.csv " "no temporary file left in the run directory"

is "$(head -n 1 "$run/summary.csv")" "$SUMMARY_HEADER" "summary.csv header"
is "$(sed -n 2p "$run/summary.csv")" "0,0,100,0,100,0,,,,,,,,,,,,,,,,,0" "will-it-scale's first row"
is "$(col "$run/summary.csv" tasks | tr '\n' ' ')" "0 1 2 " "one row per point"
is "$(awk -F, 'NR > 1 && NF != 23' "$run/summary.csv")" "" "every row has 23 fields"
is "$(awk -F, 'NR > 2 && !($2 > 0 && $4 > 0 && $6 > 0 && $11 == 5 && $16 == 5)' "$run/summary.csv")" "" \
	"processes, threads, linear > 0 and n = 5 in each row"
is "$(awk -F, 'NR == 3 { b = $2 > $4 ? $2 : $4 }
	NR > 2 { d = $6 - b * $1; if (d < 0) d = -d; if (d > 1e-6 * $6) print "row " $1 }' "$run/summary.csv")" "" \
	"linear = the better mode at 1 task, times tasks"
is "$(awk -F, 'NR > 2 && $23 != $6' "$run/summary.csv")" "" "lkp_linear repeats linear"
is "$(awk -F, 'NR > 2 { print $8 $13 $18 $20 "/" $17 $19 }' "$run/summary.csv" | sort -u)" "/11" \
	"one run a point: no interval (_ci, _precision empty), _runs 1"

is "$(head -n 1 "$run/samples.csv")" "$SAMPLES_HEADER" "samples.csv header"
is "$(awk -F, 'NR > 1 { n[$1 "/" $2 "/" $3 "/" $4]++ } END { for (k in n) print k, n[k] }' "$run/samples.csv" | sort | tr '\n' ' ')" \
	"processes/1/1/measure 5 processes/1/1/warmup 1 processes/2/1/measure 5 processes/2/1/warmup 1 threads/1/1/measure 5 threads/1/1/warmup 1 threads/2/1/measure 5 threads/2/1/warmup 1 " \
	"5 measured samples per point and mode after 1 warmup sample, run 1"
is "$(awk -F, 'NR > 1 && $4 == "measure" && !($8 > 0 && $7 > 0 && $6 > 0)' "$run/samples.csv")" "" "every measured sample counted operations"
# the summary's means are the samples' means
is "$(awk -F, 'FNR == 1 { next }
	NR == FNR { if ($4 == "measure") { s[$1 "," $2] += $8; c[$1 "," $2]++ }; next }
	$1 > 0 { for (m = 0; m < 2; m++) { k = (m ? "threads" : "processes") "," $1; want = s[k] / c[k]
		got = $(m ? 4 : 2); d = got - want; if (d < 0) d = -d; if (d > 1e-6 * want) print k, got, want } }' \
	"$run/samples.csv" "$run/summary.csv")" "" "summary means are the means of the measured samples"

# every key of sb-rundir's table a sweep on this machine writes (all but a VM run's), once
keys=$("$SB_BUILD/bin/sb-rundir" keys | awk -F'\t' '$2 !~ /VM/ { print $1 }')
missing=''
for k in $keys; do
	[ "$(grep -c "^$k=" "$run/meta")" = 1 ] || missing="$missing $k"
done
is "$missing" "" "meta has each key of sb-rundir's table once (VM keys aside)"
is "$(grep -c . "$run/meta")" "$(echo "$keys" | wc -w)" "and no other line"
ok "$([ "$(echo "$keys" | wc -w)" -gt 40 ]; echo $?)" "(the table was read: $(echo "$keys" | wc -w) keys)"
is "$(grep -vc '^[a-z_]*=' "$run/meta")" 0 "meta is key=value lines only"
is "$(meta "$run/meta" status)" complete "status=complete"
is "$(meta "$run/meta" error)" "" "no error"
is "$(meta "$run/meta" points)" 1,2 "points=1,2"
is "$(meta "$run/meta" modes)" processes,threads "modes"
is "$(meta "$run/meta" duration),$(meta "$run/meta" warmup),$(meta "$run/meta" period_ms),$(meta "$run/meta" repeat)" 1,0.2,200,1 \
	"duration, warmup, period_ms, repeat"
is "$(meta "$run/meta" label)" t1 "label"
is "$(meta "$run/meta" run_id)" "${run##*/}" "run_id is the directory name"
like "$(meta "$run/meta" date)" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "date is ISO 8601 UTC"
like "$(meta "$run/meta" aslr)" '^(on|off)$' "aslr recorded"
like "$(meta "$run/meta" topology)" '^packages=[0-9]+ numa=[0-9]+ cores=[0-9]+ pus=[0-9]+$' "topology from hwloc"
like "$(meta "$run/meta" command)" '^\./runtest\.sh getppid1 --max-procs 2 ' "command line as typed"

# progress: one plain line per point (stderr is not a terminal here)
is "$(grep -cE '^getppid1  (processes|threads) +[12]/2 tasks  run 1  [0-9.]+[KMG]? ops/s   \[[1-4]/4 points, [0-9hms]+ left\]$' "$T/err")" 4 \
	"four progress lines"
ok "$(grep -q '^getppid1: complete, ' "$T/err"; echo $?)" "final status line"
ok "$(grep -qE '^ +tasks +processes' "$T/err"; echo $?)" "final table"

# ---- lkp-tests' will-it-scale parser, the way it reads (stats/will-it-scale) ----
# A header is /^[a-z_,]+$/; a data row /^[0-9.,]+$/, split as Ruby's String#split
# (trailing empty fields dropped); linear is the row's last field, to_i.
lkp=$(awk '
	/^[a-z_,]+$/ { header = 1; next }
	/^[0-9.,]+$/ {
		n = split($0, v, ",")
		while (n > 0 && v[n] == "") n--
		if (v[1] == "0") next
		p = int(v[2]); t = int(v[4])
		if (p == 0 && t == 0) next
		linear = int(v[n])
		if (linear != 0 && v[1] != "1") scal = v[2] / linear
		pp += p / v[1]; pt += t / v[1]; rows++
	}
	END { printf "header=%d rows=%d scalability=%f per_process_ops=%d per_thread_ops=%d\n",
		header, rows, scal, pp / rows, pt / rows }' "$run/summary.csv")
want=$(awk -F, 'NR > 2 { p = int($2); t = int($4); pp += p / $1; pt += t / $1; rows++; scal = $2 / int($6) }
	END { printf "header=1 rows=%d scalability=%f per_process_ops=%d per_thread_ops=%d\n",
		rows, scal, pp / rows, pt / rows }' "$run/summary.csv")
is "$lkp" "$want" "lkp-tests' parser: per_process_ops, per_thread_ops, scalability as from the columns"
like "$lkp" ' scalability=(0\.[0-9]*[1-9][0-9]*|1\.[0-9]+) ' "scalability is a ratio to linear ($lkp)"

# ---- --repeat 3: three runs per point; values are the runs' means ----
rc=0
./runtest.sh getppid1 --points 1,2 --mode processes --duration 0.4 --warmup 0 --period-ms 200 \
	--repeat 3 --quiet --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "--repeat 3 sweep exits 0"
run=$(cat "$T/out")
is "$(awk -F, 'NR > 1 { n[$2 "/" $3]++ } END { for (k in n) print k, n[k] }' "$run/samples.csv" | sort | tr '\n' ' ')" \
	"1/1 2 1/2 2 1/3 2 2/1 2 2/2 2 2/3 2 " "samples.csv: 3 runs of 2 samples per point"
is "$(awk -F, 'NR > 2 { print $1, $11, ($4 $13 $16 == "") }' "$run/summary.csv" | tr '\n' ' ')" "1 3 1 2 3 1 " \
	"summary: n = 3 runs per point, threads empty"
is "$(awk -F, 'NR > 2 { print $17, ($18 > 0 && $18 == 100 * $8 / $2 || ($18 - 100 * $8 / $2) ^ 2 < 1e-8) }' "$run/summary.csv" | tr '\n' ' ')" \
	"3 1 3 1 " "summary: processes_runs 3, processes_precision = 100 * ci / mean"
is "$(awk -F, 'FNR == 1 { next }
	NR == FNR { s[$2 "," $3] += $8; c[$2 "," $3]++; next }
	$1 > 0 { m = 0; for (r = 1; r <= 3; r++) m += s[$1 "," r] / c[$1 "," r]; m /= 3
		d = $2 - m; if (d < 0) d = -d; if (d > 1e-6 * m) print $1, $2, m }' \
	"$run/samples.csv" "$run/summary.csv")" "" "each value is the mean of the 3 run means"
is "$(meta "$run/meta" repeat)" 3 "meta repeat=3"
is "$(cat "$T/err")" "" "--quiet prints nothing on stderr"

# ---- --warmup-min/--warmup-max reach the runner (0.4 s of 50 ms warmup samples, exactly) ----
rc=0
./runtest.sh getppid1 --points 1 --mode processes --duration 0.2 --period-ms 100 --repeat 1 --warmup-min 0.4 \
	--warmup-max 0.4 --quiet --results "$T/r" >"$T/out" 2>"$T/err" || rc=$?
is "$rc" 0 "a sweep with --warmup-min 0.4 --warmup-max 0.4 exits 0"
run=$(cat "$T/out")
is "$(grep -c ',warmup,' "$run/samples.csv"),$(meta "$run/meta" warmup)" 8,auto "8 warmup samples of 50 ms, meta warmup=auto"

done_testing
