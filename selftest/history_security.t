#!/usr/bin/env bash
# What sb-history trusts: in a shared results directory another user (nobody) can neither make root's history write through a link, a planted database, trigger or journal, nor feed it run directories; a FIFO or /dev/zero in a run directory is refused, not waited on; control characters from meta are shown as \xNN.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
plan 38

main() {
	readers
	escapes
	if [ "$(id -u)" != 0 ]; then
		for ((i = 0; i < 23; i++)); do skip "the other user's attacks need root (to be nobody)"; done
	elif ! as_nobody_works; then
		for ((i = 0; i < 23; i++)); do skip "no user nobody, or neither setpriv nor runuser"; done
	else
		planted_links
		planted_databases
		planted_journal
		planted_rundirs
		rebuild_name
	fi
}

# as_nobody CMD...: CMD as the user nobody
as_nobody() {
	if command -v setpriv >/dev/null; then
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- "$@"
	else
		runuser -u nobody -- "$@"
	fi
}
as_nobody_works() { id nobody >/dev/null 2>&1 && chmod 755 "$tmp" && as_nobody test -w /dev/null 2>/dev/null; }

# bug 7: what is not a regular file is refused, not read (a FIFO would stall, /dev/zero fill memory)
readers() {
	local r=$tmp/rd d
	d=$(hrun "$r" unix1 6.1 1 1)
	hrun "$r" unix1 6.2 2 1 >/dev/null
	mkdir -p "$r/evil$(printf '\033')[2J/x"
	mkfifo "$r/evil$(printf '\033')[2J/x/meta"
	run timeout 20 "$H" --db "$r/history.db" rebuild
	is "$rc" 0 "rebuild with a FIFO for a meta: not stalled, exit 0"
	like "$err" "evil\\\\x1b\\[2J/x/meta: not a regular file \(a FIFO, device or socket is not read\)" \
		"the FIFO is named, the escape in its path as \\x1b"
	is "$(printf '%s' "$err" | tr -d -c '\033' | wc -c)" 0 "no escape byte reaches stderr"
	like "$out" "2 added" "the real sweeps are added"
	rm "$d/samples.csv"
	ln -s /dev/zero "$d/samples.csv"
	run timeout 20 "$H" --db "$tmp/rd2.db" add "$d"
	is "$rc" 2 "samples.csv a link to /dev/zero: exit 2 at once (not read until memory runs out)"
	like "$err" "samples.csv: not a regular file" "saying so"
	run timeout 20 "$B/bin/sb-summary" --table "$d"
	is "$rc" 2 "sb-summary refuses it too, exit 2"
	# a link in the directories above the history is the user's own (results -> /data/results): followed
	mkdir "$tmp/data"
	ln -s data "$tmp/linked"
	run "$H" --db "$tmp/linked/history.db" add "$r/unix1/6.2-20261202T100000"
	is "$rc:$(printf '%s' "$out" | grep -c '1 added')" "0:1" "a history in a directory reached through a link: added"
	ok "$([ -f "$tmp/data/history.db" ]; echo $?)" "into the directory the link names"
}

