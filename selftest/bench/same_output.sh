#!/usr/bin/env bash
# same_output.sh: the analysis tools of REV and of the work tree give the same bytes and exit codes on one corpus.
#
#   selftest/bench/same_output.sh [-c CORPUS] [-k] [-x NAMES] REV
#
# Builds the analysis tools (sb-summary, sb-compare, sb-plan, sb-profile,
# sb-history, sb-bisect) of git revision REV (git archive into a temporary
# directory) and of the work tree (into a temporary build directory: the work
# tree's build/ is not touched),
# runs every command of the list below with each, and compares standard output,
# standard error, exit code and every file a command writes. The corpus is
# selftest/data's run directories, synthetic ones made here (96 counts x 2
# modes x 3 runs, single runs, a failed run, malformed files) and tiny real
# sweeps made with ./runtest.sh (getppid1 and pipe1, 1 and 2 tasks), synthetic
# histories (selftest/bench/history_gen, added by REV's sb-history: list, show
# and changes in every format read them) and a finished bisect (a git
# repository of empty commits, a git bisect log, bisect-steps.tsv and its
# sweeps: sb-bisect report in both formats reads them); -c DIR keeps the
# corpus in DIR and reuses it when DIR already holds one of this version (the
# real sweeps take a minute). -k keeps the temporary directory. -x NAMES: a
# comma-separated list of case names whose difference is expected (a fix of
# bad input's handling): they are reported as "changed (expected)" and do not
# fail the check. Exit 0 when every other case is the same, 1 when one
# differs (each named, with the first lines of its diff), 2 usage error,
# 3 a build failed.
set -eu

usage() {
	sed -n '4,25p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

log() { printf '%s\n' "$*" >&2; }

# build_tools SRC BUILD: the analysis tools of the tree SRC into BUILD
build_tools() {
	if ! make -s -C "$1" BUILD="$2" HWLOC_OK=no PKG_CONFIG=false analysis >"$2.log" 2>&1; then
		log "same_output.sh: the build of $1 failed:"
		tail -n 20 "$2.log" >&2
		exit 3
	fi
}

# synth_run DIR TEST RUNS COUNTS SEED [STATUS]: a run directory of RUNS runs at 1..COUNTS tasks,
# both modes, a curve rising to COUNTS/3 then falling, 3 samples a run with seeded noise
synth_run() {
	local dir=$1 test=$2 runs=$3 counts=$4 seed=$5 status=${6:-complete}
	mkdir -p "$dir"
	printf '%s\n' "test=$test" "label=synth$seed" "kernel=6.1.0-synth" "host=synthhost" \
		"status=$status" "run_id=synth$seed-20260101T000000" "date=2026-01-01T00:00:00Z" \
		"repeat=$runs" "cpu_model=Synthetic CPU" "topology=1 package, 96 cores" \
		"hwloc_version=2.9.0" "placement=cores" "params=" "period_ms=100" "duration=0.3" \
		"warmup=0" >"$dir/meta"
	awk -v runs="$runs" -v counts="$counts" -v seed="$seed" 'BEGIN {
		srand(seed)
		print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms"
		split("processes threads", m, " ")
		for (r = 1; r <= runs; r++)
			for (k = 1; k <= 2; k++)
				for (n = 1; n <= counts; n++) {
					top = counts / 3
					base = (n <= top ? n : top * sqrt(top / n)) * 1000000 * (k == 1 ? 1 : 0.8)
					for (s = 1; s <= 3; s++) {
						v = base * (1 + 0.02 * (rand() - 0.5)) * (1 + 0.01 * (r - 2))
						printf "%s,%d,%d,measure,%d,%.6f,%d,%.6f,0,0,%.2f,%.2f,0.1\n",
							m[k], n, r, s, s * 0.1, v / 10, v, 50 - n / 4, 50 - n / 4
					}
				}
	}' >"$dir/samples.csv"
}

