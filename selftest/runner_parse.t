#!/usr/bin/env bash
# Strict option parsing: every bad value exits 2 with one line naming the option and the value.
. "$(dirname "$0")/lib.sh"
bin=$B/bin/null1_processes
plan 54

check() {	# check "ARGS" REGEX
	run $bin $1 --print-placement
	is "$rc" 2 "'$1' exits 2"
	like "$err" "$2" "'$1' names the problem"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "'$1' says it in one line"
}
check "-t 0" "-t/--tasks: '0' is out of range"
check "-t -1" "-t/--tasks: '-1' is out of range"
check "-t abc" "-t/--tasks: 'abc' is not a whole number"
check "-t 1e3" "-t/--tasks: '1e3' is not a whole number"
check "-t 99999999999" "-t/--tasks: '99999999999' is out of range"
check "--period-ms 0" "--period-ms: '0' is out of range"
check "-s x" "-s/--samples: 'x' is not a whole number"
check "--placement nowhere" "--placement: unknown placement 'nowhere'"
check "--format xml" "--format: unknown format 'xml'"
check "--stall-timeout 0" "--stall-timeout: '0' is out of range"

# A malformed command line: one line naming the problem, one pointing at --help, no usage text.
usage_error() {	# usage_error "ARGS" MESSAGE
	run $bin $1
	is "$rc" 2 "'$1' exits 2"
	is "$(printf '%s\n' "$err" | sed -n 1p)" "null1_processes: $2" "'$1' names the problem"
	is "$(printf '%s\n' "$err" | sed 1d)" "try 'null1_processes --help'" "'$1' then points at --help, and says no more"
}
usage_error "--bogus" "unknown option '--bogus'"
usage_error "-x" "unknown option '-x'"
usage_error "extra" "unexpected argument 'extra'"
usage_error "-t" "option '-t' needs a value"
usage_error "--period-ms" "option '--period-ms' needs a value"
usage_error "--info=1" "option '--info' takes no value"

run $bin --param nosuch=1
is "$rc" 2 "an unknown parameter exits 2"
like "$err" "unknown parameter 'nosuch'.*no parameters" "and says the testcase has none"

run $bin -h
is "$rc" 0 "-h exits 0"
like "$out" "--placement P" "and documents the options"

run $bin --info
like "$out" "^modes=processes,threads" "--info lists both modes"
like "$out" "name=null1" "--info names the testcase"
