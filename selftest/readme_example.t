#!/usr/bin/env bash
# The testcase example in README.md builds warning-free against testcase.h alone, links the harness and runs.
. "$(dirname "$0")/lib.sh"
plan 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' README.md >"$tmp/example1.c"
[ -s "$tmp/example1.c" ]
ok $? "README.md has a C example"
san=${SB_SAN:+-fsanitize=$SB_SAN}
# testcase.h alone: a testcase sees nothing else of the harness.
run ${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -pthread $san -Irunner/include \
	-o "$tmp/example1_processes" "$tmp/example1.c" "$B/obj/runner/mode_processes.o" \
	"$B/libscalebench.a" $(pkg-config --libs hwloc) -lm
is "$rc" 0 "it compiles warning-free and links${err:+ ($err)}"
run "$tmp/example1_processes" -t 2 --period-ms 100 -s 2 --warmup 1 --param dir="$tmp"
is "$rc" 0 "it runs${err:+ ($err)}"
like "$out" "^average:[1-9][0-9]*$" "and counts"
