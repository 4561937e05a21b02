#!/usr/bin/env bash
# sb-profile on fixtures (no perf needed): perf script -> folded + top tables, diff, points, rate, summary, compare.sh --profile.
. "$(dirname "$0")/lib.sh"
if ! make -s BUILD="$B" "$B/bin/sb-profile" "$B/bin/sb-summary" >/dev/null 2>&1; then
	echo "Bail out! make $B/bin/sb-profile failed"
	exit 1
fi
plan 64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$B/bin/sb-profile
D=selftest/data/profile
RB=$D/results/pipe1/base-20260101T000000
RN=$D/results/pipe1/new-20260102T000000

# ---- script: perf script output -> folded.txt, top.csv, top.txt ----
run "$P" script -o "$tmp/p" -c pipe1_proc "$D/script.txt"
is "$rc" 0 "script reads the fixture${err:+ ($err)}"
is "$err" "" "nothing on stderr: kernel symbols resolved"
is "$(cat "$tmp/p/folded.txt")" "Web Content;[libxul.so] 1
pipe1_processes;testcase;__GI___libc_write;do_syscall_64_[k];vfs_write_[k];anon_pipe_write_[k] 4
pipe1_processes;testcase;__GI___libc_write;do_syscall_64_[k];vfs_write_[k];anon_pipe_write_[k];_raw_spin_lock_[k] 2
pipe1_processes;testcase;read;do_syscall_64_[k];vfs_read_[k];anon_pipe_read_[k] 2
swapper;default_idle_[k];pv_native_safe_halt_[k] 1" \
	"folded: command first, callers to callee, kernel frames _[k], the other event's sample left out, comm with a space and tid -1 kept"
is "$(sed -n 1p "$tmp/p/top.csv")" "self_pct,children_pct,self_samples,children_samples,space,symbol,dso" "top.csv header"
is "$(sed -n 2p "$tmp/p/top.csv")" "40.00,60.00,4,6,kernel,anon_pipe_write,[kernel.kallsyms]" "top symbol: self 40%, with children 60%"
is "$(grep ',do_syscall_64,' "$tmp/p/top.csv")" "0.00,80.00,0,8,kernel,do_syscall_64,[kernel.kallsyms]" \
	"a caller: no self share, 80% with children (counted once per sample)"
is "$(grep ',testcase,' "$tmp/p/top.csv")" "0.00,80.00,0,8,user,testcase,/opt/sb/pipe1_processes" "user frames are user, with their DSO"
is "$(grep 'libxul' "$tmp/p/top.csv")" "10.00,10.00,1,1,user,[libxul.so],/usr/lib/libxul.so" \
	"a user frame without a symbol is named by its DSO"
is "$(sed -n 1p "$tmp/p/top.txt")" "event cpu-clock, 10 samples, 90.0% in the kernel" "top.txt: event (the first seen), samples, kernel share"
like "$(sed -n 4p "$tmp/p/top.txt")" '^ +40\.00 +60\.00 +kernel +anon_pipe_write +\[kernel\.kallsyms\]$' "top.txt's first row"
is "$(sed -n 2p "$tmp/p/test-top.csv")" "50.00,75.00,4,6,kernel,anon_pipe_write,[kernel.kallsyms]" \
	"-c: the testcase's own samples (8 of 10) in test-top.csv"
is "$(find "$tmp/p" -name '.*' | wc -l)" 0 "no temporary file left"

run "$P" script -e lock:contention_begin -o "$tmp/l" "$D/script.txt"
is "$(sed -n 2p "$tmp/l/top.csv")" "100.00,100.00,1,1,kernel,_raw_spin_lock,[kernel.kallsyms]" "-e chooses the event"
run "$P" script -e cycles -o "$tmp/h" "$D/hybrid.txt"
is "$(cat "$tmp/h/folded.txt")" "x;f_[k] 1
x;g_[k] 1" "-e cycles takes a hybrid CPU's cpu_core/cycles/ and cpu_atom/cycles/"
run "$P" script -e cycles -o "$tmp/c" "$D/script.txt"
is "$rc" 2 "no sample of the event: exit 2"
like "$err" "no sample of event cycles" "... and it says so"
run "$P" script -o "$tmp/n" "$D/nosyms.txt"
is "$rc" 0 "kernel without symbols: still a profile"
like "$err" "warning: 100% of the kernel samples have no symbol.*kptr_restrict" "... with a warning naming kptr_restrict"
like "$(cat "$tmp/n/folded.txt")" 'testcase;0xffffffff81a00200_\[k\];0xffffffff81a00010_\[k\] 1' "... and addresses for the frames"
run "$P" script -o "$tmp/b" "$D/bad.txt"
is "$rc" 2 "a malformed frame: exit 2"
is "$err" "sb-profile: $D/bad.txt:2: not a frame 'ADDRESS SYMBOL (DSO)' (sample of line 1)" "... one line naming file and line"
[ ! -e "$tmp/b" ]
ok $? "... and no output directory"
run "$P" script "$D/script.txt"
is "$rc" 2 "script without -o: usage error"
like "$err" "try 'sb-profile --help'" "... pointing at --help"

