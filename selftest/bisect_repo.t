#!/usr/bin/env bash
# sb-bisect under git bisect run: a 16-commit repository of a clock-paced testcase whose rate drops 10% at commit 11, ends measured with runtest.sh's default warmup, a broken build skipped, ends without a difference refused, SIGINT mid-step and resume, the report, reuse keyed on the ends, a kept sweep gone.
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/sb-bisect" "$SB_BUILD/libscalebench.a" "$SB_BUILD/obj/runner/mode_processes.o" \
	"$SB_BUILD/obj/runner/mode_threads.o"
SB=$PWD
case $SB_BUILD in /*) BB=$SB_BUILD ;; *) BB=$PWD/$SB_BUILD ;; esac
bisect=$BB/bin/sb-bisect
export SB_MACHINE_BUSY_PCT=101 SB_MACHINE_PROBE_MS=10 SB_MACHINE_REFERENCE_MS=0 SB_MACHINE_STEADY_MS=200 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t

# The testcase at commit I: one operation every 100 us (110 us from commit 11 on: 10% more time an
# operation), each waiting for its absolute deadline, so its rate is the clock's, not the CPU's.
testcase_at() {
	local period=100000
	[ "$1" -lt 11 ] || period=110000
	cat <<EOC
/* paceop: clock-paced operations (commit $1 of the bisect selftest) */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include "testcase.h"

#define PERIOD_NS $period

char *testcase_description = "clock-paced operations";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct timespec next;
	int e;

	(void)nr;
	if (clock_gettime(CLOCK_MONOTONIC, &next) < 0)
		sb_fatal("clock_gettime");
	for (;;) {
		next.tv_nsec += PERIOD_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)) == EINTR)
			;
		if (e)
			sb_fatalx("clock_nanosleep: error %d", e);
		sb_count(iterations);
	}
}
EOC
}

# The repository: commit BROKEN (git's first pick between 1 and 16) does not compile.
broken=8
make_repo() {
	local i
	git init -q "$T/repo"
	cat >"$T/repo/Makefile" <<'EOM'
# the testcase against scalebench's harness (SB: a scalebench checkout, B: its build)
bin/paceop_processes bin/paceop_threads: paceop.c
	mkdir -p bin
	$(CC) -std=gnu11 -O2 -pthread $(SAN) -I$(SB)/runner/include -o bin/paceop_processes paceop.c \
		$(B)/obj/runner/mode_processes.o $(B)/libscalebench.a $$(pkg-config --libs hwloc) -lm
	$(CC) -std=gnu11 -O2 -pthread $(SAN) -I$(SB)/runner/include -o bin/paceop_threads paceop.c \
		$(B)/obj/runner/mode_threads.o $(B)/libscalebench.a $$(pkg-config --libs hwloc) -lm
EOM
	printf 'bin/\n' >"$T/repo/.gitignore"
	for i in $(seq 1 16); do
		testcase_at "$i" >"$T/repo/paceop.c"
		if [ "$i" = "$broken" ]; then echo 'this does not compile' >>"$T/repo/paceop.c"; fi
		git -C "$T/repo" add -A && git -C "$T/repo" commit -q -m "commit $i"
	done
}
make_repo
sha() { git -C "$T/repo" log --all --format=%H --grep="^commit $1\$"; }
san=''
[ -z "${SB_SAN-}" ] || san="SAN=-fsanitize=$SB_SAN"
build="make -s SB=$SB B=$BB $san"
cd "$T/repo" || exit 1
common=(--host --build "$build" --tests-dir bin --results "$T/res" --runtest "$SB/runtest.sh")
# runtest.sh's default warmup (meta: warmup=auto, which each step hands back to runtest.sh), as docs/BISECT.md
shape=(paceop --mode processes --points 1 --duration 0.3 --period-ms 100)

