#!/usr/bin/env bash
# sb-history's store: add is idempotent by run id, refuses sweeps that are not complete (unless --partial), rebuild gives the incremental database's answers, a missing, corrupt, locked, read-only or newer database is one line and exit 2 and leaves the run directories alone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/results
DB=$R/history.db
plan 39

for i in 1 2 3 4 5 6; do hrun "$R" unix1 "6.$i" "$i" 1 >/dev/null; done
for i in 1 2 3; do hrun "$R" pipe1 "6.$i" "$i" 2 >/dev/null; done
run "$H" --db "$DB" add "$R"/unix1/*/
is "$rc" 0 "add: six complete sweeps"
like "$out" '6 added, 0 already there' "add says what it did"
run "$H" --db "$DB" list unix1
is "$(printf '%s\n' "$out" | tail -n +2 | cut -f 3 | tr '\n' ' ')" "6.1 6.2 6.3 6.4 6.5 6.6 " "list: the six, in time order"
run "$H" --db "$DB" list unix1 unix11
is "$rc:$out" "2:" "list of a testcase with no sweep (a typo): exit 2, no table"
like "$err" "^sb-history: unix11: no sweep of it in .*history.db$" "named in one line, as show names it"
is "$("$H" --db "$DB" list | tail -n +2 | wc -l)" 6 "list with no testcase: every sweep"
before=$("$H" --db "$DB" show unix1 --format csv)
run "$H" --db "$DB" add "$R"/unix1/*/
is "$rc:$(printf '%s' "$out" | grep -c '0 added, 6 already there')" "0:1" "add again: nothing added"
is "$("$H" --db "$DB" show unix1 --format csv)" "$before" "and the history answers as before"
is "$(printf '%s\n' "$before" | awk -F, '$7 == "processes" && $8 == 4 && $5 == 0 { print $10 }')" 3 \
	"the per-run means are stored: 3 runs behind a point"

# refusals: running, failed, interrupted; --partial adds them
run_r=$(hrun "$R" unix1 run 7 1 status=running)
fail_r=$(hrun "$R" unix1 failed 8 1 status=failed "error=the runner crashed")
run "$H" --db "$DB" add "$run_r" "$fail_r"
is "$rc" 2 "a running and a failed sweep: exit 2"
like "$err" "status running: not added \(--partial adds it\)" "running: refused, saying why"
like "$err" "status failed: not added" "failed: refused"
like "$out" '0 added, 0 already there, 0 replaced \(status changed\), 2 not complete' "nothing added"
run "$H" --db "$DB" --partial add "$run_r"
is "$rc:$(printf '%s' "$out" | grep -c '1 added')" "0:1" "--partial adds the running one"
sed -i 's/^status=running$/status=complete/' "$run_r/meta"
run "$H" --db "$DB" add "$run_r"
like "$out" '1 replaced' "once complete, the same run id is replaced, not added twice"
is "$("$H" --db "$DB" list unix1 | grep -c 'run-')" 1 "one row for it"
run "$H" --db "$DB" add "$tmp/nothing"
is "$rc" 2 "a directory that does not exist: exit 2"
like "$err" "nothing" "named"

# rebuild from results/ alone: the same answers as the incremental database
"$H" --db "$DB" add "$R"/pipe1/* >/dev/null
cp "$DB" "$tmp/incremental.db"
run "$H" --db "$DB" rebuild
is "$rc" 0 "rebuild"
like "$out" '10 added.*1 not complete' "rebuild: every complete run, the failed and the running-then-complete one counted"
for t in unix1 pipe1; do
	is "$("$H" --db "$DB" show "$t" --format csv)" "$("$H" --db "$tmp/incremental.db" show "$t" --format csv)" \
		"rebuild: show $t as the incremental database"
done
is "$("$H" --db "$DB" changes --format json)" "$("$H" --db "$tmp/incremental.db" changes --format json)" \
	"rebuild: changes as the incremental database"
is "$("$H" --db "$DB" list | cut -f 1-9)" "$("$H" --db "$tmp/incremental.db" list | cut -f 1-9)" "rebuild: list as well"

# bad databases: one line, exit 2, run directories untouched
hrun "$R" unix1 6.7 20 1 >/dev/null
sums=$(tree_sum "$R/unix1")
run "$H" --db "$tmp/none.db" show unix1
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "a missing database: exit 2, one line"
like "$err" "none.db: no history there" "saying so"
head -c 4096 /dev/urandom >"$tmp/corrupt.db"
printf 'SQLite format 3\0garbage' | dd of="$tmp/corrupt2.db" bs=1 conv=notrunc 2>/dev/null
for db in corrupt corrupt2; do
	run "$H" --db "$tmp/$db.db" add "$R"/unix1/*/
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "$db database, add: exit 2, one line"
	like "$err" "$db.db: (file is not a database|database disk image is malformed)" "$db: says what is wrong"
done
run "$H" --db "$tmp/corrupt.db" changes
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "a corrupt database, changes: exit 2, one line"
if command -v python3 >/dev/null && python3 -c 'import sqlite3' 2>/dev/null; then
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 99"); c.commit()' "$tmp/incremental.db"
	run "$H" --db "$tmp/incremental.db" show unix1
	is "$rc" 2 "a newer schema: exit 2"
	like "$err" "schema version 99 is newer than this sb-history's \(2\)" "naming the versions"
	# a writer holds the database: add waits --timeout, then gives up
	python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close(); time.sleep(8)' "$DB" "$tmp/locked" &
	holder=$!
	wait_until 10 test -e "$tmp/locked"
	run "$H" --db "$DB" --timeout 0.3 add "$R"/unix1/*/
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "a locked database: exit 2 after --timeout, one line"
	like "$err" "database is locked \(another process holds it: try again" "saying so"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
else
	for i in 1 2 3 4 5 6; do skip "python3's sqlite3 module needed"; done
fi
ro=1	# a read-only database: as nobody when root (root writes anywhere), else chmod
if [ "$(id -u)" != 0 ]; then
	chmod 444 "$DB"
	as_nobody() { "$@"; }
elif command -v setpriv >/dev/null && chmod -R a+rX "$tmp" && chmod 755 "$tmp" &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$PWD/$H" -a -r "$DB"; then
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	ro=0
fi
if [ "$ro" = 1 ]; then
	run as_nobody "$PWD/$H" --db "$DB" add "$R"/unix1/*/
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "a read-only database: exit 2, one line"
	like "$err" "history.db: read-only" "saying so"
	run as_nobody "$PWD/$H" --db "$DB" show unix1 --format csv
	is "$rc" 0 "a read-only database can be read"
else
	for i in 1 2 3; do skip "a read-only database: root, and nobody cannot reach the build here"; done
fi
is "$(tree_sum "$R/unix1")" "$sums" "no run directory was touched by any of it"
