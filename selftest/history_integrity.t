#!/usr/bin/env bash
# sb-history's gate keeps its integrity: two sweeps under one run id are both kept or one refused (never one dropped), a run that measured 0 ops/s is refused or gates (never nan, never left out), --since and --min-segment take only what they mean, meta values are checked, a schema of version 1 migrates with its rows, environment errors exit 3, a signal mid-rebuild leaves nothing behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
plan 52

# hist R DB FACTOR...: unix1 at kernel 6.N (day N) at FACTOR N, all added into DB
hist() {
	local r=$1 db=$2 i=0 f
	shift 2
	for f in "$@"; do
		i=$((i + 1))
		hrun "$r" unix1 "6.$i" "$i" "$f" >/dev/null
	done
	"$H" --db "$db" add "$r"/unix1/* >/dev/null
}

main() {
	keys
	zero_rate
	since
	steering
	schema
	environment
	interrupted
}

# bug 5: the key of a sweep is its testcase, run id and testbed; a different sweep under a taken key is refused
keys() {
	local db=$tmp/keys.db a b c
	a=$(hrun "$tmp/ra" unix1 6.1 1 1 host=a sweep_start=boot/100)
	b=$(hrun "$tmp/rb" unix1 6.1 1 1 host=b sweep_start=boot/200)
	run "$H" --db "$db" add "$a" "$b"
	is "$rc:$(printf '%s' "$out" | grep -c '2 added, 0 already there')" "0:1" \
		"two machines, one kernel, one run id (--by testbed): both added"
	is "$("$H" --db "$db" list | tail -n +2 | cut -f 7 | sort | tr '\n' ' ')" "a b " "both listed, by testbed"
	c=$(hrun "$tmp/rc" unix1 6.1 1 0.5 host=a sweep_start=boot/300)
	run "$H" --db "$db" add "$c"
	is "$rc" 2 "another sweep (two --no-lock sweeps into one history) under a taken key: exit 2"
	like "$err" "another sweep \(from .*/ra/unix1/6\.1-20261201T100000\) is stored under its testcase, run id and testbed: not added" \
		"naming the one stored"
	like "$out" "0 added, 0 already there, .* 1 refused" "nothing added"
	run "$H" --db "$db" add "$a"
	is "$rc:$(printf '%s' "$out" | grep -c '0 added, 1 already there')" "0:1" "the same sweep again: already there"
	cp -r "$tmp/ra" "$tmp/ra2"
	run "$H" --db "$db" add "$tmp/ra2/unix1/6.1-20261201T100000"
	is "$rc:$(printf '%s' "$out" | grep -c '1 already there')" "0:1" \
		"the same sweep (its sweep_start) read from another directory: already there"
}

# bug 6: a run that made no progress is a failed measurement
zero_rate() {
	local r=$tmp/zero db=$tmp/zero.db d
	hist "$r" "$db" 1 1 1 1 1 1 1 1
	d=$(hrun "$r" unix1 6.9 9 1)
	awk -F, -v OFS=, '$1 == "processes" && $2 == 4 { $7 = 0; $8 = "0.000" } { print }' \
		"$d/samples.csv" >"$d/s" && mv "$d/s" "$d/samples.csv"
	run "$H" --db "$db" add "$d"
	is "$rc" 2 "add: a run at 0 ops/s: exit 2"
	like "$err" "processes:4 run 1 measured 0 ops/s: a failed measurement, not added \(--partial adds it" \
		"naming the point and run"
	run "$H" --db "$db" --partial add "$d"
	is "$rc:$(printf '%s' "$out" | grep -c '1 added')" "0:1" "--partial adds it"
	run "$H" --db "$db" changes
	is "$rc" 1 "changes: the failed point gates (exit 1), the other series are still judged"
	like "$out" "unix1 processes:4 on box: FAILED at 6\.9 \(2026-12-09\): a run measured no progress" \
		"the failed point named, with its kernel"
	like "$out" "Verdict: FAILED: 0 regressions still hold at the newest kernel; 1 failed point" "the verdict says so"
	run "$H" --db "$db" changes --since 6.9 --format json
	is "$rc:$(printf '%s' "$out" | grep -c '"point": "processes:4", "at": "6.9".*"gates": true')" "1:1" \
		"json: the failed point, gating at or after --since"
	run "$H" --db "$db" show unix1
	is "$rc" 0 "show: exit 0"
	unlike "$out" "nan" "show: no nan anywhere"
	like "$out" "FAILED" "show: the failed cell says so"
	run "$H" --db "$db" show unix1 --format csv
	unlike "$out" "nan" "show csv: no nan"
	run "$H" --db "$db" show unix1 --format json
	unlike "$out" "nan" "show json: no nan (null where a cell has no value)"
}

