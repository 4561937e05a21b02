#!/usr/bin/env bash
# runtest.sh --profile: bad lists exit 2; no perf, a broken perf, no permission exit 3 in one line before any point; a real profiled run (skipped without perf).
# sb-san: skip: runtest.sh --profile: shell and perf (sb-profile's C: profile_tool.t)
. "$(dirname "$0")/runtest_lib.sh"
need_build "$SB_BUILD/bin/getppid1_processes" "$SB_BUILD/bin/getppid1_threads" "$SB_BUILD/bin/sb-profile"

R=$T/results
mkdir "$R"
FAST=(getppid1 --mode processes --points 1 --duration 0.5 --warmup 0 --period-ms 100 --repeat 3)

runs_made() { find "$R" -name meta | wc -l; }

# rejected CODE SUBSTRING ARGS...: exit CODE, one line on stderr containing SUBSTRING, no run
rejected() {
	local code=$1 want=$2 rc=0
	shift 2
	./runtest.sh --results "$R" "$@" >"$T/out" 2>"$T/err" || rc=$?
	is "$rc" "$code" "exit $code: ${want}"
	if [ "$(wc -l <"$T/err")" = 1 ] && grep -qF -- "$want" "$T/err"; then
		ok 0 "one line naming the problem and the fix"
	else
		ok 1 "one line naming the problem and the fix"
		diag_file "$T/err"
	fi
	is "$(runs_made)" 0 "nothing measured"
}

rejected 2 "--profile: '0' is not a task count, 'peak' or 'max'" "${FAST[@]}" --profile 0
rejected 2 "--profile: 'top' is not a task count" "${FAST[@]}" --profile top
rejected 2 "--profile: '' is not a task count" "${FAST[@]}" --profile 1,,peak
rejected 2 "--profile: 3 tasks is not a point of the sweep (1)" "${FAST[@]}" --profile 3
rejected 2 "--profile-keep needs --profile" "${FAST[@]}" --profile-keep

# No perf at all: a PATH with everything but perf.
mkdir "$T/noperf"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
	n=${f##*/}
	if [ "$n" != perf ] && [ ! -e "$T/noperf/$n" ]; then ln -s "$f" "$T/noperf/$n"; fi
done
PATH=$T/noperf rejected 3 "perf not found: install the package linux-perf" "${FAST[@]}" --profile 1

# A perf that does not run (the Debian wrapper without the kernel's tools).
mkdir "$T/broken" "$T/denied" "$T/sysctl"
cat >"$T/broken/perf" <<'EOF'
#!/bin/sh
echo "E: linux-perf-9.9 is not installed." >&2
exit 1
EOF
# A perf that cannot record (no permission).
cat >"$T/denied/perf" <<'EOF'
#!/bin/sh
case $1 in
--version) echo "perf version 6.1.0" ;;
*) echo "Error: Access to performance monitoring and observability operations is limited." >&2; exit 255 ;;
esac
EOF
chmod +x "$T/broken/perf" "$T/denied/perf"
PATH=$T/broken:$PATH rejected 3 "perf does not run (linux-perf-9.9 is not installed.): install linux-perf" "${FAST[@]}" --profile 1
echo 3 >"$T/sysctl/perf_event_paranoid"
PATH=$T/denied:$PATH SB_SYSCTL_DIR=$T/sysctl rejected 3 \
	"kernel.perf_event_paranoid is 3: run 'sysctl kernel.perf_event_paranoid=-1' as root" "${FAST[@]}" --profile peak
echo -1 >"$T/sysctl/perf_event_paranoid"
PATH=$T/denied:$PATH SB_SYSCTL_DIR=$T/sysctl rejected 3 \
	"perf record -a failed: Access to performance monitoring" "${FAST[@]}" --profile max

# A real profile, when perf can record system-wide here.
if ! command -v perf >/dev/null 2>&1; then
	ok 0 "# skip perf is not installed"
elif ! perf record -q -a -g -e cpu-clock -o "$T/probe.data" -- true >/dev/null 2>&1; then
	ok 0 "# skip perf cannot record system-wide here (perf_event_paranoid, or not root)"
