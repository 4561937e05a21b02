#!/usr/bin/env bash
# Testcase parameters (--param) and the private tmp directory, removed however the run ends.
. "$(dirname "$0")/lib.sh"
bin=$B/selftest/params_processes
plan 22
short="-t 2 --period-ms 100 -s 1 --warmup 0"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

run "$bin" --info
like "$out" "^param=size	2048	int 1\.\.1048576	a size in bytes$" "--info lists an int parameter with default, range and help"
like "$out" "^param=word	hello	string	a word$" "and a string parameter"
like "$out" "^param=dir	" "a testcase that uses sb_tmpdir() has the dir parameter"
run "$B/bin/null1_processes" --info
unlike "$out" "param=dir" "one that does not, has not"

run "$bin" $short --param size=4096 --param expect_size=4096 --param word=x --param dir="$dir"
is "$rc" 0 "parameters reach the testcase before testcase_prepare${err:+ ($err)}"
run "$bin" $short --param size=4096
is "$rc" 1 "(and the fixture notices a wrong value)"
like "$err" "size is 4096, expected 2048" "(with its message)"

for bad in size=0 size=abc size=1e3 size=99999999999 size= nosuch=1 size =5; do
	run "$bin" $short --param "$bad"
	is "$rc" 2 "--param '$bad' exits 2 ($err)"
done
run "$bin" $short --param nosuch=1
like "$err" "unknown parameter 'nosuch' \(this testcase has: size, word, expect_size, crash, blank, dir\)" "an unknown name lists the known ones"

is "$(ls -A "$dir")" "" "the tmp directory is gone after a normal run"
run "$bin" -t 2 --period-ms 100 -s 20 --warmup 0 --param dir="$dir" --param crash=1
is "$rc" 1 "a crashing run fails"
is "$(ls -A "$dir")" "" "the tmp directory is gone after a crash"
"$bin" -t 2 --period-ms 100 -s 0 --param dir="$dir" >/dev/null 2>&1 &
pid=$!
# polled: the runner makes it in prepare, however long its start takes on a loaded machine
wait_until 30 eval '[ -n "$(ls -A "$dir")" ]'
ok $? "the tmp directory exists while running"
kill -INT $pid
wait $pid
is "$?" 130 "SIGINT exits 130"
is "$(ls -A "$dir")" "" "the tmp directory is gone after SIGINT"