# bug 11: --since is a whole calendar date, and not after the newest sweep
since() {
	local r=$tmp/since db=$tmp/since.db bad
	hist "$r" "$db" 1 1 1 1 1 0.8 0.8 0.8 0.8 0.8
	for bad in 2026-13-45 2026-02-30 2026-01-10x 2026-1-10 2025-02-29; do
		run "$H" --db "$db" changes --since "$bad"
		is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "--since $bad: exit 2, one line"
	done
	like "$err" "--since 2025-02-29: not a calendar date \(YYYY-MM-DD\)" "saying it is no date"
	run "$H" --db "$db" changes --since 2099-01-01
	is "$rc" 2 "--since after the newest sweep: exit 2 (the gate would judge nothing)"
	like "$err" "after the newest sweep of the selection \(2026-12-10\)" "naming the newest"
	run "$H" --db "$db" changes --since 2026-12-06
	is "$rc" 1 "a real date at the step still gates"
	run "$H" --db "$db" changes --since 2024-02-29
	is "$rc" 1 "a leap day is a date"
}

# doubtful: values that steer the gate
steering() {
	local r=$tmp/since db=$tmp/since.db v d
	for v in 1.5 0x10 1e1 -1 0; do
		run "$H" --db "$db" changes --min-segment "$v"
		is "$rc" 2 "--min-segment $v: exit 2"
	done
	run "$H" --db "$db" changes --min-segment 1000
	is "$rc" 2 "--min-segment 1000 on 10 sweeps: exit 2, the gate would judge nothing"
	like "$err" "no series of the selection has the 2000 sweeps two segments need" "saying why"
	run "$H" --db "$db" changes --alpha 0x1p-4
	is "$rc" 2 "--alpha in hex: exit 2"
	d=$(hrun "$tmp/meta" unix1 x 1 1 date=not-a-date)
	run "$H" --db "$tmp/meta.db" add "$d"
	like "$rc:$err" "^2:.*meta's date 'not-a-date' is not a date" "meta date=not-a-date: refused"
	d=$(hrun "$tmp/meta" unix1 y 2 1 run_id=../../etc/passwd)
	run "$H" --db "$tmp/meta.db" add "$d"
	like "$rc:$err" "^2:.*meta's run_id is not a plain name" "run_id ../../etc/passwd: refused"
	d=$(hrun "$tmp/meta" unix1 z 3 1 commit=--output=/tmp/x)
	run "$H" --db "$tmp/meta.db" add "$d"
	like "$rc:$err" "^2:.*meta's commit '--output=/tmp/x' is not a commit hash" "commit=--output=...: refused"
	d=$(hrun "$tmp/meta" unix1 w 4 1 commit="$(printf '%064d' 7)")
	run "$H" --db "$tmp/meta.db" add "$d"
	is "$rc:$("$H" --db "$tmp/meta.db" list | tail -n +2 | cut -f 5)" "0:$(printf '%064d' 7)" \
		"a 64-digit commit is kept whole"
}

# bug 14 and the migration from schema 1: the rows kept, a negative version is no history
schema() {
	local db=$tmp/v1.db sql
	if ! command -v python3 >/dev/null || ! python3 -c 'import sqlite3' 2>/dev/null; then
		for _ in 1 2 3 4 5 6; do skip "python3's sqlite3 module needed"; done
		return
	fi
	# version 1's schema, exactly as that sb-history made it (store.c's first step)
	sql=$(sed -n '/\/\* 0 -> 1 \*\//,/\/\* 1 -> 2/p' analysis/history/store.c | grep '^[[:space:]]*"' |
		sed 's/^[[:space:]]*"//; s/",\{0,1\}$//' | tr -d '\n')
	python3 - "$db" "$sql" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2])