# ---- the ends: commit 1 and commit 16, measured by sb-bisect measure ----
git checkout -q "$(sha 1)"
rc=0; "$bisect" measure "${common[@]}" -- "${shape[@]}" --repeat 3 >"$T/good" 2>"$T/err" || rc=$?
is "$rc" 0 "measure the good end (commit 1): exit 0"
good=$(cat "$T/good")
is "$(grep '^warmup=' "$good/meta" 2>/dev/null)" warmup=auto "measured with the default (steady-state) warmup"
like "$good" "/paceop/bisect-$(sha 1 | cut -c1-12)-" "its sweep is labelled by the commit"
git checkout -q "$(sha 16)"
rc=0; "$bisect" measure "${common[@]}" -- "${shape[@]}" --repeat 3 >"$T/bad" 2>>"$T/err" || rc=$?
is "$rc" 0 "measure the bad end (commit 16): exit 0"
bad=$(cat "$T/bad")
[ "$rc" = 0 ] || diag_file "$T/err"

# ---- ends that do not differ: refused, exit 128, git bisect run stops ----
git checkout -q "$(sha 1)"
"$bisect" measure "${common[@]}" -- "${shape[@]}" --repeat 3 >"$T/good2" 2>>"$T/err"
git bisect start "$(sha 16)" "$(sha 1)" >/dev/null
rc=0; git bisect run "$bisect" "${common[@]}" --good "$good" --bad "$(cat "$T/good2")" --point processes:1 \
	>"$T/run0" 2>&1 || rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "git bisect run stops when the ends do not differ (exit $rc)"
like "$(cat "$T/run0")" "no difference: at processes:1 .* refusing to bisect on noise" "sb-bisect says why"
like "$(cat "$T/run0")" "exit code 128" "git saw exit 128"
is "$(git bisect log | grep -c '^git bisect \(good\|bad\|skip\)')" 0 "no commit was marked"
git bisect reset >/dev/null 2>&1

# ---- the bisect: commit 11, the broken build skipped ----
git bisect start "$(sha 16)" "$(sha 1)" >/dev/null
is "$(git rev-parse HEAD)" "$(sha $broken)" "git's first pick is the broken commit $broken"
step=("$bisect" "${common[@]}" --good "$good" --bad "$bad" --point processes:1)
# SIGINT to sb-bisect while its first sweep runs (the build failed at $broken: skipped, so the second step)
git bisect run "${step[@]}" >"$T/run1" 2>&1 &
gpid=$!
wait_sweep() { pgrep -f -- "$T/repo/bin/paceop_processes" >/dev/null; }
for _ in $(seq 1 600); do wait_sweep && break; nap 0.1; done
spid=$(pgrep -f -- "^$bisect --host --build" | head -n 1)	# sb-bisect, not git (its command line has it too)
[ -n "$spid" ] && kill -INT "$spid"
rc=0; wait "$gpid" || rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "SIGINT: git bisect run stops (exit $rc)"
like "$(cat "$T/run1")" "interrupted at .*'git bisect run .*' resumes it" "it says how to resume"
like "$(cat "$T/run1")" "exit code 130" "git saw exit 130"
for _ in $(seq 1 100); do pgrep -f -- "$T/repo/bin/" >/dev/null || break; nap 0.1; done
is "$(pgrep -f -- "$T/repo/bin/" | wc -l)" 0 "no runner left"
is "$(find "$T/res" -name '*.tmp' | wc -l)" 0 "no half-written file"
like "$(git bisect log | grep -c '^git bisect skip')" '^1$' "the bisect state: the broken commit skipped, nothing else marked"
rc=0; git bisect run "${step[@]}" >"$T/run2" 2>&1 || rc=$?
is "$rc" 0 "git bisect run again resumes and ends: exit 0"
like "$(cat "$T/run2")" "$(sha 11) is the first bad commit" "the first bad commit is commit 11"
n=$(git bisect log | grep -c '^git bisect \(good\|bad\|skip\)')
ok "$([ "$n" -le 6 ]; echo $?)" "in $n steps (at most 6)"
like "$(grep -c 'the build failed at' "$T/run1" "$T/run2" | awk -F: '{ s += $2 } END { print s }')" '^1$' \
	"the broken build was reported once"