# ---- top from folded stacks ----
run "$P" top --format csv "$tmp/p/folded.txt"
is "$(printf '%s\n' "$out" | sed -n 2p)" "40.00,60.00,4,6,kernel,anon_pipe_write," "top from folded stacks (no DSO there)"

# ---- diff ----
run "$P" diff "$D/base.folded" "$D/new.folded"
is "$rc" 0 "diff of two folded files"
is "$(printf '%s\n' "$out" | sed -n 3p)" "     10.00    40.00   +30.00  kernel  _raw_spin_lock" "the largest change first: base %, new %, points"
is "$(printf '%s\n' "$out" | sed -n 4p)" "     50.00    30.00   -20.00  kernel  anon_pipe_write" "then the next largest"
run "$P" diff --format csv "$D/base.folded" "$D/new.folded"
is "$out" "share,space,symbol,dso,base_pct,new_pct,change_pp
self,kernel,_raw_spin_lock,,10.00,40.00,+30.00
self,kernel,anon_pipe_write,,50.00,30.00,-20.00
self,kernel,anon_pipe_read,,40.00,30.00,-10.00" "diff as CSV"
run "$P" diff --format markdown --children -n 1 "$D/base.folded" "$D/new.folded"
like "$out" '\| \\_raw\\_spin\\_lock \| kernel \| 10\.00 \| 40\.00 \| \+30\.00 \|' "markdown, with-children share, -n 1"
is "$(printf '%s\n' "$out" | grep -c '^| ')" 2 "... one row under the header"
run "$P" diff "$RB/profile/processes-2" "$tmp/p/top.csv"
is "$rc" 0 "diff of a profile directory and a top.csv"
run "$P" diff "$D/base.folded" "$D/base.folded"
like "$out" "no symbol changed its share" "the same profile twice: no change"
run "$P" diff "$D/base.folded" "$D/missing.folded"
is "$rc" 2 "a missing input: exit 2"

# ---- points, rate, summary ----
run "$P" points "$RB/summary.csv" processes 1,peak,max,7
is "$(printf "%s" "$out" | tr "\n" " ")" "1 2" "points: numbers, peak and max of the mode, each once; 7 was not measured"
# peak on a summary.csv with _peak columns: the best count, and its plateau's words after a tab
# (the compare fixture with threads at 4 tasks raised to tie 2 tasks: best 2, plateau 2-4)
C=selftest/data/compare/results/unix1/base-20260101T000000
awk -F, -v OFS=, '$1 == "threads" && $2 == 4 && $4 == "measure" { $7 += 100; $8 = sprintf("%.6f", $8 + 100) } { print }' \
	"$C/samples.csv" >"$tmp/flat.csv"
"$B/bin/sb-summary" -o "$tmp/flat-summary.csv" "$tmp/flat.csv"
run "$P" points "$tmp/flat-summary.csv" threads peak,4
is "$out" "$(printf '2\tpeak 2 tasks (2-4 within the 95%% interval)\n4')" "points: peak is the best count, with its plateau"
run "$P" points "$RB/summary.csv" bogus peak
is "$rc" 2 "points: a mode summary.csv lacks is an input error"
mkdir "$tmp/prof"
{ head -n 1 "$RB/samples.csv"; printf 'processes,2,1,measure,%d,1.000000,1800,1800.000000,,,,\n' 1 2 3; } >"$tmp/prof/samples.csv"
"$B/bin/sb-summary" -o "$tmp/prof/summary.csv" "$tmp/prof/samples.csv"
run "$P" rate -o "$tmp/prof/rate" "$RB/summary.csv" "$tmp/prof/summary.csv" processes 2
is "$rc" 0 "rate${err:+ ($err)}"
is "$(cat "$tmp/prof/rate")" "mode=processes
tasks=2
measured_ops_per_s=2000
profiled_ops_per_s=1800
change_pct=-10.0" "the profiled run's rate beside the measured mean"
cp "$tmp/p/top.csv" "$tmp/p/test-top.csv" "$tmp/prof/"
echo cpu-clock >"$tmp/prof/event"
cp "$tmp/p/test-top.csv" "$tmp/prof/test-top.csv"
run "$P" summary "$tmp/prof"
is "$out" "cpu-clock, profiled run 1.80K ops/s (-10.0% vs the measured mean 2.00K)
  whole machine: 40.0% anon_pipe_write [k], 20.0% _raw_spin_lock [k], 20.0% anon_pipe_read [k]
  the testcase: 50.0% anon_pipe_write [k], 25.0% _raw_spin_lock [k], 25.0% anon_pipe_read [k] (its tasks: 80.0% of the samples)" \
	"summary: event, rate, top symbols of the machine and of the testcase"