c.execute("INSERT INTO testbed VALUES (1, 'box', 'Xeon', 't', '2.9.0', 'cores', '', '', '')")
c.execute("INSERT INTO sweep VALUES (1, 'unix1', '6.1-x', '', 1, 'Linux 6.1', '6.1', '', '6.1', "
          "'2026-12-01T10:00:00Z', 'complete', '1', 'auto', '500', '/r/unix1/6.1-x')")
c.execute("INSERT INTO point VALUES (1, 'processes', 1, 2, 1.5e6)")
c.execute("INSERT INTO obs VALUES (1, 'processes', 1, 1, 1e6)")
c.execute("INSERT INTO obs VALUES (1, 'processes', 1, 2, 2e6)")
c.execute("PRAGMA user_version = 1"); c.commit()
EOF
	run "$H" --db "$db" list
	like "$rc:$err" "^2:.*schema version 1, this sb-history reads 2: run 'sb-history migrate'" "a version 1 file: migrate first"
	run "$H" --db "$db" migrate
	is "$rc" 0 "migrate 1 -> 2"
	is "$("$H" --db "$db" list | tail -n +2 | cut -f 1,2,7,10)" "$(printf 'unix1\t6.1-x\tbox\t2')" \
		"the sweep, its testbed and its runs kept"
	is "$("$H" --db "$db" show unix1 --format csv | awk -F, 'NR == 2 { print $10, $11 }')" "2 1.5e+06" \
		"and its per-run means"
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = -1"); c.commit()' "$db"
	run "$H" --db "$db" migrate
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "user_version -1, migrate: exit 2, one line"
	like "$err" "schema version -1: not a history" "saying so"
}

# doubtful: environment errors exit 3 (a file size limit: SQLite's I/O error), output that
# cannot be written commits nothing
environment() {
	local r=$tmp/env d
	d=$(hrun "$r" unix1 6.1 1 1)
	run bash -c 'trap "" XFSZ; ulimit -f 4; exec "$@"' sh "$H" --db "$tmp/env.db" add "$d"
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "3:1" "the file cannot grow (a full disk's kind): exit 3, one line"
	if [ -w /dev/full ]; then
		run sh -c '"$@" >/dev/full' sh "$H" --db "$tmp/full.db" add "$d"
		like "$rc:$err" "^3:.*cannot write the output .*: nothing added" "add >/dev/full: exit 3, nothing added"
		is "$("$H" --db "$tmp/full.db" list | wc -l)" 1 "and the history is empty"
	else
		skip "no /dev/full" && skip "no /dev/full"
	fi
}

# doubtful: SIGTERM mid-rebuild leaves no new file and no journal
interrupted() {
	local r=$tmp/big d i pid left=
	d=$(hrun "$r" unix1 6.1 1 1)
	# 400 copies under other run ids: one mkdir, one awk
	local dirs=()
	for ((i = 2; i <= 400; i++)); do dirs+=("$r/unix1/k$i"); done
	mkdir "${dirs[@]}"
	awk -v r="$r/unix1" 'FNR == 1 { f++ } f == 1 { m[++nm] = $0 } f == 2 { s[++ns] = $0 }
	END { for (i = 2; i <= 400; i++) {
		o = r "/k" i "/meta"
		for (k = 1; k <= nm; k++) print (m[k] ~ /^run_id=/ ? "run_id=k" i : m[k]) >o
		close(o); o = r "/k" i "/samples.csv"
		for (k = 1; k <= ns; k++) print s[k] >o
		close(o) } }' "$d/meta" "$d/samples.csv"
	"$H" --db "$r/history.db" rebuild >/dev/null 2>&1 &
	pid=$!
	for ((i = 0; i < 3000; i++)); do
		left=$(find "$r" -maxdepth 1 -name 'history.db.rebuild.*' | head -1)
		[ -n "$left" ] && break
		nap 0.002
	done
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	i=$?
	if [ -z "$left" ] || [ "$i" = 0 ]; then
		skip "the rebuild ended before it could be interrupted" && skip "likewise"
		return
	fi
	is "$i" 130 "SIGTERM mid-rebuild: exit 130"
	is "$(find "$r" -maxdepth 1 -name 'history.db.rebuild.*' | wc -l)" 0 "nor its new file nor its journal left behind"
}

main
exit "$_failed"