# bug 10: control characters from meta are escaped in list and show
escapes() {
	local r=$tmp/esc db=$tmp/esc.db f
	hrun "$r" unix1 "6.1" 1 1 "label=$(printf '\033[2J\033[31mEVIL\tX')" \
		"kernel=$(printf 'Linux 6.1\033]0;owned\007 #1')" >/dev/null
	hrun "$r" unix1 6.2 2 1 >/dev/null
	"$H" --db "$db" add "$r"/unix1/* >/dev/null
	run "$H" --db "$db" list
	is "$(printf '%s' "$out" | tr -d -c '\033\007' | wc -c)" 0 "list: no escape or bell byte"
	is "$(printf '%s\n' "$out" | awk -F '\t' 'NF != 11' | wc -l)" 0 "list: a tab in a label leaves every line 11 fields"
	like "$out" '\\x1b\[2J\\x1b\[31mEVIL\\x09X' "the label shown as \\xNN"
	for f in text markdown csv; do
		run "$H" --db "$db" show unix1 --format "$f"
		is "$rc:$(printf '%s' "$out" | tr -d -c '\033\007' | wc -c)" "0:0" "show --format $f: no escape or bell byte"
	done
}

# bug 3: a link planted where the history would be is not followed (the victim is unchanged, or not made)
planted_links() {
	local s=$tmp/shared d
	mkdir -m 1777 "$s"
	d=$(hrun "$tmp/own" unix1 6.1 1 1)
	printf 'precious\n' >"$tmp/victim"
	as_nobody ln -s "$tmp/victim" "$s/history.db"
	as_nobody ln -s "$tmp/made" "$s/other.db"
	run "$H" --db "$s/history.db" add "$d"
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "a planted link at history.db: exit 2, one line"
	like "$err" "history.db: a symbolic link: refused" "saying so"
	is "$(cat "$tmp/victim")" precious "the file it names is untouched"
	run "$H" --db "$s/other.db" add "$d"
	is "$rc" 2 "a dangling planted link: exit 2"
	ok "$([ ! -e "$tmp/made" ]; echo $?)" "no file made where it points"
}

# bug 3: a database of another user, of another program, or with a trigger, is refused untouched
planted_databases() {
	local s=$tmp/shared d sum
	d=$tmp/own/unix1/6.1-20261201T100000
	"$H" --db "$s/nobodys.db" add "$d" >/dev/null
	chown nobody "$s/nobodys.db"
	run "$H" --db "$s/nobodys.db" add "$d"
	like "$rc:$err" "^2:.*nobodys.db: owned by another user \(not this user or root\): refused" \
		"another user's history: refused, exit 2"
	run "$H" --db "$s/nobodys.db" changes
	is "$rc" 2 "nor is it read (its numbers would steer the gate)"
	if ! command -v python3 >/dev/null || ! python3 -c 'import sqlite3' 2>/dev/null; then
		for ((i = 0; i < 5; i++)); do skip "python3's sqlite3 module needed"; done
		return
	fi
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)"); c.commit()' "$tmp/app.db"
	sum=$(cksum <"$tmp/app.db")
	run "$H" --db "$tmp/app.db" add "$d"
	like "$rc:$err" "^2:.*app.db: not a history \(tables of another program" "another program's database: exit 2"
	is "$(cksum <"$tmp/app.db")" "$sum" "and it is unchanged (no tables added, no user_version)"
	"$H" --db "$tmp/trig.db" add "$d" >/dev/null
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TRIGGER halve AFTER INSERT ON obs BEGIN UPDATE obs SET value = value / 2"
          " WHERE sweep = new.sweep AND run = new.run AND mode = new.mode AND tasks = new.tasks; END")
c.commit()' "$tmp/trig.db"
	sum=$(cksum <"$tmp/trig.db")
	d=$(hrun "$tmp/own" unix1 6.2 2 1)
	run "$H" --db "$tmp/trig.db" add "$d"
	like "$rc:$err" "^2:.*trig.db: its schema is not the one this sb-history made \(a trigger" \
		"a trigger added to a history: exit 2"
	is "$(cksum <"$tmp/trig.db")" "$sum" "nothing written through it"
	run "$H" --db "$tmp/trig.db" list
	is "$rc" 2 "and it is not read either"
}

# bug 3: a -journal, -wal or -shm beside the history must be this user's regular file (a hot journal is rolled in)
planted_journal() {
	local s=$tmp/shared d=$tmp/own/unix1/6.1-20261201T100000 sum
	"$H" --db "$s/root.db" add "$d" >/dev/null
	sum=$(cksum <"$s/root.db")
	as_nobody sh -c 'head -c 1024 /dev/urandom >"$1"' sh "$s/root.db-journal"
	run "$H" --db "$s/root.db" list
	like "$rc:$err" "^2:.*root.db-journal: owned by another user: refused" "another user's journal beside it: exit 2"
	is "$(cksum <"$s/root.db")" "$sum" "the history unchanged"
	rm -f "$s/root.db-journal"
	as_nobody ln -s "$tmp/victim" "$s/root.db-wal"
	run "$H" --db "$s/root.db" add "$d"
	like "$rc:$err" "^2:.*root.db-wal: not a regular file" "a link for its -wal: exit 2"
	is "$(cat "$tmp/victim")" precious "the file it names untouched"
}

# bug 3: run directories in another user's results/<test> are not taken in
planted_rundirs() {
	local s=$tmp/shared/results d
	mkdir -m 1777 "$s"
	hrun "$s" unix1 6.1 1 1 >/dev/null
	as_nobody mkdir "$s/evil"
	cp -r "$s/unix1/6.1-20261201T100000" "$tmp/evilrun"
	sed -i 's/^test=.*/test=evil/' "$tmp/evilrun/meta"
	chmod -R a+rX "$tmp/evilrun"
	as_nobody cp -r "$tmp/evilrun" "$s/evil/6.1-20261201T100000"
	run "$H" --db "$s/history.db" rebuild
	like "$err" "evil/6.1-20261201T100000: (its testcase's|the run) directory is owned by another user" \
		"rebuild: a run in another user's testcase directory is named and left out"
	is "$("$H" --db "$s/history.db" list | tail -n +2 | cut -f 1 | tr '\n' ' ')" "unix1 " "only root's sweep is in"
	run "$H" --db "$s/history.db" add "$s/evil/6.1-20261201T100000"
	is "$rc" 2 "add refuses it too: exit 2"
}

# bug 3: rebuild's new file has a random name: a link planted at DB.rebuild.PID is not written through
rebuild_name() {
	local s=$tmp/shared/rb
	mkdir -m 1777 "$s"
	hrun "$s" unix1 6.1 1 1 >/dev/null
	if ! unshare --pid --fork true 2>/dev/null; then
		for ((i = 0; i < 4; i++)); do skip "unshare --pid (a known pid) not available"; done
		return
	fi
	# in a new pid namespace the rebuild is pid 1: its old name was history.db.rebuild.1
	as_nobody ln -s "$tmp/rbvictim" "$s/history.db.rebuild.1"
	run unshare --pid --fork "$PWD/$H" --db "$s/history.db" rebuild
	is "$rc" 0 "rebuild beside a planted history.db.rebuild.1: exit 0"
	ok "$([ ! -e "$tmp/rbvictim" ]; echo $?)" "no file made where the link points"
	ok "$([ -f "$s/history.db" ] && [ ! -L "$s/history.db" ]; echo $?)" "history.db a regular file, not the link"
	is "$("$H" --db "$s/history.db" list | wc -l)" 2 "with the sweep"
}

main
exit "$_failed"
