#!/usr/bin/env bash
# sb-bisect's guards: each signal runtest.sh handles stops the build's whole process group (exit 130), a build deaf to SIGTERM is killed with its group after the grace, one that reads the terminal is killed, measure's stdout, ends that are not complete sweeps of one testcase refused, options refused before anything runs, a sweep that does not load never logged, a report over no steps, a --log or step log that is a FIFO or holds a NUL byte, a report that cannot be written, the report's verdicts with the drift between sweeps on a fixture bisect (and --drift 0's, and bad --drift values).
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-bisect" "$SB_BUILD/bin/sb-history" "$SB_BUILD/bin/getppid1_processes"
SB=$PWD
case $SB_BUILD in /*) BB=$SB_BUILD ;; *) BB=$PWD/$SB_BUILD ;; esac
bisect=$BB/bin/sb-bisect
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
unset SB_BISECT_GRACE_S SB_RUNTEST

# A build's sleeps (pid.* files) that a failed check left behind: ended by their ids.
leftovers() {
	local f p
	for f in "$T"/pid.*; do
		[ -f "$f" ] || continue
		p=$(cat "$f")
		if grep -qa '^sleep' "/proc/$p/cmdline" 2>/dev/null; then kill -KILL "$p" 2>/dev/null; fi
	done
}
trap 'leftovers; rm -rf -- "$T"' EXIT

# alive PIDFILE: the sleep it names still runs (not a zombie)
alive() {
	local p
	p=$(cat "$1" 2>/dev/null) || return 1
	[ -n "$p" ] && grep -qa '^sleep' "/proc/$p/cmdline" 2>/dev/null &&
		! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null
}

git init -q "$T/repo" && echo one >"$T/repo/f" && git -C "$T/repo" add f && git -C "$T/repo" commit -q -m one
cd "$T/repo" || exit 1
common=(--host --results "$T/res" --runtest "$SB/runtest.sh")
shape=(getppid1 --mode processes --points 1 --duration 0.2 --period-ms 100 --repeat 2)

# ---- each signal runtest.sh handles, during the build: the build's group ended, exit 130 ----
for s in INT TERM HUP QUIT USR1 USR2 ALRM PIPE VTALRM PROF XCPU XFSZ; do
	"$bisect" measure "${common[@]}" --build "sleep 39 & echo \$! >$T/pid.$s; wait" -- "${shape[@]}" \
		>/dev/null 2>"$T/err.$s" &
	bpid=$!
	for _ in $(seq 1 200); do [ -s "$T/pid.$s" ] && break; nap 0.05; done
	kill -"$s" "$bpid"
	rc=0; wait "$bpid" || rc=$?
	is "$rc" 130 "SIG$s during the build: exit 130"
	ok "$(alive "$T/pid.$s"; [ $? != 0 ]; echo $?)" "SIG$s: no process of the build left"
	like "$(cat "$T/err.$s")" "interrupted during the build" "SIG$s: it says so"
done

# ---- a build deaf to SIGTERM: SIGKILL to its whole group after the grace ----
SB_BISECT_GRACE_S=1 "$bisect" measure "${common[@]}" --build "trap '' TERM; sleep 98 & echo \$! >$T/pid.deaf; wait" \
	-- "${shape[@]}" >/dev/null 2>"$T/err.deaf" &
bpid=$!
for _ in $(seq 1 200); do [ -s "$T/pid.deaf" ] && break; nap 0.05; done
kill -TERM "$bpid"
rc=0; wait "$bpid" || rc=$?
is "$rc" 130 "a build that ignores SIGTERM: exit 130 after the grace"
ok "$(alive "$T/pid.deaf"; [ $? != 0 ]; echo $?)" "its children are gone too (SIGKILL to the group)"
like "$(cat "$T/err.deaf")" "did not end 1 s after SIGTERM: SIGKILL to its process group" "it says so"

# ---- a build that reads the terminal is stopped by it (SIGTTIN, its own group): killed, not waited for ----
if command -v script >/dev/null 2>&1; then
	rc=0; script -qec "$bisect measure --host --results $T/res --build 'read x </dev/tty' -- getppid1" /dev/null \
		</dev/null >"$T/tty" 2>&1 || rc=$?
	is "$rc" 1 "a build that reads the terminal: the build failed, exit 1 (not a hang)"
	like "$(cat "$T/tty")" "the build stopped \(SIGTTIN" "it says why"
else
	tap_n=$((tap_n + 2)); echo "ok $((tap_n - 1)) # skip no script(1)"; echo "ok $tap_n # skip no script(1)"
fi

# ---- an end, and ends that are not complete sweeps of one testcase ----
# (a build that prints, and a relative --results: stdout is the sweep's absolute path alone)
rc=0; "$bisect" measure --host --results res --runtest "$SB/runtest.sh" --build 'echo build-noise' -- "${shape[@]}" \
	>"$T/end" 2>"$T/err" || rc=$?
is "$rc" 0 "measure an end: exit 0"
[ "$rc" = 0 ] || diag_file "$T/err"
end=$(cat "$T/end")
is "$end" "$T/repo/res/getppid1/${end##*/}" "measure's stdout: the run directory alone, absolute"
like "$(cat "$T/err")" "build-noise" "the build's output on stderr"
variant() {	# variant NAME SED: a copy of the end, its meta edited
	cp -r "$end" "$T/$1"
	sed -i "$2" "$T/$1/meta"
}
variant failed 's/^status=.*/status=failed/'
variant running "s/^status=.*/status=running/; s/^sweep_pid=.*/sweep_pid=$$/"
variant other 's/^test=.*/test=dup1/'
step=("$bisect" "${common[@]}" --point processes:1)
for v in failed running; do
	rc=0; "${step[@]}" --good "$T/$v" --bad "$end" >/dev/null 2>"$T/err" || rc=$?
	is "$rc" 128 "a $v good end: exit 128"
	like "$(cat "$T/err")" "$T/$v: an? [a-z]+ sweep \\(meta's status\\), not a complete one" "a $v end is named"
