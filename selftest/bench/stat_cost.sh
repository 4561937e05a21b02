#!/usr/bin/env bash
# stat_cost.sh: the time one verdict's statistics take on this machine (a p-value, a t quantile at a new df), for docs/COMPARE.md "Speed".
#
#   selftest/bench/stat_cost.sh [CALLS]     (200,000 calls each by default)
#
# Compiles selftest/bench/stat_cost.c against the build's libsbanalysis.a and
# prints ns a call. Not part of make check: a time, not an assertion.
set -eu

main() {
	local b=${SB_BUILD:-build} tmp
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf -- '$tmp'" EXIT
	cd "$(dirname "$0")/../.."
	make -s BUILD="$b" "$b/libsbanalysis.a" >&2
	"${CC:-cc}" -std=gnu11 -O2 -Wall -Wextra -I. -Ianalysis -o "$tmp/cost" selftest/bench/stat_cost.c \
		"$b/libsbanalysis.a" -lm
	"$tmp/cost" "$@"
}

main "$@"
