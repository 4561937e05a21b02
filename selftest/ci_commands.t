#!/usr/bin/env bash
# CI runs exactly README's test commands: the `make check...` lines of .ci/run are those README lists, in order.
# sb-san: skip: README against .ci/run: docs only
. "$(dirname "$0")/lib.sh"
plan 3
ci=$(grep -E '^make check' .ci/run | tr '\n' '|')
readme=$(sed -n '/^The test commands, which CI/,/^$/p' README.md | tr '\n' ' ' | grep -oE '`make check[^`]*`' | tr -d '`' | tr '\n' '|')
like "$ci" "^make check-ci\|$" ".ci/run runs make check-ci (both builds, each selftest once)"
like "$(grep -c '^make check' .ci/run)" "^1$" "and no other test command"
is "$ci" "$readme" "the same commands, in the same order, as README says"