done
rc=0; "${step[@]}" --good "$end" --bad "$T/other" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a bad end of another testcase: exit 128"
like "$(cat "$T/err")" "a sweep of dup1, not of getppid1" "it names both testcases"
# ends of several sweeps (--good and --bad given more than once): each loaded and checked
variant copy 's/^x=//'	# (copies of the end: sweeps at its level)
variant copy2 's/^x=//'
rc=0; "${step[@]}" --good "$end" --good "$T/failed" --bad "$T/copy" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a good end's second sweep failed: exit 128"
like "$(cat "$T/err")" "$T/failed: a failed sweep" "the second sweep is named"
rc=0; "${step[@]}" --good "$end" --good "$end" --bad "$T/other" >/dev/null 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")" "128/sb-bisect: $end: given twice as a sweep of the ends" "a sweep given twice: refused"
rc=0; "${step[@]}" --good "$end" --good "$T/copy" --bad "$T/copy2" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "ends of 2 and 1 sweeps at one level: exit 128"
like "$(cat "$T/err")" "no difference: .* 2 and 1 sweeps detect" "both good sweeps are in the ends' test"

# ---- options refused before anything runs ----
cat >"$T/fake-runtest" <<EOF
#!/bin/sh
# a runtest.sh that ran (the mark) and printed a directory that is no sweep
touch "$T/ran"
echo "$T/nowhere"
EOF
chmod +x "$T/fake-runtest"
rc=0; "$bisect" measure --host --results "$T/r	x" --runtest "$T/fake-runtest" -- getppid1 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 2 "measure --results with a tab: exit 2"
ok "$([ ! -e "$T/ran" ]; echo $?)" "before any sweep"
rc=0; "${step[@]}" --results "$T/r
x" --good "$end" --bad "$end" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a step's --results with a newline: exit 128"
like "$(cat "$T/err")" "--results: a directory name with a control character" "it says why"
rc=0; "${step[@]}" --max-runs 2.5 --good "$end" --bad "$end" >/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "--max-runs 2.5: exit 128"
like "$(cat "$T/err")" "--max-runs '2.5': a whole number" "a whole number"
rc=0; "$bisect" --kernel "$T/repo/f" --results "$T/res" --point processes:1 --good "$end" --bad "$end" \
	>/dev/null 2>"$T/err" || rc=$?