else
	rc=0
	mkdir "$T/tmp"
	# 2 s runs: a 0.5 s profiled run beside two busy loops held no sample of getppid1's tasks once
	# (flake.sh); one measured run is enough for what follows
	TMPDIR=$T/tmp ./runtest.sh --results "$R" "${FAST[@]}" --duration 2 --repeat 1 --profile peak --profile-keep \
		>"$T/out" 2>"$T/err" || rc=$?
	is "$rc" 0 "a sweep with --profile peak"
	run=$(cat "$T/out")
	p=$run/profile/processes-1
	for f in event top.csv top.txt folded.txt test-top.csv rate perf.data; do
		[ -s "$p/$f" ]
		ok $? "profile/processes-1/$f is there"
	done
	like "$(cat "$p/event")" '^(cpu-clock|cycles)$' "the event is recorded"
	# each measured run has its 5 samples: the profiled run's are not among them
	is "$(awk -F, '$4 == "measure" { n[$3]++ } END { for (r in n) if (n[r] != 20) bad++; print (length(n) > 0 && !bad) ? "yes" : "no" }' "$run/samples.csv")" yes \
		"the profiled run is not in the run's samples.csv (20 measured samples a run)"
	is "$(grep -c ',measure,' "$p/samples.csv")" 20 "it has its own samples beside the profile"
	like "$(cat "$p/rate")" $'measured_ops_per_s=[0-9]+\nprofiled_ops_per_s=[0-9]+' "its rate beside the measured mean"
	like "$(cat "$T/err")" "profile processes at 1 tasks: (cpu-clock|cycles), profiled run [0-9.]+[KMG]? ops/s" "the summary names the profile"
	like "$(cat "$T/err")" "  the testcase: " "... and the testcase's own line"
	kptr=$(cat /proc/sys/kernel/kptr_restrict 2>/dev/null || echo 0)
	if [ "$kptr" = 2 ] || { [ "$kptr" = 1 ] && [ "$(id -u)" != 0 ]; }; then
		ok 0 "# skip kernel.kptr_restrict is $kptr: kernel symbols hidden"
	else
		grep -q ',kernel,[a-z_][A-Za-z0-9_.]*,\[kernel' "$p/top.csv"
		ok $? "kernel symbols resolve"
	fi
	if grep -q 'lock contention (perf-lock)' "$T/err"; then
		if grep -q 'contended' "$p/locks.txt"; then
			ok 0 "lock contention recorded (perf lock)"
		else
			ok 1 "lock contention recorded (perf lock)"
			diag_file "$T/err"
		fi
	else
		like "$(cat "$T/err")" "no lock contention: " "lock contention unavailable: said why"
	fi
	grep -Eq '^getppid1_proces[^ ]*;.* [0-9]+$' "$p/folded.txt"
	ok $? "folded stacks of the testcase's tasks"
	[ -z "$(find "$run" -name '.*')" ]
	ok $? "no temporary file left in the run"
	[ -z "$(pgrep -f -- "$T/tmp/")" ]
	ok $? "no perf left running"

	# SIGTERM while a point is being profiled: exit 130, meta interrupted, no
	# half profile, no perf left behind.
	mkdir "$T/tmp2"
	# (one measured run before the profiled one; the signal comes a second into the profiled run's 4)
	TMPDIR=$T/tmp2 ./runtest.sh --results "$R" getppid1 --mode processes --points 1 --duration 4 \
		--repeat 1 --warmup 0 --period-ms 100 --profile 1 >"$T/out2" 2>"$T/err2" &
	pid=$!
	for _ in $(seq 1 300); do
		if grep -q 'profiling processes at 1 tasks' "$T/err2" && pgrep -f -- "$T/tmp2/runtest\..*/perf\.data" >/dev/null; then break; fi
		nap 0.1
	done
	sleep 1
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	is "$rc" 130 "SIGTERM during the profiled run: exit 130"
	run2=$(cat "$T/out2")
	is "$(meta "$run2/meta" status)" interrupted "meta says interrupted"
	[ ! -e "$run2/profile/processes-1" ] && [ -z "$(find "$run2" -name '.*')" ]
	ok $? "no profile directory, whole or half"
	for _ in $(seq 1 150); do [ -z "$(pgrep -f -- "$T/tmp2/")" ] && break; nap 0.1; done	# polled
	[ -z "$(pgrep -f -- "$T/tmp2/")" ]
	ok $? "perf and the runner are gone"
fi

done_testing
