#!/usr/bin/env bash
# sb-history's order: by time, by kernel version (6.9 < 6.10-rc1 < 6.10 < 6.10.1), by a commit list (sweeps not in it left out with a note); columns by label or kernel.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/results
DB=$R/history.db
plan 19

# added out of version order: day = the order they were measured in
labels=(6.10.1 6.9 v6.10-rc2 6.10 6.10-rc1 6.11-rc1 6.1)
commits=(aaaaaaa1 bbbbbbb2 ccccccc3 ddddddd4 eeeeeee5 fffffff6 ababab77)
for i in "${!labels[@]}"; do
	hrun "$R" unix1 "${labels[i]}" $((i + 1)) 1 "commit=${commits[i]}0123456789" >/dev/null
done
"$H" --db "$DB" add "$R"/unix1/* >/dev/null
cols() { "$H" --db "$DB" list unix1 "$@" | tail -n +2 | cut -f 3 | tr '\n' ' '; }
is "$(cols)" "6.10.1 6.9 v6.10-rc2 6.10 6.10-rc1 6.11-rc1 6.1 " "time (the default): as measured"
is "$(cols --order version)" "6.1 6.9 6.10-rc1 v6.10-rc2 6.10 6.10.1 6.11-rc1 " \
	"version: numbers compared as numbers, rc's before their release, a v prefix ignored"
printf '%s\n' ddddddd4 '# a comment' bbbbbbb20123456789 aaaaaaa10123456789 9999999 eeeeeee5 >"$tmp/revs"
run "$H" --db "$DB" list unix1 --order commits "$tmp/revs"
is "$rc" 0 "commits: exit 0"
is "$(printf '%s\n' "$out" | tail -n +2 | cut -f 3 | tr '\n' ' ')" "6.10 6.9 6.10.1 6.10-rc1 " \
	"commits: the file's order, short and full hashes matched"
like "$err" "note: 3 sweeps left out: their commit is not in .*revs" "the others left out, with a note"
run "$H" --db "$DB" list unix1 --order commits "$tmp/none"
is "$rc" 2 "a commits file that does not exist: exit 2"
like "$err" "--order commits .*none: No such file" "named"
# a FIFO without a writer stalled every command for good; a pipe (<(git rev-list ...)) is still read
mkfifo "$tmp/fifo"
run timeout 10 "$H" --db "$DB" list unix1 --order commits "$tmp/fifo"
is "$rc:$err" "2:sb-history: --order commits $tmp/fifo: no commit in it" "a FIFO without a writer: exit 2 at once, named"
run "$H" --db "$DB" list unix1 --order commits <(cat "$tmp/revs")
is "$rc:$(printf '%s\n' "$out" | tail -n +2 | cut -f 3 | tr '\n' ' ')" "0:6.10 6.9 6.10.1 6.10-rc1 " "a pipe: read, the file's order"
run "$H" --db "$DB" list unix1 --order commits /dev/zero
is "$rc:$err" "2:sb-history: --order commits /dev/zero: a device or socket, not a file or a pipe" \
	"a device: exit 2, named (/dev/zero was read until memory ran out)"
run "$H" --db "$DB" list unix1 --order commits
is "$rc" 2 "--order commits without a file: usage error"
run "$H" --db "$DB" list unix1 --column kernel
like "$(printf '%s\n' "$out" | sed -n 2p | cut -f 3)" '^6\.10\.1@aaaaaaa10123$' "--column kernel: release@commit"
run "$H" --db "$DB" show unix1 --order version --format csv
is "$(printf '%s\n' "$out" | awk -F, '$7 == "processes" && $8 == 1 { printf "%s ", $4 }')" \
	"6.1 6.9 6.10-rc1 v6.10-rc2 6.10 6.10.1 6.11-rc1 " "show follows the order: one column per kernel"
# changes --since a kernel is a place in the chosen order
run "$H" --db "$DB" changes --order version --since 6.10 --format json
is "$rc" 0 "a flat history: no change, exit 0"
run "$H" --db "$DB" changes --since 5.0
is "$rc" 2 "--since a kernel the history does not have: exit 2"
like "$err" "--since 5.0: no sweep of that kernel" "saying so"
# usage: one line and a hint, exit 2; --help anywhere
run "$H" --db "$DB" show unix1 --bogus
is "$rc:$err" "2:sb-history: unknown option '--bogus'
try 'sb-history --help'" "an unknown option: exit 2, named"
run "$H" --db "$DB" frob
is "$rc" 2 "an unknown command: exit 2"
run "$H" changes --help
like "$rc:$out" '^0:usage: sb-history add' "--help anywhere: the usage, exit 0"