# brun DIR LABEL SEED FACTOR: a paceop run directory at 1, 2 and 4 tasks, both modes, 3 runs of 2
# samples, FACTOR x 1e6 x tasks with seeded 2% noise (for the bisect's sweeps)
brun() {
	local dir=$1 label=$2 seed=$3 f=$4
	mkdir -p "$dir"
	printf '%s\n' "test=paceop" "label=$label" "kernel=6.1.0-synth" "host=synthhost" "status=complete" \
		"run_id=$label-20260201T000000" "date=2026-02-01T00:00:00Z" "repeat=3" "cpu_model=Synthetic CPU" \
		"topology=1 package, 4 cores" "hwloc_version=2.9.0" "placement=cores" "params=" \
		"period_ms=100" "duration=0.2" "warmup=0" >"$dir/meta"
	awk -v f="$f" -v seed="$seed" 'BEGIN {
		srand(seed)
		print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct,late_ms"
		split("processes threads", m, " ")
		for (k = 1; k <= 2; k++) for (n = 1; n <= 4; n *= 2) for (r = 1; r <= 3; r++) for (s = 1; s <= 2; s++) {
			v = 1000000 * n * f * (1 + 0.02 * (rand() - 0.5))
			printf "%s,%d,%d,measure,%d,%.6f,%d,%.6f,0,0,10,10,0.1\n", m[k], n, r, s, s * 0.1, v / 10, v
		}
	}' >"$dir/samples.csv"
}

# make_histories DIR: synthetic histories (history_gen) added by REV's sb-history into DIR/*.db
make_histories() {
	local h=$1 gen=$2 sum=$old_bin/sb-summary
	mkdir -p "$h"
	"$gen" --out "$h/aa" --cell aa --kernels 6 --runs 3 --counts 4 --seed 11 --testcase histsim1 --summary "$sum"
	"$gen" --out "$h/aa2" --cell aa --kernels 6 --runs 3 --counts 4 --seed 12 --testcase histsim1 \
		--host otherbox --summary "$sum"
	sed -i 's/^run_id=.*/&b/' "$h"/aa2/histsim1/*/meta	# another sweep than aa's, on another testbed
	"$gen" --out "$h/two" --cell two --kernels 12 --runs 3 --counts 6 --seed 13 --testcase histsim1 --summary "$sum"
	"$gen" --out "$h/broad" --cell broad --kernels 10 --runs 2 --counts 3 --modes 1 --seed 14 \
		--testcase histsim2 --summary "$sum"
	"$gen" --out "$h/one" --cell aa --kernels 3 --runs 1 --counts 2 --seed 15 --testcase histsim3 --summary "$sum"
	"$old_bin/sb-history" add --db "$h/aa.db" "$h"/aa/histsim1/*/ "$h"/aa2/histsim1/*/ >/dev/null
	"$old_bin/sb-history" add --db "$h/step.db" "$h"/two/histsim1/*/ "$h"/broad/histsim2/*/ \
		"$h"/one/histsim3/*/ >/dev/null
}

# commit N: the SHA of commit N of the corpus's repository
commit() { git -C "$corpus_dir" rev-parse "HEAD~$((5 - $1))"; }

# bisect_log OUT FIRST_BAD STEP:VERDICT...: a git bisect log between commits 5 (bad) and 1 (good)
bisect_log() {
	local out=$1 first=$2 s
	shift 2
	{
		printf '# bad: [%s] commit 5\n# good: [%s] commit 1\n' "$(commit 5)" "$(commit 1)"
		printf "git bisect start '%s' '%s'\n" "$(commit 5)" "$(commit 1)"
		for s in "$@"; do
			printf '# %s: [%s] commit %s\ngit bisect %s %s\n' "${s#*:}" "$(commit "${s%%:*}")" "${s%%:*}" \
				"${s#*:}" "$(commit "${s%%:*}")"
		done
		if [ "$first" != - ]; then printf '# first bad commit: [%s] commit %s\n' "$(commit "$first")" "$first"; fi
	} >"$out"
}