is "$rc" 128 "a step with --kernel and no --build: exit 128"
like "$(cat "$T/err")" "--kernel .* needs --build CMD" "every step would boot the same image"

# ---- what runtest.sh printed is checked before it goes into the step log ----
rc=0; "$bisect" measure --host --results "$T/res" --runtest "$T/fake-runtest" -- getppid1 >/dev/null 2>"$T/err" || rc=$?
is "$rc" 3 "a printed directory that is no sweep: exit 3"
like "$(cat "$T/err")" "not a complete sweep \\($T/nowhere\\)" "it names it"
is "$(cat "$T/res/bisect-steps.tsv" 2>/dev/null | grep -c nowhere)" 0 "and it is not in the step log"

# ---- a report over no steps ----
printf 'git bisect start\n# bad: [%s] one\n' "$(git rev-parse HEAD)" >"$T/log"
rc=0; "$bisect" report --results "$T/res" --log "$T/log" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc" 0 "a report over no steps: exit 0"
like "$(cat "$T/rep")" "Monotonic: - \\(no step" "it does not say 'Monotonic: yes'"

# ---- the report's verdicts with the drift between sweeps (a fixture bisect: no measuring) ----
# fsweep DIR P1 P2 T1 T2: a sweep of getppid1 at 1 task, 3 runs of 2 samples, P1/P2 (threads: T1/T2) x 1e6
# ops/s in the first and second sample of each run, the runs 0.1% apart (the runs hold still; the sweep moves)
fsweep() {
	mkdir -p "$1"
	fsn=$((fsn + 1))
	printf '%s\n' test=getppid1 "label=${1##*/}" host=fixture status=complete "run_id=${1##*/}-20260301T000000" \
		"date=2026-03-01T00:$(printf %02d "$fsn"):00Z" kernel=6.1.0 repeat=3 params= period_ms=100 duration=0.2 warmup=0 \
		placement=cores >"$1/meta"
	awk -v p="$2" -v t="$3" 'BEGIN {
		print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms"
		for (k = 1; k <= 2; k++) for (r = 1; r <= 3; r++) for (s = 1; s <= 2; s++) {
			v = (k == 1 ? p : t) * 1000000 * (1 + 0.001 * (r - 2))
			printf "%s,1,%d,measure,%d,%.6f,%d,%.6f,0,0,10,10,0.1\n", k == 1 ? "processes" : "threads", r, s,
				s * 0.1, v / 10, v
		}
	}' >"$1/samples.csv"
}
F=$T/fix
fsn=0
git init -q "$F/repo"
for i in 1 2 3 4 5; do git -C "$F/repo" commit -q --allow-empty -m "commit $i"; done
fc() { git -C "$F/repo" rev-parse "HEAD~$((5 - $1))"; }
mkdir -p "$F/res"
fsweep "$F/good" 1.000 1.000; fsweep "$F/bad" 0.900 0.900
# commit 2 (the parent, called good) 2.7% below the good end in sweeps that spread 0.8%; commit 3 (the first
# bad) at the bad end's level; at threads:1 the first bad commit 2% below its parent, within that spread
fsweep "$F/s2a" 0.975 1.000; fsweep "$F/s2b" 0.965 0.980; fsweep "$F/s2c" 0.980 1.010
fsweep "$F/s3a" 0.905 0.985; fsweep "$F/s3b" 0.895 0.965
{
	for s in 3:s3a 3:s3b 2:s2a 2:s2b 2:s2c; do
		printf 'sweep\t%s\tprocesses:1\t%s\t%s\t%s\n' "$(fc "${s%%:*}")" "$F/${s#*:}" "$F/good" "$F/bad"
		case $s in 3:s3b) v=bad ;; 2:s2c) v=good ;; *) continue ;; esac
		printf 'verdict\t%s\tprocesses:1\t%s\t6\t%s\t0.%s\t%s\t%s\tsb-bisect --point processes:1\n' \
			"$(fc "${s%%:*}")" "$v" "${s%%:*}000000" "${s%%:*}" "$F/good" "$F/bad"
	done
} >"$F/res/bisect-steps.tsv"
{
	printf '# bad: [%s] commit 5\n# good: [%s] commit 1\n' "$(fc 5)" "$(fc 1)"
	printf "git bisect start '%s' '%s'\n" "$(fc 5)" "$(fc 1)"
	printf '# bad: [%s] commit 3\ngit bisect bad %s\n# good: [%s] commit 2\ngit bisect good %s\n' \
		"$(fc 3)" "$(fc 3)" "$(fc 2)" "$(fc 2)"
	printf '# first bad commit: [%s] commit 3\n' "$(fc 3)"
} >"$F/log"
cd "$F/repo" || exit 1
frep() { rc=0; SB_HISTORY= "$bisect" report --results "$F/res" --log "$F/log" "$@" >"$T/rep" 2>"$T/err" || rc=$?; }
frep
is "$rc/$(cat "$T/err")" "0/" "the report with the drift (the default): exit 0, nothing on stderr"
rep=$(cat "$T/rep")
is "$(grep -c 'drift between sweeps: ' "$T/rep" | head -n 1)/$(grep -c '^Machine drift between sweeps: ' "$T/rep")" "1/1" \
	"the drift named once"
