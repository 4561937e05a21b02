#!/usr/bin/env bash
# runtest.py's contract with lkp-tests and will-it-scale: a point's runs fill will-it-scale's warmup + duration,
# the title is written before measuring (or the failure said), the one-argument form and runalltests, signals
# passed on with a limit; make install-lkp's tree; with LKP_SRC (an lkp-tests checkout) lkp's own run and parse,
# and docs/LKP.md's package function under lkp's pkgbuild.sh. Most cases use a stand-in runtest.sh (it records
# what runtest.py asks); the last ones run the real sweep.
# sb-san: skip: its subject is runtest.py (Python) and lkp's tree; the runner and tools it drives run under the sanitizers in runner_*.t and wis_dropin.t
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- a stand-in checkout: fake/runtest.sh, and runtest.py, runalltests and testcases in fake/bin ----
fake=$tmp/fake
mkdir -p "$fake/bin" "$tmp/t"
cp runtest.py runalltests "$fake/bin/"
cat >"$fake/runtest.sh" <<'EOF'
#!/usr/bin/env bash
# Stand-in runtest.sh: writes its arguments to $FAKE_LOG.args and the title it finds to
# $FAKE_LOG.title, then, by FAKE_MODE: ok (a run directory), fail, sleep (stops on a
# signal, saying which), deaf (ignores signals).
set -eu
log=$FAKE_LOG
printf '%s\n' "$@" >"$log.args"
if [ -n "${FAKE_TITLE-}" ]; then cat "$FAKE_TITLE" >"$log.title" 2>/dev/null || echo missing >"$log.title"; fi
results='' test=$1
while [ $# -gt 0 ]; do
	if [ "$1" = --results ]; then results=$2; fi
	shift
done
case ${FAKE_MODE:-ok} in
fail) echo "runtest.sh: a point failed" >&2; exit 1 ;;
sleep | deaf)
	if [ "$FAKE_MODE" = sleep ]; then
		for s in TERM HUP INT QUIT USR1 USR2 ALRM PIPE XCPU; do trap "echo $s >'$log.sig'; exit 130" "$s"; done
	else
		trap '' TERM HUP INT QUIT USR1 USR2 ALRM PIPE XCPU
	fi
	echo $$ >"$log.pid"
	for _ in $(seq 600); do sleep 0.1; done
	exit 0
	;;
esac
[ "$test" != bad1 ] || exit 1
d=$results/$test/run1
mkdir -p "$d"
printf 'description=%s\n' "${FAKE_DESC:-Fake one}" >"$d/meta"
printf '%s\n' "tasks,processes,processes_idle,threads,threads_idle,linear,processes_stddev" \
	"0,0,100,0,100,0," "1,1000.700000,1.500000,,,1000.700000,3.0" >"$d/summary.csv"
echo "$d"
EOF
for t in fake1 bad1; do
	printf '#!/bin/sh\n[ "$1" = --info ] && echo "description=Fake one"\n' >"$fake/bin/${t}_processes"