# ---- compare.sh --profile ----
run ./compare.sh --profile "$RB" "$RN"
is "$rc" 1 "compare --profile: exit 1, the profiled point is significantly slower"
like "$out" $'processes at 2 tasks: throughput -25\\.0% \\+/- 4\\.3% \\(slower\\)\n +base% +new% +change +space +symbol \\(self share\\)\n +10\\.00 +40\\.00 +\\+30\\.00 +kernel +_raw_spin_lock' \
	"the symbol share changes next to the point's throughput verdict, a sweep a side with the drift in its interval"
like "$out" $'\nNote: the throughput verdicts take a sweep a side; machine drift between sweeps: \\+/-2\\.0% sd, the default, taken as known: nothing learned on this testbed \\(the point.s, across boots\\), in every interval; no history at selftest/data/profile/results/history\\.db' \
	"the Note names the drift (nothing learned: the default) and the history looked for"
run ./compare.sh --profile --drift 0 "$RB" "$RN"
like "$out" 'throughput -25\.0% \+/- 1\.0% \(slower\)' "--drift 0: the runs inside each sweep alone, as before the drift model"
like "$out" 'Note: the throughput verdicts take the runs inside each sweep as the independent values \(--drift 0\)' \
	"... and the Note says so"
run ./compare.sh --profile --drift 30 "$RB" "$RN"
is "$rc" 0 "--drift 30: -25% between two sweeps is not proven: exit 0"
like "$out" 'throughput -25\.0% \+/- [0-9.]+% \(no difference proven\)' "... no difference proven"
like "$out" 'Note: .*\+/-30\.0% sd, given \(--drift\).*; --drift\.' "... the Note names --drift's figure"
run ./compare.sh --profile --drift abc "$RB" "$RN"
is "$rc/$out" "2/" "--drift abc: exit 2, nothing on stdout"
like "$err" "drift 'abc': expected a percentage from 0 to 100" "... naming the value"
echo "not a history" >"$tmp/bad.db"
run ./compare.sh --profile --history "$tmp/bad.db" "$RB" "$RN"
like "$rc" "^1$" "a file that is not a history: the default stands (exit 1: -25% found)"
like "$out" "Note: .*history not used: .*bad\.db" "... and the Note says why the history was not used"
# a history of 4 copies of the base sweep: the drift it learns is 0 (their means agree exactly)
mkdir -p "$tmp/h/pipe1"
for k in 1 2 3 4; do
	cp -r "$RB" "$tmp/h/pipe1/h$k-2026010${k}T120000"
	sed -i "s/^run_id=.*/run_id=h$k-2026010${k}T120000/; s/^date=.*/date=2026-01-0${k}T12:00:00Z/" \
		"$tmp/h/pipe1/h$k-2026010${k}T120000/meta"
done
"$B/bin/sb-history" --db "$tmp/h.db" add "$tmp"/h/pipe1/h* >/dev/null 2>&1
run ./compare.sh --profile --history "$tmp/h.db" "$RB" "$RN"
like "$out" 'throughput -25\.0% \+/- 1\.0% \(slower\)' "a history whose sweeps agree: drift 0 learned, the runs decide"
like "$out" "Note: .*\+/-0\.0% sd, 4 sweeps of this series across boots.*learned from the history $tmp/h\.db\." \
	"... the Note names the figure, its sweeps and the history"
SB_HISTORY="$tmp/none.db" run ./compare.sh --profile "$RB" "$RN"
like "$out" "no history at $tmp/none\.db" "\$SB_HISTORY names the history, as compare's"
unlike "$out" "threads at 2" "a point profiled in one run only is not listed"
run ./compare.sh --profile --format csv --point processes:2 "$RB" "$D/results/pipe1"
is "$(printf '%s\n' "$out" | sed -n 2p)" "processes,2,-25.00,4.25,slower,self,kernel,_raw_spin_lock,,10.00,40.00,+30.00" \
	"CSV, --point, a test directory for its latest run"
run ./compare.sh --profile --testcase "$RB" "$RN"
like "$out" "self share in % of the testcase's samples" "--testcase: the testcase's own shares (test-top.csv)"
like "$out" '\+10\.00 +\+40\.00|10\.00 +40\.00 +\+30\.00 +kernel +_raw_spin_lock' "... compared the same way"
run ./compare.sh --profile --format markdown "$RB" "$RN"
like "$out" '#### processes at 2 tasks: throughput -25\.0%' "markdown"
run ./compare.sh --profile --point threads:2 "$RB" "$RN"
is "$rc" 2 "--point not profiled in both: exit 2"
like "$err" "point threads:2 is not profiled in both" "... saying so"
is "$out" "" "... and nothing on stdout"
run ./compare.sh --profile "$RB" selftest/data/compare/results/unix1/base-20260101T000000
is "$rc" 2 "no common profiled point: exit 2"
