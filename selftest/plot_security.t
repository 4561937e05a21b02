#!/usr/bin/env bash
# make plot as root over a shared (sticky, world-writable) results directory writes nothing through what another user (nobody) planted: a link at a temporary file's name, a testcase directory of nobody's.
# sb-san: skip: plot.py's writes: Python
. "$(dirname "$0")/lib.sh"
if ! command -v gnuplot >/dev/null 2>&1; then echo "1..0 # skip gnuplot not installed"; exit 0; fi
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
	echo "1..0 # skip needs root, the user nobody and runuser"
	exit 0
fi
plan 7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
as_nobody() { runuser -u nobody -- "$@"; }
R=$tmp/shared
mkdir -m 1777 "$R"
cp -a selftest/data/plot/good/pipe1 "$R/pipe1"	# root's own testcase
# nobody's (copied by root and given away: nobody may not be able to read this checkout)
cp -r selftest/data/plot/good/unix1 "$R/unix1" && chown -R nobody "$R/unix1"
victim=$tmp/victim
printf 'victim\n' >"$victim"
show() { tr -c 'a-z\n' _ <"$1" | head -c 32; }

# plot.py stopped before it starts: its pid names the temporary files it used to make
bash -c 'kill -STOP $$; exec plot/plot.py --results "$1"' plot.py "$R" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for ((i = 0; i < 200; i++)); do
	[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" != T ] || break
	sleep 0.05
done
as_nobody ln -s "$victim" "$R/.index.html.tmp$pid"
run_dir=$R/unix1/6.8.0-lock-20260102T100000
for f in scaling.png scaling.svg per_task.png per_task.svg; do
	as_nobody ln -s "$victim" "$run_dir/.$f.tmp$pid"
	ln -s "$victim" "$R/pipe1/6.1.0-old-20260103T100000/.$f.tmp$pid"	# (a link in root's own run directory)
done
kill -CONT "$pid"
rc=0
wait "$pid" || rc=$?
is "$(show "$victim")" victim "the file behind the links is untouched"
is "$rc" 2 "a testcase directory of another user is skipped: exit 2 at the end"
like "$(cat "$tmp/err")" "^plot\\.py: $R/unix1: owned by another user \\(not this user or root\\): not drawn \\(skipped\\)\$" \
	"in one line naming it"
is "$(find "$R/unix1" -name '*.png' -o -name '*.svg' | wc -l)" 0 "nothing drawn into it"
is "$(find "$R/pipe1" -name 'scaling.png' | wc -l)" 1 "root's own testcase is drawn"
is "$(stat -c %a "$R/pipe1/6.1.0-old-20260103T100000/scaling.png" "$R/index.html" | sort -u)" 644 \
	"its plots and index.html with the umask's mode, as before"
is "$(find "$R" -name '.*.tmp' ! -type l | wc -l)" 0 "no temporary file left"