done
chmod 755 "$fake/runtest.sh" "$fake/bin"/*_processes
log=$tmp/log
cwd=$tmp/cwd	# runtest.py writes titles in its current directory: never the checkout
mkdir "$cwd"
# at DIR CMD...: CMD in DIR
at() { (cd "$1" && shift && exec "$@"); }
# py ARGS...: the stand-in's runtest.py, in fake/bin, as lkp runs it
py() { run env FAKE_LOG="$log" TMPDIR="$tmp/t" sh -c 'cd "$1" && shift && exec python3 ./runtest.py "$@"' sh "$fake/bin" "$@"; }
# arg OPTION: the value runtest.py gave runtest.sh for it (the last one)
arg() { awk -v o="$1" 'p { v = $0; p = 0 } $0 == o { p = 1 } END { print v }' "$log.args"; }
has() { grep -qx -- "$1" "$log.args"; }

# ---- lkp's time: a point takes will-it-scale's warmup + duration, cut into independent runs ----
# will-it-scale spends duration + 6 s on a point (main.c: 5 warmup samples of 1 s, one more, then
# <duration> samples); runtest.py gives a point 5 s of warmup and <duration> s measured, in R >= 2
# runs of at least 5 samples, and fixed warmup (the steady-state rule would cost its own time).
for d in 1 2 5 7 60 295; do
	rm -f "$log.args"
	py fake1 "$d" process 0 0 1 2
	r=$(arg --repeat) w=$(arg --warmup) m=$(arg --duration) p=$(arg --period-ms)
	is "$rc" 0 "duration $d: runtest.py exits 0${err:+: $err}"
	like "$r" '^[2-9][0-9]*$' "duration $d: at least 2 independent runs a point (--repeat $r)"
	like "$w" '^[0-9]+(\.[0-9]+)?$' "duration $d: a fixed warmup, not the steady-state rule (--warmup $w)"
	awk -v r="$r" -v w="$w" -v m="$m" -v p="$p" -v d="$d" 'BEGIN {
		t = r * (w + m); want = d + 5
		exit !(t >= 0.9 * want && t <= 1.1 * want && r * m <= d + 1e-9 && r * m >= 0.9 * d && m * 1000 / p >= 5) }'
	ok $? "duration $d: $r runs x ($w s warmup + $m s measured) = will-it-scale's 5 s + $d s within 10%, $p ms samples (5 a run at least)"
done
py fake1 2 process 0 0 1 2 4
is "$(arg --points):$(arg --mode)" "1,2,4:processes" "lkp's task counts and mode process: --points 1,2,4 --mode processes"
py fake1 2 thread 1 1 1
has --no-affinity && has --smt
ok $? "no_affinity 1 and smt 1: --no-affinity --smt"
is "$(arg --mode)" threads "mode thread: --mode threads"
py fake1 2 both 0 0 1
is "$(arg --mode)" all "mode both: --mode all (tlb_flush1-3 as processes, brk2 as threads run, as in will-it-scale)"
run at "$cwd" env SB_RUNTEST_OPTIONS="--precision 5" FAKE_LOG="$log" TMPDIR="$tmp/t" python3 "$fake/bin/runtest.py" fake1 2 both 0 0 1
has --repeat
ok $((!$?)) "SB_RUNTEST_OPTIONS with a stopping rule (--precision 5): runtest.py's --repeat steps aside"
run at "$cwd" env SB_RUNTEST_OPTIONS="--repeat 7 --warmup 0" FAKE_LOG="$log" TMPDIR="$tmp/t" python3 "$fake/bin/runtest.py" fake1 2 both 0 0 1
is "$(arg --repeat):$(arg --warmup)" "7:0" "SB_RUNTEST_OPTIONS come last: --repeat 7 --warmup 0 win"

# ---- will-it-scale's CSV, the title, failures ----
rm -f "$fake/bin/fake1.title"
run env FAKE_LOG="$log" FAKE_TITLE="$fake/bin/fake1.title" TMPDIR="$tmp/t" \
	sh -c 'cd "$1" && exec python3 ./runtest.py fake1 2 process 0 0 1' sh "$fake/bin"
is "$out" "tasks,processes,processes_idle,threads,threads_idle,linear
0,0,100,0,100,0
1,1000,1.50,0,0.00,1000" "will-it-scale's CSV: whole ops/s, idle with 2 decimals, 0 for a mode not run"
is "$(cat "$log.title")" "Fake one" "<test>.title is written before runtest.sh measures (the binary's --info description)"
run env FAKE_LOG="$log" FAKE_DESC="Fake one at 1 task" TMPDIR="$tmp/t" \
	sh -c 'cd "$1" && exec python3 ./runtest.py fake1 2 process 0 0 1' sh "$fake/bin"
is "$(cat "$fake/bin/fake1.title")" "Fake one at 1 task" "and rewritten after the run when the run's description is another"
rm -f "$log.args"
run at "$cwd" env FAKE_LOG="$log" SB_TITLE_DIR="$tmp/no/such/dir" python3 "$fake/bin/runtest.py" fake1 2 process 0 0 1
is "$rc" 3 "a title that cannot be written: exit 3"
like "$err" "^runtest.py: cannot write $tmp/no/such/dir/fake1.title: .*SB_TITLE_DIR" "saying so, and the way out"
[ ! -e "$log.args" ]
ok $? "before anything is measured"
mkdir "$tmp/titles"
run at "$cwd" env FAKE_LOG="$log" SB_TITLE_DIR="$tmp/titles" TMPDIR="$tmp/t" python3 "$fake/bin/runtest.py" fake1 2 process 0 0 1
is "$rc:$(cat "$tmp/titles/fake1.title" 2>/dev/null)" "0:Fake one" "SB_TITLE_DIR=DIR: the title goes there"
py fake1 2 process 0 0 1 >/dev/null
run at "$cwd" env FAKE_LOG="$log" FAKE_MODE=fail TMPDIR="$tmp/t" python3 "$fake/bin/runtest.py" fake1 2 process 0 0 1
is "$rc:$out" "1:" "a failed sweep: runtest.sh's exit 1 and no CSV"
is "$(ls -A "$tmp/t")" "" "runtest.py leaves nothing in TMPDIR"

# ---- will-it-scale's own forms: runtest.py <testcase>, runalltests ----
py fake1
ncpu=$(python3 -c 'import os; print(os.cpu_count())')
is "$rc:$(arg --points):$(arg --mode)" "0:$(seq -s, 1 "$ncpu"):all" "runtest.py <testcase>: every count from 1 to the $ncpu CPUs, both binaries"
is "$(arg --repeat) x ($(arg --warmup) + $(arg --duration))" "5 x (1.000 + 1.000)" "and will-it-scale's 5 s a point"
py fake1 2
is "$rc" 2 "two arguments: a usage error (exit 2)"
like "$err" "expected <testcase> alone or at least 6 arguments" "saying which forms there are"
py fake1 0 process 0 0 1
is "$rc" 2 "duration 0 (lkp's runtime=5 one-shot): a usage error, not a run without end"
# counts and durations are ASCII digits: Unicode digits (str.isdigit) are usage errors, never a traceback
for bad in '²' '٣' '１'; do
	py fake1 9 process 0 0 "$bad"
	is "$rc:$(printf '%s' "$err" | grep -c Traceback)" 2:0 "task count '$bad': a usage error (exit 2), no traceback"
done
like "$err" "task count '１': a whole number >= 1" "naming the count"
py fake1 '１' process 0 0 1
is "$rc" 2 "duration '１': a usage error"
py fake1 1_0 process 0 0 1
is "$rc" 2 "duration '1_0' (Python's digit separator): a usage error"
run env FAKE_LOG="$log" TMPDIR="$tmp/t" sh -c 'cd "$1" && exec ./runalltests' sh "$fake/bin"
is "$rc" 1 "runalltests: exit 1 when a testcase failed"
like "$err" "runalltests: failed \(no CSV written\): bad1$" "naming it"
is "$(cat "$fake/bin/fake1.csv" 2>/dev/null | sed -n 3p)" "1,1000,1.50,0,0.00,1000" "fake1.csv holds runtest.py fake1's CSV"
is "$(ls -A "$fake/bin" | grep -c -e '^bad1\.csv$' -e '^\.runalltests')" 0 "no bad1.csv, no temporary file left"
mkdir "$tmp/elsewhere"
run env FAKE_LOG="$log" TMPDIR="$tmp/t" sh -c 'cd "$1" && exec "$2"' sh "$tmp/elsewhere" "$fake/bin/runalltests"
[ -f "$tmp/elsewhere/fake1.csv" ] && [ -f "$tmp/elsewhere/fake1.title" ]
ok $? "runalltests from another directory: the binaries beside it, the CSVs and titles here"

# ---- signals: passed on to runtest.sh, with a limit; exit 130; nothing left ----
# sig_case NAME SIGNAL MODE CMD...: CMD in the background, SIGNAL once the stand-in runs
sig_case() {
	local name=$1 sig=$2 mode=$3 pid fpid
	shift 3
	rm -f "$log.pid" "$log.sig"
	# sh execs CMD: $! is CMD's pid
	FAKE_LOG="$log" FAKE_MODE=$mode TMPDIR="$tmp/t" SB_RUNTEST_PY_GRACE=1 \
		sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@" >"$tmp/sig.out" 2>"$tmp/sig.err" &
	pid=$!
	wait_until 20 test -s "$log.pid"
	ok $? "$name: the sweep started"
	kill "-$sig" "$pid"
	wait "$pid"
	rc=$?
	fpid=$(cat "$log.pid" 2>/dev/null)
	is "$rc" 130 "$name: SIG$sig stops it with exit 130"
	if [ "$mode" = sleep ]; then
		is "$(cat "$log.sig" 2>/dev/null)" "$sig" "$name: runtest.sh got SIG$sig"
	else
		like "$(cat "$tmp/sig.err")" "runtest.sh did not stop within 1 s of the signal: killed" "$name: a runtest.sh deaf to it is killed after the grace period"
	fi
	wait_until 5 sh -c "! kill -0 '$fpid' 2>/dev/null"
	ok $? "$name: no runtest.sh left measuring"
	is "$(ls -A "$tmp/t")" "" "$name: no temporary directory left"
}
sig_case "runtest.py" TERM sleep python3 "$fake/bin/runtest.py" fake1 9 process 0 0 1
sig_case "runtest.py" HUP sleep python3 "$fake/bin/runtest.py" fake1 9 process 0 0 1
# every signal a CI job or timeout(1) may send, not only a terminal's (timeout -s ALRM, SIGQUIT ...)
for sig in QUIT ALRM USR1 USR2 PIPE XCPU; do
	sig_case "runtest.py" "$sig" sleep python3 "$fake/bin/runtest.py" fake1 9 process 0 0 1
done
sig_case "runtest.py, runtest.sh deaf" TERM deaf python3 "$fake/bin/runtest.py" fake1 9 process 0 0 1
cwd=$tmp/elsewhere sig_case "runalltests" TERM sleep "$fake/bin/runalltests"
cwd=$tmp/elsewhere sig_case "runalltests" ALRM sleep "$fake/bin/runalltests"

# ---- make install-lkp: the tree lkp's will-it-scale directory is, moved where lkp unpacks it ----
case $B in /*) bb=$B ;; *) bb=$PWD/$B ;; esac
run make -s install-lkp BUILD="$bb" DESTDIR="$tmp/pkg/lkp/benchmarks/will-it-scale"
is "$rc" 0 "make install-lkp DESTDIR=... exits 0${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
mkdir -p "$tmp/lkp/benchmarks"
mv "$tmp/pkg/lkp/benchmarks/will-it-scale" "$tmp/lkp/benchmarks/"
wis=$tmp/lkp/benchmarks/will-it-scale
missing=''
for src in tests/*.c; do
	t=$(basename "$src" .c)
	if [ ! -x "$bb/bin/${t}_processes" ] && ! linux_only; then continue; fi
	(cd "$wis" && ls *"${t}_"* >/dev/null 2>&1 && [ -x "${t}_processes" ] && [ -x "${t}_threads" ]) || missing="$missing $t"
done
is "$missing" "" "every testcase passes lkp's check (ls *\"\${test}_\"*), both binaries at the top"
[ -x "$wis/runtest.py" ] && [ -x "$wis/runalltests" ]
ok $? "runtest.py and runalltests at the top"
run sh -c 'cd "$1" && SB_RUNTEST_OPTIONS="--warmup 0" exec python3 ./runtest.py getppid1 1 process 0 0 1' sh "$wis"
is "$rc" 0 "the moved tree's runtest.py runs a point${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
like "$(printf '%s\n' "$out" | sed -n 3p)" '^1,[1-9][0-9]*,[0-9.]+,0,0\.00,[1-9][0-9]*$' "and prints will-it-scale's row"
is "$(cat "$wis/getppid1.title" 2>/dev/null)" "getppid" "and getppid1.title"

# ---- lkp-tests' own run and parse (LKP_SRC: an lkp-tests checkout) ----
if [ -n "${LKP_SRC-}" ] && [ -f "$LKP_SRC/programs/will-it-scale/run" ]; then
	lkp_run() {	# lkp_run VAR=VALUE...: lkp's run script as a job runs it, on the tree above
		run env LKP_SRC="$LKP_SRC" BENCHMARK_ROOT="$tmp/lkp/benchmarks" suite=will-it-scale test=getppid1 \
			"$@" bash "$LKP_SRC/programs/will-it-scale/run"
		err=$(printf '%s\n' "$err" | grep -v 'ulimit: open files')	# lkp raises it where it may
	}
	lkp_run runtime=6 nr_task=1 mode=process SB_RUNTEST_OPTIONS="--warmup 0"
	is "$rc" 0 "lkp's run, one-shot (runtime=6 nr_task=1)${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
	like "$out" 'python3 \./runtest\.py getppid1 1 process 0 0 1$' "calls runtest.py getppid1 1 process 0 0 1"
	oneshot=$out
	lkp_run runtime=1 mode=process SB_RUNTEST_OPTIONS="--warmup 0 --duration 0.2 --repeat 2"
	is "$rc" 0 "lkp's run, a sweep (runtime=1, lkp's task counts)${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
	like "$out" 'python3 \./runtest\.py getppid1 5 process 0 0 1( [0-9]+)*$' "calls runtest.py getppid1 5 process 0 0 1 ..."
	sweep=$out
	# docs/LKP.md's PKGBUILD, its package() run as lkp's makepkg runs it (lkp's pkgbuild.sh sourced)
	sed -n '/^```bash$/,/^```$/p' docs/LKP.md | sed '1d;$d' >"$tmp/PKGBUILD"
	mkdir -p "$tmp/src"
	ln -s "$PWD" "$tmp/src/scalebench"
	run env LKP_SRC="$LKP_SRC" BUILD="$bb" bash -c 'srcdir=$1 pkgdir=$2 && . "$3" && package' sh \
		"$tmp/src" "$tmp/pkgdir" "$tmp/PKGBUILD"
	is "$rc" 0 "docs/LKP.md's package function runs under lkp's pkgbuild.sh${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
	(cd "$tmp/pkgdir/lkp/benchmarks/will-it-scale" 2>/dev/null && ls *"getppid1_"* >/dev/null 2>&1 && [ -x runtest.py ])
	ok $? "and fills lkp's \$pkgdir/lkp/benchmarks/will-it-scale (lkp's ls check passes, runtest.py there)"
	if command -v ruby >/dev/null && ruby -e "require 'active_support'" 2>/dev/null; then
		parsed=$(printf '%s\n' "$oneshot" | LKP_SRC=$LKP_SRC ruby "$LKP_SRC/programs/will-it-scale/parse" 2>&1)
		like "$parsed" '^per_process_ops: [1-9][0-9]*$' "lkp's parse reads the one-shot's output (per_process_ops)"
		like "$parsed" '^1\.processes: [1-9]' "and its rows"
		parsed=$(printf '%s\n' "$sweep" | LKP_SRC=$LKP_SRC ruby "$LKP_SRC/programs/will-it-scale/parse" 2>&1)
		like "$parsed" '^workload: [1-9][0-9]*$' "lkp's parse reads the sweep's output (workload)"
	else
		for _ in 1 2 3; do skip "lkp's parse: needs ruby and its active_support (ruby-activesupport)"; done
	fi
else
	for _ in 1 2 3 4 5 6 7 8 9; do skip "lkp's own run, parse and pkgbuild.sh: set LKP_SRC to an lkp-tests checkout (CI has none: no network)"; done
fi
plan "$_n"
exit "$_failed"
