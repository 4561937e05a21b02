#!/usr/bin/env bash
# runtest.py as lkp-tests runs it (build/bin, lkp's command line) and what lkp's tools do with its output:
# the testcase: line splits in two, header ^[a-z_,]+$, rows ^[0-9.,]+$, linear last, and per_process_ops,
# per_thread_ops, scalability and workload by lkp's rules equal the same figures from scalebench's summary.csv.
# With LKP_SRC (an lkp-tests checkout) and ruby, lkp's own parser reads the output too.
# sb-san: skip: runtest.py and its output by lkp-tests' rules: Python (its runs: runtest_sweep.t)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bindir=$(cd "$B/bin" && pwd)

# lkp_figures: lkp's will-it-scale parse rules over a CSV on stdin (header, then rows):
# "per_process_ops P per_thread_ops T scalability S workload W" (S "-" when lkp prints none)
lkp_figures() {
	awk -F, 'NR == 1 { next }
		$1 == 0 { next }
		{ p = $2 + 0; t = $4 + 0; lin = $NF + 0
		  if (p == 0 && t == 0) next
		  if (lin != 0 && $1 != 1) s = sprintf("%f", $2 / lin)
		  pp += p / $1; pt += t / $1; n++; w += p + t }
		END { printf "per_process_ops %d per_thread_ops %d scalability %s workload %d\n",
			n ? pp / n : 0, n ? pt / n : 0, s == "" ? "-" : s, w }'
}
# summary_csv FILE: its tasks and will-it-scale's five columns, numbers as they are
summary_six() { cut -d, -f1-6 "$1"; }

# same_figures GOT WANT NAME: the same figures, up to the truncation of whole ops/s (1 per row)
same_figures() {
	local bad
	bad=$(awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 2; i <= n; i += 2) {
			if (x[i] == "-" || y[i] == "-") { if (x[i] != y[i]) print x[i-1]; continue }
			d = x[i] - y[i]; if (d < 0) d = -d
			if (d > 1e-4 * (y[i] < 0 ? -y[i] : y[i]) && (x[i-1] == "scalability" || d > 16)) print x[i-1] } }')
	is "$bad" "" "$3"
	[ -z "$bad" ] || { echo "#   got:  $1"; echo "#   want: $2"; }
}

# lkp_start TEST MODE TASKS...: runtest.py in the binaries' directory, in the background, its run
# in $tmp/TEST.r; lkp_done TEST (after wait) sets rc, out, err and r (that directory). Three runs
# of 100 ms samples a point (lkp passes its own duration first: the last --duration wins): the
# checks are of the output's form and of figures computed two ways from the same runs.
lkp_start() {
	local t=$1 m=$2
	shift 2
	rm -rf "$tmp/$t.r" "$bindir/$t.title"
	(
		SB_RESULTS="$tmp/$t.r" SB_RUNTEST_OPTIONS="--warmup 0 --repeat 3 --period-ms 100 --duration 0.3" \
			sh -c 'cd "$1" && shift && exec python3 ./runtest.py "$@"' sh "$bindir" "$t" 1 "$m" 0 0 "$@" \
			>"$tmp/$t.out" 2>"$tmp/$t.err"
		echo $? >"$tmp/$t.rc"
	) &
}
lkp_done() { rc=$(<"$tmp/$1.rc") out=$(<"$tmp/$1.out") err=$(<"$tmp/$1.err") r=$tmp/$1.r; }