# steps_tsv OUT TARGET GOOD BAD N:VERDICT:RUNDIR...: bisect-steps.tsv, a sweep and a verdict a step
steps_tsv() {
	local out=$1 t=$2 g=$3 b=$4 s n v d
	shift 4
	mkdir -p "$(dirname "$out")"
	: >"$out"
	for s in "$@"; do
		n=${s%%:*} v=${s#*:} d=${v#*:} v=${v%%:*}
		printf 'sweep\t%s\t%s\t%s\n' "$(commit "$n")" "$t" "$d" >>"$out"
		printf 'verdict\t%s\t%s\t%s\t3\t%s\t0.%s\t%s\t%s\t%s\n' "$(commit "$n")" "$t" "$v" "$((1000000 * n))" \
			"$n" "$g" "$b" "sb-bisect step --good $g --bad $b --point $t -- paceop" >>"$out"
	done
}

# make_bisect CORPUS: a repository of 5 empty commits (the corpus itself), ends and step sweeps, logs
make_bisect() {
	local c=$1 b=$1/bisect i
	corpus_dir=$c
	git -C "$c" init -q
	for i in 1 2 3 4 5; do
		GIT_AUTHOR_DATE="2026-02-0${i}T00:00:00Z" GIT_COMMITTER_DATE="2026-02-0${i}T00:00:00Z" \
			git -C "$c" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "commit $i"
	done
	brun "$b/good" good 21 1.0
	brun "$b/bad" bad 22 0.9
	brun "$b/s3" s3 23 0.9
	brun "$b/s2" s2 24 1.0
	brun "$b/s2b" s2b 25 1.01
	brun "$b/s4" s4 26 0.9
	brun "$b/s2off" s2off 27 0.95
	brun "$b/flat" flat 28 1.0
	# commit 3 the first bad, its parent measured twice
	steps_tsv "$b/mono/bisect-steps.tsv" processes:2 "$b/good" "$b/bad" 3:bad:"$b/s3" 2:good:"$b/s2" \
		2:good:"$b/s2b"
	bisect_log "$b/mono.log" 3 3:bad 2:good
	# a curve target, commit 2 called good off its level; commit 2 the first bad (parent: the good end)
	steps_tsv "$b/curve/bisect-steps.tsv" curve:threads "$b/good" "$b/bad" 3:bad:"$b/s3" 2:good:"$b/s2off" \
		4:bad:"$b/s4"
	bisect_log "$b/curve.log" 2 3:bad 2:bad
	# not ended yet; ends that do not differ
	steps_tsv "$b/open/bisect-steps.tsv" threads:4 "$b/good" "$b/flat" 3:good:"$b/s2"
	bisect_log "$b/open.log" - 3:good
	printf 'sweep\t%s\n' "$(commit 2)" >"$b/bad.tsv"
	mkdir -p "$b/malformed"
	cp "$b/bad.tsv" "$b/malformed/bisect-steps.tsv"
}

# make_corpus DIR: run directories to read (see the top of this file)
make_corpus() {
	local c=$1 rt
	mkdir -p "$c"
	cp -R selftest/data/compare/results "$c/compare"
	cp -R selftest/data/plot/good "$c/plot-good"
	cp -R selftest/data/plot/bad "$c/plot-bad"
	cp -R selftest/data/profile "$c/profile"
	cp -R selftest/data/runtest "$c/runtest"
	cp -R selftest/data/compare/ministat "$c/ministat"
	synth_run "$c/synth/big/a-20260101T000000" big 3 96 1
	synth_run "$c/synth/big/b-20260102T000000" big 3 96 2
	synth_run "$c/synth/big/c-20260103T000000" big 3 96 3
	synth_run "$c/synth/big/one-20260104T000000" big 1 12 4
	synth_run "$c/synth/big/failed-20260105T000000" big 2 8 5 failed
	synth_run "$c/synth/big/running-20260106T000000" big 2 8 6 running
	synth_run "$c/synth/other/a-20260101T000000" other 3 8 7
	# malformed files, each one problem
	mkdir -p "$c/bad/empty" "$c/bad/nometa" "$c/bad/hugesum" "$c/bad/hexsamples" "$c/bad/cut"
	: >"$c/bad/empty/samples.csv"
	cp "$c/synth/big/one-20260104T000000/samples.csv" "$c/bad/nometa/samples.csv"
	cp "$c/synth/big/one-20260104T000000/meta" "$c/bad/hexsamples/meta"
	sed '3s/,measure,1,0.100000,[0-9]*,[0-9.]*/,measure,1,0.100000,1,0x10/' \
		"$c/synth/big/one-20260104T000000/samples.csv" >"$c/bad/hexsamples/samples.csv"
	head -c 700 "$c/synth/big/one-20260104T000000/samples.csv" >"$c/bad/cut/samples.csv"
	cp "$c/synth/big/one-20260104T000000/meta" "$c/bad/cut/meta"
	printf '%s\n' 'Tasks,processes,processes_idle,threads,threads_idle,linear' \
		'1,1e300,50,1000,50,1e300' '2,2000,50,2000,50,2000' >"$c/bad/hugesum/summary.csv"
	cp "$c/synth/big/one-20260104T000000/meta" "$c/bad/hugesum/meta"
	cp -R "$c/synth/big/a-20260101T000000" "$c/synth/big/acopy-20260101T000001"
	# plan configurations (the keys sweep/plan.sh writes)
	printf '%s\n' modes_total=2 points_mode=list points=1,2,4 min=1 max=4 step=1 units=4 smt=0 \
		per_llc=4 per_numa=4 per_package=4 numa=1 packages=1 topology_points=4 min_runs=3 max_runs=5 \
		adaptive=1 precision=2000 point_budget_ms=30000 budget_ms= seed= run_ms=1000 max_points= \
		extra= >"$c/plan-list.conf"
	printf '%s\n' modes_total=4 points_mode=auto points= min=1 max=192 step=1 units=192 smt=0 \
		per_llc=12 per_numa=24 per_package=96 numa=8 packages=2 topology_points=1,12,24,96,192 \
		min_runs=3 max_runs=10 adaptive=1 precision=2000 point_budget_ms=60000 budget_ms=3600000 \
		seed=7 run_ms=1600 max_points=24 extra=8 >"$c/plan-auto.conf"
	printf '%s\n' modes_total=2 points_mode=all points= min=1 max=16 step=3 units=16 smt=0 \
		per_llc=8 per_numa=8 per_package=16 numa=2 packages=1 topology_points=8,16 min_runs=1 \
		max_runs=1 adaptive=0 precision= point_budget_ms=0 budget_ms= seed=3 run_ms=500 \
		max_points= extra= >"$c/plan-all.conf"
	printf '%s\n' modes_total=2 points_mode=list points=1,2 min=5 max=2 >"$c/plan-bad.conf"
	# the same fixtures with their summary.csv, written by REV's sb-summary
	cp -R "$c/compare" "$c/compare-sum"
	for d in "$c"/compare-sum/*/*-2026* "$c"/synth/*/*-2026*; do
		"$old_bin/sb-summary" -o "$d/summary.csv" "$d/samples.csv"
	done
	# tiny real sweeps
	rt=$c/real
	mkdir -p "$rt"
	local args=(--points 1,2 --repeat 3 --duration 0.3 --period-ms 100 --warmup 0 --quiet --results "$rt")
	SB_MACHINE_LOCK=$c/sweep.lock ./runtest.sh getppid1 "${args[@]}" --label ra >/dev/null
	SB_MACHINE_LOCK=$c/sweep.lock ./runtest.sh getppid1 "${args[@]}" --label rb >/dev/null
	SB_MACHINE_LOCK=$c/sweep.lock ./runtest.sh pipe1 "${args[@]}" --mode processes --repeat 1 \
		--label rc >/dev/null
	make_histories "$c/hist" "$PWD/build/selftest/history_gen"
	make_bisect "$c"
	echo "$CORPUS_VERSION" >"$c/.complete"
}

# cases CORPUS OUT: the command list, one case a line: NAME<TAB>TOOL ARGS... ($O: a file the case writes)
cases() {
	local c=$1 r d n=0 R S
	R=$c/compare/unix1
	S=$c/synth/big
	for d in "$R"/*-2026* "$c"/compare-sum/*/*-2026* "$S"/*-2026* "$c"/real/*/*-2026* "$c"/plot-good/*/*-2026* "$c"/plot-bad/*/*-2026* \
		"$c"/profile/results/pipe1/*-2026* "$c"/bad/*; do
		n=$((n + 1))
		printf 'sum%d.csv\tsb-summary %s/samples.csv\n' "$n" "$d"
		printf 'sum%d.o\tsb-summary -o $O %s/samples.csv\n' "$n" "$d"
		printf 'sum%d.table\tsb-summary --table %s\n' "$n" "$d"
		printf 'sum%d.plot\tsb-summary --format plot %s\n' "$n" "$d"
		printf 'sum%d.gab\tsb-summary --format gab %s\n' "$n" "$d"
		printf 'sum%d.bencher\tsb-summary --format bencher %s\n' "$n" "$d"
		printf 'sum%d.kcidb\tsb-summary --format kcidb %s\n' "$n" "$d"
		printf 'sum%d.squad\tsb-summary --format squad %s\n' "$n" "$d"
		printf 'sum%d.point\tsb-summary --point processes:2 %s\n' "$n" "$d"
		printf 'sum%d.values\tsb-summary --point threads:1 --values %s\n' "$n" "$d"
		printf 'sum%d.prof\tsb-profile points %s/summary.csv processes 1,2,peak,max\n' "$n" "$d"
		printf 'sum%d.profpeak\tsb-profile points %s/summary.csv threads peak\n' "$n" "$d"
		printf 'sum%d.self\tsb-compare %s %s\n' "$n" "$d" "$d"
	done
	printf 'sum.many\tsb-summary --format gab %s %s %s\n' "$c/compare-sum/unix1/latest" "$S/a-20260101T000000" "$c/real/getppid1/latest"
	printf 'sum.manyb\tsb-summary --format bencher %s %s\n' "$c/compare-sum/unix1/base-20260101T000000" \
		"$c/compare-sum/unix1/new-20260102T000000"
	printf 'sum.kcimany\tsb-summary --format kcidb --origin ci_lab --commit %s %s %s %s\n' \
		0123456789abcdef0123456789abcdef01234567 "$c/compare-sum/unix1/latest" "$S/a-20260101T000000" "$c/real/getppid1/latest"
	printf 'sum.kcigate\tsb-summary --format kcidb --gate 1 --checkout-id x:1 %s %s\n' \
		"$c/compare-sum/unix1/base-20260101T000000" "$c/compare-sum/unix1/new-20260102T000000"
	printf 'sum.kcibuild\tsb-summary --format kcidb --build-id x:2 --gate 0 %s\n' "$S/a-20260101T000000"
	printf 'sum.kcitwotests\tsb-summary --format kcidb --gate 0 %s %s\n' "$S/a-20260101T000000" "$c/real/getppid1/latest"
	printf 'sum.squadmany\tsb-summary --format squad %s %s\n' "$c/compare-sum/unix1/latest" "$c/real/getppid1/latest"
	printf 'sum.squadgate\tsb-summary --format squad --gate 1 %s\n' "$c/real/getppid1/latest"
	printf 'sum.squadtwo\tsb-summary --format squad %s %s\n' "$c/compare-sum/unix1/base-20260101T000000" \
		"$c/compare-sum/unix1/new-20260102T000000"
	printf 'sum.testdir\tsb-summary --table %s\n' "$R"
	printf 'sum.noargs\tsb-summary\n'
	printf 'sum.badopt\tsb-summary --bogus x\n'
	printf 'sum.missing\tsb-summary %s/nothing.csv\n' "$c"
	printf 'sum.badpoint\tsb-summary --point procs:x %s\n' "$R/latest"
	printf 'sum.badfmt\tsb-summary --format xml %s\n' "$R/latest"
	printf 'sum.hugesum\tsb-summary --format gab %s/bad/hugesum\n' "$c"
	printf 'sum.hugesumplot\tsb-summary --format plot %s/bad/hugesum\n' "$c"
	printf 'sum.runtest\tsb-summary %s/runtest/samples.csv\n' "$c"
	# compare: ministat files
	local m=$c/ministat
	printf 'ms.ab\tsb-compare %s/a.txt %s/b.txt\n' "$m" "$m"
	printf 'ms.A\tsb-compare -A %s/a.txt %s/c.txt %s/d.txt\n' "$m" "$m" "$m"
	printf 'ms.n\tsb-compare -n %s/e.txt %s/f.txt\n' "$m" "$m"
	printf 'ms.qs\tsb-compare -q -s -w 60 %s/a.txt %s/g.txt\n' "$m" "$m"
	printf 'ms.cols\tsb-compare -C 2 -d , -c 99 %s/columns.csv %s/columns.csv\n' "$m" "$m"
	printf 'ms.conf\tsb-compare -c 97 %s/a.txt %s/b.txt\n' "$m" "$m"
	# compare: run directories
	local B=$R/base-20260101T000000 N=$R/new-20260102T000000 f g
	for f in text markdown csv gab bencher; do
		printf 'cmp.%s\tsb-compare --format %s %s %s\n' "$f" "$f" "$B" "$N"
		printf 'cmp.synth.%s\tsb-compare --format %s %s %s\n' "$f" "$f" "$S/a-20260101T000000" "$S/b-20260102T000000"
		printf 'cmp.real.%s\tsb-compare --format %s %s %s\n' "$f" "$f" "$c/real/getppid1/ra-"* "$c/real/getppid1/rb-"*
		printf 'cmp.vs.%s\tsb-compare --format %s %s %s --vs %s %s\n' "$f" "$f" "$S/a-20260101T000000" \
			"$S/b-20260102T000000" "$S/c-20260103T000000" "$S/one-20260104T000000"
		printf 'cmp.multi.%s\tsb-compare --format %s %s %s %s\n' "$f" "$f" "$B" "$N" "$R/wide-20260105T000000"
	done
	for g in curves holm bh point; do
		printf 'cmp.gate.%s\tsb-compare --gate %s %s %s\n' "$g" "$g" "$B" "$N"
		printf 'cmp.gate.synth.%s\tsb-compare --gate %s --format csv %s %s\n' "$g" "$g" "$S/a-20260101T000000" "$S/c-20260103T000000"
		printf 'cmp.gate.vs.%s\tsb-compare --gate %s %s --vs %s %s\n' "$g" "$g" "$B" "$N" "$R/wide-20260105T000000"
	done
	printf 'cmp.point\tsb-compare --point processes:2 %s %s\n' "$B" "$N"
	printf 'cmp.point.synth\tsb-compare --point threads:32 %s %s\n' "$S/a-20260101T000000" "$S/b-20260102T000000"
	printf 'cmp.point.real\tsb-compare --point processes:1 %s %s\n' "$c/real/getppid1/ra-"* "$c/real/getppid1/rb-"*
	printf 'cmp.point.absent\tsb-compare --point processes:77 %s %s\n' "$B" "$N"
	printf 'cmp.thr\tsb-compare --threshold 5 %s %s\n' "$B" "$N"
	printf 'cmp.thr2\tsb-compare --threshold 2.5 --fail-on change --format markdown %s %s\n' "$B" "$N"
	printf 'cmp.never\tsb-compare --fail-on never %s %s\n' "$B" "$N"
	printf 'cmp.change\tsb-compare --fail-on change %s %s\n' "$N" "$B"
	printf 'cmp.conf\tsb-compare -c 99 %s %s\n' "$B" "$N"
	printf 'cmp.testdir\tsb-compare %s %s\n' "$R" "$R"
	printf 'cmp.single\tsb-compare %s %s\n' "$R/single-20260103T000000" "$N"
	printf 'cmp.failed\tsb-compare %s %s\n' "$B" "$R/failed-20260104T000000"
	printf 'cmp.failedforce\tsb-compare --force %s %s\n' "$B" "$R/failed-20260104T000000"
	printf 'cmp.running\tsb-compare %s %s\n' "$S/a-20260101T000000" "$S/running-20260106T000000"
	printf 'cmp.other\tsb-compare %s %s\n' "$B" "$c/compare/pipe1/other-20260101T000000"
	printf 'cmp.otherforce\tsb-compare --force --format csv %s %s\n' "$B" "$c/compare/pipe1/other-20260101T000000"
	printf 'cmp.machine\tsb-compare %s %s\n' "$B" "$S/a-20260101T000000"
	printf 'cmp.twice\tsb-compare %s %s --vs %s\n' "$B" "$B" "$N"
	printf 'cmp.sameboth\tsb-compare %s %s --vs %s %s\n' "$B" "$N" "$N" "$R/wide-20260105T000000"
	printf 'cmp.copyboth\tsb-compare %s --vs %s\n' "$S/a-20260101T000000" "$S/acopy-20260101T000001"
	printf 'cmp.thrhex\tsb-compare --threshold 0x10 %s %s\n' "$B" "$N"
	printf 'cmp.thrbad\tsb-compare --threshold 100 %s %s\n' "$B" "$N"
	printf 'cmp.thrneg\tsb-compare --threshold -1 %s %s\n' "$B" "$N"
	printf 'cmp.confhex\tsb-compare -c 0x5f %s %s\n' "$B" "$N"
	printf 'cmp.badgate\tsb-compare --gate nope %s %s\n' "$B" "$N"
	printf 'cmp.badfail\tsb-compare --fail-on nope %s %s\n' "$B" "$N"
	printf 'cmp.badfmt\tsb-compare --format xml %s %s\n' "$B" "$N"
	printf 'cmp.badpoint\tsb-compare --point x %s %s\n' "$B" "$N"
	printf 'cmp.one\tsb-compare %s\n' "$B"
	printf 'cmp.none\tsb-compare\n'
	printf 'cmp.missing\tsb-compare %s %s/nothing\n' "$B" "$c"
	printf 'cmp.bad\tsb-compare %s %s\n' "$B" "$c/bad/cut"
	printf 'cmp.hexsamples\tsb-compare %s %s\n' "$S/one-20260104T000000" "$c/bad/hexsamples"
	printf 'cmp.vsempty\tsb-compare %s --vs\n' "$B"
	printf 'cmp.badopt\tsb-compare --bogus %s %s\n' "$B" "$N"
	printf 'cmp.width\tsb-compare -w 0 %s/a.txt %s/b.txt\n' "$m" "$m"
	# sb-history: list, show and changes in every format
	local H=$c/hist db f
	for db in aa step; do
		printf 'hist.%s.list\tsb-history --db %s list\n' "$db" "$H/$db.db"
		for f in text markdown csv json; do
			printf 'hist.%s.show.%s\tsb-history --db %s show histsim1 --format %s\n' "$db" "$f" "$H/$db.db" "$f"
			printf 'hist.%s.changes.%s\tsb-history --db %s changes --format %s\n' "$db" "$f" "$H/$db.db" "$f"
		done
	done
	printf 'hist.otava\tsb-history --db %s export histsim1 --format otava\n' "$H/aa.db"
	printf 'hist.otavaall\tsb-history --db %s export histsim1 --format otava --points all\n' "$H/step.db"
	printf 'hist.list.one\tsb-history --db %s list histsim2\n' "$H/step.db"
	printf 'hist.list.none\tsb-history --db %s list nosuch\n' "$H/step.db"
	printf 'hist.show.version\tsb-history --db %s show histsim1 --order version\n' "$H/step.db"
	printf 'hist.show.kernel\tsb-history --db %s show histsim1 --column kernel --format csv\n' "$H/aa.db"
	printf 'hist.show.testbed\tsb-history --db %s show histsim1 --by testbed\n' "$H/aa.db"
	printf 'hist.show.testbedmd\tsb-history --db %s show histsim1 --by testbed --format markdown\n' "$H/aa.db"
	printf 'hist.show.testbedk\tsb-history --db %s show histsim1 --by testbed --kernel k03 --format json\n' "$H/aa.db"
	printf 'hist.show.host\tsb-history --db %s show histsim1 --testbed otherbox --format csv\n' "$H/aa.db"
	printf 'hist.show.two\tsb-history --db %s show histsim2 --format csv\n' "$H/step.db"
	printf 'hist.show.onerun\tsb-history --db %s show histsim3\n' "$H/step.db"
	printf 'hist.show.onerunmd\tsb-history --db %s show histsim3 --format markdown\n' "$H/step.db"
	printf 'hist.show.none\tsb-history --db %s show nosuch\n' "$H/step.db"
	printf 'hist.show.noarg\tsb-history --db %s show\n' "$H/step.db"
	printf 'hist.show.badfmt\tsb-history --db %s show histsim1 --format xml\n' "$H/step.db"
	printf 'hist.changes.one\tsb-history --db %s changes histsim2 --format csv\n' "$H/step.db"
	printf 'hist.changes.alpha\tsb-history --db %s changes --alpha 0.3 --min-segment 3\n' "$H/step.db"
	printf 'hist.changes.since\tsb-history --db %s changes --since k06 --format json\n' "$H/step.db"
	printf 'hist.changes.version\tsb-history --db %s changes --order version --format markdown\n' "$H/step.db"
	printf 'hist.missing\tsb-history --db %s list\n' "$H/nothing.db"
	# sb-bisect report
	local BI=$c/bisect
	for f in text markdown; do
		printf 'bis.mono.%s\tsb-bisect report --results %s --log %s --format %s\n' "$f" "$BI/mono" "$BI/mono.log" "$f"
		printf 'bis.curve.%s\tsb-bisect report --results %s --log %s --format %s\n' "$f" "$BI/curve" "$BI/curve.log" "$f"
		printf 'bis.open.%s\tsb-bisect report --results %s --log %s --format %s\n' "$f" "$BI/open" "$BI/open.log" "$f"
		# --drift 0: the runs alone, the report before the drift was in it (a REV whose report ignores it
		# prints that too)
		for b in mono curve open; do
			printf 'bis.%s.d0.%s\tsb-bisect report --results %s --log %s --format %s --drift 0\n' "$b" "$f" \
				"$BI/$b" "$BI/$b.log" "$f"
		done
	done
	printf 'bis.nolog\tsb-bisect report --results %s --log %s/nothing.log\n' "$BI/mono" "$BI"
	printf 'bis.nosteps\tsb-bisect report --results %s/nothing --log %s\n' "$BI" "$BI/mono.log"
	printf 'bis.malformed\tsb-bisect report --results %s --log %s\n' "$BI/malformed" "$BI/mono.log"
	printf 'bis.badfmt\tsb-bisect report --results %s --log %s --format csv\n' "$BI/mono" "$BI/mono.log"
	# sb-plan's dry run
	for f in list auto all bad; do
		printf 'plan.%s\tsb-plan plan %s/plan-%s.conf\n' "$f" "$c" "$f"
	done
	printf 'plan.missing\tsb-plan plan %s/nothing.conf\n' "$c"
	printf 'plan.noargs\tsb-plan\n'
	# sb-profile
	local P=$c/profile
	printf 'prof.top\tsb-profile top %s/base.folded\n' "$P"
	printf 'prof.topcsv\tsb-profile top --format csv -n 2 %s/new.folded\n' "$P"
	printf 'prof.diff\tsb-profile diff %s/base.folded %s/new.folded\n' "$P" "$P"
	printf 'prof.diffmd\tsb-profile diff --format markdown --children %s/base.folded %s/new.folded\n' "$P" "$P"
	printf 'prof.script\tsb-profile script -o $O.d %s/script.txt\n' "$P"
	printf 'prof.scriptbad\tsb-profile script -o $O.d %s/bad.txt\n' "$P"
	printf 'prof.hybrid\tsb-profile script -c hyb -o $O.d %s/hybrid.txt\n' "$P"
	printf 'prof.compare\tsb-profile compare %s %s\n' "$P/results/pipe1/base-20260101T000000" "$P/results/pipe1/latest"
	printf 'prof.pointsbad\tsb-profile points %s/nothing.csv processes 1\n' "$c"
	printf 'prof.noargs\tsb-profile\n'
}

# run_side BIN CORPUS LIST OUT: every case of LIST with the tools in BIN, into OUT/NAME.{out,err,rc,file}
run_side() {
	local bin=$1 c=$2 list=$3 out=$4 name cmd tool rc
	mkdir -p "$out"
	while IFS=$'\t' read -r name cmd; do
		tool=${cmd%% *}
		rc=0
		# $O: the case's output file, at the same path for both sides (messages name it)
		(
			O=$c/.out/$name
			rm -rf "$O" "$O.d" "$O.tmp"
			mkdir -p "$c/.out"
			cd "$c"
			eval "set -- ${cmd#"$tool"}"
			exec "$bin/$tool" "$@"
		) >"$out/$name.out" 2>"$out/$name.err" </dev/null || rc=$?
		echo "$rc" >"$out/$name.rc"
		if [ -e "$c/.out/$name" ]; then cp "$c/.out/$name" "$out/$name.file"; fi
		if [ -d "$c/.out/$name.d" ]; then cp -R "$c/.out/$name.d" "$out/$name.dir"; fi
	done <"$list"
}

# same_case OLD NEW NAME: the case's output, errors, exit code and files are the same on both sides
same_case() {
	local s
	for s in out err rc file dir; do
		if [ -e "$1/$3.$s" ] || [ -e "$2/$3.$s" ]; then
			diff -r "$1/$3.$s" "$2/$3.$s" >/dev/null 2>&1 || return 1
		fi
	done
}

# The corpus's make-up: a kept corpus (-c) of another version is made again.
CORPUS_VERSION=2	# 2: the histories and the bisect
tmp=
main() {
	local corpus="" keep=0 expect="" opt rev name a nd=0 nx=0 nsame=0
	while getopts 'c:kx:h' opt; do
		case $opt in
		c) corpus=$OPTARG ;;
		k) keep=1 ;;
		x) expect=,$OPTARG, ;;
		*) usage ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# = 1 ] || usage
	rev=$1
	cd "$(dirname "$0")/../.."
	git rev-parse --verify -q "$rev^{commit}" >/dev/null || { log "same_output.sh: no commit $rev"; exit 2; }
	tmp=$(mktemp -d)
	if [ "$keep" = 1 ]; then log "same_output.sh: keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
	mkdir "$tmp/old"
	git archive "$rev" | tar -x -C "$tmp/old"
	build_tools "$tmp/old" "$tmp/old-build"
	build_tools "$PWD" "$tmp/new-build"
	if [ -z "$corpus" ]; then corpus=$tmp/corpus; fi
	corpus=$(mkdir -p "$corpus" && cd "$corpus" && pwd)
	if [ "$(cat "$corpus/.complete" 2>/dev/null)" != "$CORPUS_VERSION" ]; then
		rm -rf "${corpus:?}"/* "${corpus:?}/.git"
		make -s -j2 all build/selftest/history_gen >/dev/null
		old_bin=$tmp/old-build/bin make_corpus "$corpus"
	fi
	cases "$corpus" >"$tmp/cases"
	run_side "$tmp/old-build/bin" "$corpus" "$tmp/cases" "$tmp/out-old"
	run_side "$tmp/new-build/bin" "$corpus" "$tmp/cases" "$tmp/out-new"
	while IFS=$'\t' read -r name _; do
		if same_case "$tmp/out-old" "$tmp/out-new" "$name"; then
			nsame=$((nsame + 1))
			continue
		fi
		if [ "${expect#*,"$name",}" != "$expect" ]; then
			nx=$((nx + 1))
			echo "changed (expected): $name"
		else
			nd=$((nd + 1))
			echo "DIFFERS: $name"
		fi
		for a in out err rc file; do
			if [ -e "$tmp/out-old/$name.$a" ]; then
				diff "$tmp/out-old/$name.$a" "$tmp/out-new/$name.$a" 2>&1 | head -n 8 | sed "s/^/    $a: /" || true
			fi
		done
	done <"$tmp/cases"
	echo "same_output.sh: $rev against the work tree: $((nsame + nd + nx)) cases, $nsame the same, $nx changed as expected, $nd differ"
	[ "$nd" = 0 ]
}

main "$@"
