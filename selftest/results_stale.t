#!/usr/bin/env bash
# A `running` run whose sweep is gone from this host reads as abandoned (sb-summary --format plot, sb-compare); a live sweep's, another host's and an old run's stay running; runtest.sh records sweep_host, sweep_pid and sweep_start.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
bgs=()
trap 'for p in "${bgs[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf -- "$T"' EXIT
exec 3>&2 2>"$T/stderr.log"
plan 18
BASE=selftest/data/compare/results/unix1/base-20260101T000000
host=$(uname -n)

# start_id PID: what runtest.sh records as sweep_start (boot id / start time in ticks)
start_id() {
	local boot stat rest
	read -r boot </proc/sys/kernel/random/boot_id || return 0
	stat=$(cat "/proc/$1/stat") || return 0
	rest=${stat##*) }
	read -ra f <<<"$rest"
	printf '%s/%s' "$boot" "${f[19]}"
}
# run_as NAME STATUS KEY=VALUE...: a copy of BASE with that status and those keys in meta
run_as() {
	local dir=$T/$1 kv
	cp -r -- "$BASE" "$dir"
	# (a run id of its own: compare refuses a copy of BASE with its run id as the same sweep)
	sed -i "s/^status=.*/status=$2/; s/^run_id=.*/run_id=$1-20260101T000000/" "$dir/meta"
	shift 2
	for kv in "$@"; do printf '%s\n' "$kv" >>"$dir/meta"; done
	printf '%s' "$dir"
}
status_of() { "$B/bin/sb-summary" --format plot "$1" 2>&1 | awk -F'\t' '$1 == "meta" && $2 == "status" { print $3 }'; }

sleep 300 &
live=$!
bgs+=("$live")
sh -c 'exit 0' &
dead=$!
wait "$dead"

d_live=$(run_as live running "sweep_host=$host" "sweep_pid=$live" "sweep_start=$(start_id "$live")")
d_dead=$(run_as dead running "sweep_host=$host" "sweep_pid=$dead" "sweep_start=$(start_id "$live")")
d_reused=$(run_as reused running "sweep_host=$host" "sweep_pid=$live" "sweep_start=0-0-0/1")
d_other=$(run_as other running "sweep_host=not-$host" "sweep_pid=$dead" "sweep_start=x/1")
d_old=$(run_as old running)
d_done=$(run_as done interrupted "sweep_host=$host" "sweep_pid=$dead" "sweep_start=x/1")

is "$(status_of "$d_live")" running "a live sweep's run stays running"
is "$(status_of "$d_dead")" abandoned "a run whose sweep pid is gone on this host: abandoned"
is "$(status_of "$d_reused")" abandoned "its pid reused by another process (another start id): abandoned"
is "$(status_of "$d_other")" running "another host's run: running (nothing here can tell)"
is "$(status_of "$d_old")" running "a run without sweep_pid (older runtest.sh): running"
is "$(status_of "$d_done")" interrupted "a final status stays as it is"
is "$(grep -c $'^meta\tstatus\t' <("$B/bin/sb-summary" --format plot "$d_dead"))" 1 "plot: one status line"

run "$B/bin/sb-compare" "$BASE" "$d_dead"
is "$rc" 2 "compare: an abandoned run is refused as an incomplete one is"
like "$err" "status is abandoned" "compare: it says abandoned"
run "$B/bin/sb-compare" --force "$BASE" "$d_dead"
like "$out" "STATUS abandoned" "compare --force: marks it abandoned"
run "$B/bin/sb-compare" --force "$BASE" "$d_live"
like "$out" "STATUS running" "compare --force: a live one is running"

# ---- runtest.sh records its sweep, and a real sweep's meta agrees with the reader ----
mkdir "$T/bin" "$T/tmp"
private_copy "$T/bin" "$B"/selftest/phases_{processes,threads}
rm -f "$T/mark"
TMPDIR=$T/tmp SB_TESTS_DIR=$T/bin ./runtest.sh phases --mode processes --points 1,2 --param hold=prepare \
	--param from=2 --param mark="$T/mark" --duration 0.2 --warmup 0 --period-ms 100 --repeat 1 --quiet \
	--results "$T/r" >"$T/out" 2>"$T/err" &
pid=$!
bgs+=("$pid")
have_mark() { [ -e "$T/mark" ]; }
wait_until 60 have_mark
run_dir=$T/r/phases/$(readlink "$T/r/phases/latest")
meta_v() { sed -n "s/^$1=//p" "$run_dir/meta"; }
is "$(meta_v sweep_host)" "$host" "meta: sweep_host is this host"
is "$(meta_v sweep_pid)" "$pid" "meta: sweep_pid is runtest.sh's"
is "$(meta_v sweep_start)" "$(start_id "$pid")" "meta: sweep_start is its boot id and start time"
is "$(status_of "$run_dir")" running "the live sweep's run reads as running"
# the machine goes down, as it were: runtest.sh, its janitor and the runner SIGKILLed at once
kill -STOP "$pid"
for p in $(pgrep -P "$pid") "$pid"; do kill -KILL "$p"; done
pkill -KILL -f -- "$T/bin/"
wait "$pid" 2>/dev/null
is "$(meta_v status)" running "meta still says running (nobody was left to write)"
is "$(status_of "$run_dir")" abandoned "and the reader says abandoned"
run "$B/bin/sb-summary" --table "$run_dir"
is "$rc" 0 "sb-summary --table still reads the run"

for p in "${bgs[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
bgs=()
exec 2>&3
exit "$_failed"