check_output() {	# check_output NAME: the last lkp_done's stdout by lkp's rules
	local name=$1 hdr sum
	hdr=$(printf '%s\n' "$out" | head -n 1)
	is "$hdr" "tasks,processes,processes_idle,threads,threads_idle,linear" "$name: will-it-scale's header"
	like "$hdr" '^[a-z_,]+$' "$name: the header matches lkp's ^[a-z_,]+$"
	is "${hdr##*,}" linear "$name: linear is the last field"
	is "$(printf '%s\n' "$out" | sed -n 2p)" "0,0,100,0,100,0" "$name: will-it-scale's 0 row"
	is "$(printf '%s\n' "$out" | sed 1d | grep -cvE '^[0-9.,]+$')" 0 "$name: every row matches lkp's ^[0-9.,]+$"
	sum=$(ls "$r"/*/*/summary.csv 2>/dev/null | head -n 1)
	if [ -z "$sum" ]; then
		ok 1 "$name: the run's summary.csv is there"
		return
	fi
	# lkp's figures from what it reads equal the same rules over scalebench's own numbers
	# (lkp reads whole numbers: each row may lose up to 1 op/s to the truncation)
	same_figures "$(printf '%s\n' "$out" | lkp_figures)" "$(summary_six "$sum" | lkp_figures)" \
		"$name: per_process_ops, per_thread_ops, scalability, workload as lkp computes them equal scalebench's"
	if [ -n "${LKP_SRC-}" ] && [ -x "$LKP_SRC/programs/will-it-scale/parse" ] && command -v ruby >/dev/null; then
		printf '%s\n' "$out" | LKP_SRC=$LKP_SRC ruby "$LKP_SRC/programs/will-it-scale/parse" >"$tmp/parsed" 2>&1
		ok $? "$name: lkp's own parser reads it"
		like "$(cat "$tmp/parsed")" "^per_process_ops: $(printf '%s\n' "$out" | lkp_figures | awk '{ print $2 }')$" \
			"$name: lkp's parser finds the same per_process_ops"
	else
		skip "$name: lkp's own parser: needs LKP_SRC (an lkp-tests checkout) and ruby"
	fi
}

[ -x "$bindir/runtest.py" ]
ok $? "make puts runtest.py beside the binaries"

# unix1 at 2 tasks alone (2 cores), then tlb_flush2 and brk2 at 1 task side by side.
lkp_start unix1 both 1 2
wait
if linux_only; then lkp_start tlb_flush2 process 1; fi
lkp_start brk2 thread 1
lkp_done unix1
is "$rc" 0 "runtest.py unix1 1 both 0 0 1 2 exits 0${err:+: $(printf '%s' "$err" | tail -n 2 | tr '\n' ' ')}"
check_output "unix1 both"
is "$(cat "$bindir/unix1.title" 2>/dev/null)" "unix domain socket read/write" "unix1.title holds will-it-scale's title"
is "$(awk -F: '{ print NF }' "$bindir/unix1.title" 2>/dev/null)" 1 "and no ':' (lkp splits the testcase: line on it)"
row2=$(printf '%s\n' "$out" | grep '^2,')
like "$row2" '^2,[1-9][0-9]*,[0-9.]+,[1-9][0-9]*,[0-9.]+,[1-9][0-9]*$' "both modes measured at 2 tasks"

# The modes lkp's jobs use where will-it-scale allows them: tlb_flush as processes, brk2 as threads.
wait
if linux_only; then
	lkp_done tlb_flush2
	is "$rc" 0 "runtest.py tlb_flush2 ... process runs (lkp's jobs do)"
	check_output "tlb_flush2 process"
	like "$(printf '%s\n' "$out" | sed -n 3p)" '^1,[1-9][0-9]*,[0-9.]+,0,0\.00,[1-9][0-9]*$' "tlb_flush2: processes measured, threads 0 as will-it-scale prints"
else
	skip "tlb_flush2: a Linux-only testcase, not in this build"
fi
lkp_done brk2
is "$rc" 0 "runtest.py brk2 ... thread runs (lkp's jobs do)"
check_output "brk2 thread"
like "$(printf '%s\n' "$out" | sed -n 3p)" '^1,0,0\.00,[1-9][0-9]*,[0-9.]+,[1-9][0-9]*$' "brk2: threads measured, processes 0"

# lkp's command line, checked as lkp would need: wrong arguments are usage errors.
run python3 "$bindir/runtest.py" unix1 1 sideways 0 0 1
is "$rc" 2 "an unknown mode is a usage error (exit 2)"
like "$err" "try 'runtest.py --help'" "with the usual hint"
run python3 "$bindir/runtest.py" unix1 1 both
is "$rc" 2 "too few arguments: exit 2"
rm -f "$bindir"/*.title
plan "$_n"
exit "$_failed"