# ---- the report ----
rc=0; "$bisect" report --results "$T/res" >"$T/rep" 2>"$T/err" || rc=$?
is "$rc" 0 "sb-bisect report: exit 0"
like "$(cat "$T/rep")" "First bad commit: $(sha 11) commit 11" "names the first bad commit"
like "$(cat "$T/rep")" "Its parent: +$(sha 10)" "and its parent"
like "$(cat "$T/rep")" "processes +1 .*[0-9.]+% worse" "the point side by side, in words"
like "$(cat "$T/rep")" "Monotonic: yes" "the change was monotonic"
like "$(cat "$T/rep")" "git bisect run .*sb-bisect .*--point processes:1" "the command that reproduces it"
git bisect log >"$T/log"
git bisect reset >/dev/null 2>&1
rc=0; "$bisect" report --results "$T/res" --log "$T/log" --format markdown >"$T/rep.md" 2>"$T/err" || rc=$?
is "$rc" 0 "the report from a saved git bisect log, markdown: exit 0"
like "$(cat "$T/rep.md")" '\| processes \| 1 \|.*worse \|' "a markdown table row in words"

# ---- reuse: keyed on the ends; a kept sweep that no longer loads is left out ----
git checkout -q "$(sha 11)"
log=$T/res/bisect-steps.tsv
sweeps() { grep -c '^sweep' "$log"; }
n0=$(sweeps)
rc=0; "${step[@]}" >/dev/null 2>"$T/again" || rc=$?
is "$rc" 1 "the first bad commit again, the same ends: bad"
like "$(cat "$T/again")" "reusing " "from its kept sweeps"
is "$(sweeps)" "$n0" "nothing measured"
# the good end as two sweeps (commit 1 measured twice): the same verdict from the kept sweeps
rc=0; "${step[@]}" --good "$(cat "$T/good2")" >/dev/null 2>"$T/two" || rc=$?
is "$rc" 1 "ends of 2 and 1 sweeps: the first bad commit is bad"
like "$(cat "$T/two")" "reusing " "its sweeps kept (the bisect is keyed on each end's first sweep)"
# a command line with a tab (and an escape) still goes into the step log, on one line
rc=0; "$bisect" --host --build "$build"$'\t# \e[2J' --tests-dir bin --results "$T/res" --runtest "$SB/runtest.sh" \
	--good "$good" --bad "$bad" --point processes:1 >/dev/null 2>"$T/tab" || rc=$?
is "$rc" 1 "a --build with a tab: bad, logged"
like "$(tail -n 1 "$log" | awk -F'\t' '{ print NF, $4, $NF }')" '^10 bad .*--build [$].make .*[\]x09# [\]x1b\[2J. ' \
	"the command shell-quoted on one line (\$'...\\xNN')"
# commit 1 measured again is another good end: another bisect, which measures for itself
rc=0; "$bisect" "${common[@]}" --good "$(cat "$T/good2")" --bad "$bad" --point processes:1 >/dev/null 2>"$T/other" || rc=$?
is "$rc" 1 "the same commit between other ends: bad"
is "$(grep -c reusing "$T/other")" 0 "another bisect's sweeps are not reused"
ok "$([ "$(sweeps)" -gt "$n0" ]; echo $?)" "it measured its own ($(sweeps) sweeps in the log, $n0 before)"
kept=$(awk -F'\t' -v s="$(sha 11)" -v g="$good" '$1 == "sweep" && $2 == s && $3 != "-" && (NF == 4 || $5 == g) { print $4; exit }' "$log")
ok "$([ -d "$kept" ]; echo $?)" "a kept sweep of commit 11 to remove ($kept)"
rm -rf -- "$kept"
rc=0; "${step[@]}" >/dev/null 2>"$T/gone" || rc=$?
is "$rc" 1 "a kept sweep removed: the step goes on (bad), not exit 128 at every retry"
like "$(cat "$T/gone")" "not reusing a kept sweep: .*${kept##*/}" "it says which one it left out"
done_testing