like "$rep" "Machine drift between sweeps: \+/-[0-9.]+% sd, the default's 2 and 5 sweeps of this bisect's steps, [0-9]+ df" \
	"the default, moderated by this bisect's 5 sweeps by commit"
like "$rep" "$(fc 2 | cut -c1-12)  good .* at its end's level: yes \(p = " \
	"commit 2's sweeps at the good end's level, the drift allowed (the runs alone say NO)"
like "$rep" "Monotonic: yes: every step's sweeps" "so the bisect was monotonic"
like "$rep" "At processes:1 the ends differ by -10.00% \(worse, p = [0-9.e-]+\), and a sweep each \(3 and 3 runs\) detects" \
	"the ends' change with the drift"
like "$rep" "processes +1 .* -[0-9.]+%.* [0-9.]+% worse" "at the target, the first bad commit worse than its parent"
like "$rep" "threads +1 +996667 +975000 .*no significant change" \
	"threads:1: 2% within the sweeps' spread, each commit's sweeps a side (3 and 2): no significant change"
frep --format markdown
like "$(cat "$T/rep")" $'\n\\*\\*Machine drift between sweeps:\\*\\* \\+/-' "markdown: the drift named in bold"
like "$(cat "$T/rep")" '\| threads \| 1 \|.*\| no significant change \|' "markdown: the row in words"
frep --drift 0
rep0=$(cat "$T/rep")
is "$rc/$(grep -c 'drift' "$T/rep")" "0/0" "--drift 0: no drift named"
like "$rep0" "$(fc 2 | cut -c1-12)  good .* at its end's level: NO \(p = " "--drift 0: the runs alone call commit 2 off its level"
like "$rep0" "Monotonic: NO: a step's runs differ" "and the bisect not monotonic, as before the drift"
like "$rep0" "and their runs \(3 and 3\) detect" "the ends' line of the runs"
like "$rep0" "threads +1 .*[0-9.]+% worse" "and the pooled runs call threads:1 worse"
# $SB_HISTORY: the testbed's history of 7 sweeps, and the ends (left out of the figure, as a step leaves them)
i=0
for l in 1.00 1.02 0.99 1.01 0.98 1.00 1.03; do i=$((i + 1)); fsweep "$F/h$i" "$l" "$l"; done
"$BB/bin/sb-history" add --db "$F/h.db" "$F"/h?/ "$F/good" "$F/bad" >/dev/null 2>"$T/err"
is "$?/$(cat "$T/err")" "0/" "a history of 9 sweeps"
frep
like "$(cat "$T/rep")" "Machine drift between sweeps: " "without \$SB_HISTORY"
SB_HISTORY=$F/h.db "$bisect" report --results "$F/res" --log "$F/log" >"$T/rep" 2>"$T/err"
like "$(cat "$T/rep")" "Machine drift between sweeps: \+/-[0-9.]+% sd, 7 sweeps of this series .*; and 5 sweeps of this bisect's steps" \
	"with it: the history's 7 sweeps (the ends left out), moderated by the bisect's"
# an $SB_HISTORY that is no history: said on stderr in one line, the report made with the default
printf 'not a database\n' >"$T/nothist.db"
rc=0
SB_HISTORY=$T/nothist.db "$bisect" report --results "$F/res" --log "$F/log" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(wc -l <"$T/err")" "0/1" "\$SB_HISTORY not a history: exit 0, one line on stderr"
like "$(cat "$T/err")" "^sb-bisect: .SB_HISTORY .*nothist.db: .*: the drift between sweeps not learned from it\$" \
	"naming the file and why"
like "$(cat "$T/rep")" "Machine drift between sweeps: \+/-[0-9.]+% sd, the default.s 2 and 5 sweeps of this bisect.s steps" "and the report takes the default, moderated by its own sweeps"
frep --drift 1.5
like "$(cat "$T/rep")" "Machine drift between sweeps: \+/-1.5% sd, given \(--drift\)" "--drift 1.5: given, not moderated"
for bad in x -1 101 ''; do
	frep --drift "$bad"
	is "$rc/$(wc -l <"$T/err")/$(wc -c <"$T/rep")" "2/1/0" "report --drift '$bad': exit 2, one line, no report"
done
# the option engine's own words (cli/: no callback of sb-bisect's)
frep --nope
is "$rc/$(cat "$T/err")/$(wc -c <"$T/rep")" "2/sb-bisect: unknown option '--nope'/0" "report --nope: exit 2, named"
rc=0
"$bisect" report --log >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")" "2/sb-bisect: --log needs a value" "report --log without its value: exit 2, named"
# --log naming a FIFO waited for a writer for good; a NUL byte cut the log short unsaid
mkfifo "$T/fifo"
rc=0
timeout 10 "$bisect" report --results "$F/res" --log "$T/fifo" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(wc -l <"$T/err")/$(wc -c <"$T/rep")" "2/1/0" "report --log FIFO without a writer: exit 2 at once, one line, no report"
like "$(cat "$T/err")" "fifo: cannot read the bisect log: empty" "... naming the file and why"
rc=0
"$bisect" report --results "$F/res" --log <(cat "$F/log") >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(head -n 1 "$T/rep")" "0/sb-bisect report" "report --log <(...): a pipe is still read"
rc=0
"$bisect" report --results "$F/res" --log /dev/zero >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")" "2/sb-bisect: /dev/zero: cannot read the bisect log: a device or socket, not a file or a pipe" \
	"report --log /dev/zero: exit 2, named"
# the report onto a full disk: exit 0, the report lost
if [ -w /dev/full ]; then
	rc=0
	"$bisect" report --results "$F/res" --log "$F/log" >/dev/full 2>"$T/err" || rc=$?
	is "$rc/$(cat "$T/err")" "3/sb-bisect: cannot write the output: No space left on device" "report onto a full disk: exit 3, said"
else
	tap_n=$((tap_n + 1)); echo "ok $tap_n # skip no /dev/full"
fi
# the step log (bisect-steps.tsv) a FIFO: every step and the report waited for a writer for good
mkdir "$T/fres"
mkfifo "$T/fres/bisect-steps.tsv"
rc=0
timeout 10 "$bisect" report --results "$T/fres" --log "$F/log" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")/$(wc -c <"$T/rep")" "2/sb-bisect: $T/fres/bisect-steps.tsv: not a regular file (a FIFO, device or socket is not read)/0" \
	"report: a FIFO as the step log: exit 2 at once, named"
rm "$T/fres/bisect-steps.tsv"
printf 'sweep\t\0\n' >"$T/fres/bisect-steps.tsv"
rc=0
"$bisect" report --results "$T/fres" --log "$F/log" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")" "2/sb-bisect: $T/fres/bisect-steps.tsv: a NUL byte: the file is damaged" \
	"report: a NUL byte in the step log: exit 2, named"
{ head -n 1 "$F/log"; printf '\0'; tail -n +2 "$F/log"; } >"$T/nul.log"
rc=0
"$bisect" report --results "$F/res" --log "$T/nul.log" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc/$(cat "$T/err")/$(wc -c <"$T/rep")" "2/sb-bisect: $T/nul.log: cannot read the bisect log: a NUL byte (not a git bisect log)/0" \
	"report --log with a NUL byte: exit 2, named"
done_testing
