#!/usr/bin/env bash
# The CI workflow in docs/COMPARE.md ("### In CI") would really run: it parses as YAML, every job has a
# timeout, uploads always run, the kernel and the hardware are checked, the compare job writes the summary
# and gates; every project command and option it calls exists.
# sb-san: skip: the CI workflow's YAML in docs/COMPARE.md: docs and Python
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! python3 -c 'import yaml' 2>/dev/null || ! command -v jq >/dev/null; then
	skip "needs python3-yaml and jq (make deps installs them)"
	plan "$_n"
	exit 0
fi
# The first yaml block after the "### In CI" heading.
awk '/^### In CI/ { on = 1 } on && /^```yaml/ { in_ = 1; next } in_ && /^```/ { exit } in_' docs/COMPARE.md >"$tmp/ci.yaml"
[ -s "$tmp/ci.yaml" ]
ok $? "docs/COMPARE.md has a yaml block under '### In CI'"
python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' "$tmp/ci.yaml" >"$tmp/ci.json" 2>"$tmp/err"
ok $? "it parses as YAML${err:+ }$(head -n 2 "$tmp/err" | tr '\n' ' ')"
q() { jq -r "$@" "$tmp/ci.json"; }

is "$(q '.jobs | keys | join(" ")')" "compare measure" "two jobs: measure and compare"
is "$(q '[.jobs[] | select(."timeout-minutes" | type != "number")] | length')" 0 "every job has timeout-minutes"
is "$(q '[.jobs[].steps[] | select((.uses // "") | startswith("actions/upload-artifact")) | select((.if // "") | test("always\\(\\)") | not)] | length')" 0 \
	"every upload runs if: always()"
is "$(q '[.jobs[].steps[] | select((.uses // "") | startswith("actions/upload-artifact"))] | length')" 1 "the measure job uploads its results"
like "$(q '.jobs.measure.strategy.matrix.include | map(.release // "") | map(select(. != "")) | length')" '^[1-9]' "the matrix names each kernel's release"
like "$(q '[.jobs.measure.steps[].run // ""] | join("\n")')" 'uname -r.*matrix\.release' "a measure step checks uname -r against the matrix's release"
like "$(q '[.jobs.compare.steps[].run // ""] | join("\n")')" 'diff base/topology.txt new/topology.txt' "the compare job checks the hardware is the same"
cmp_run=$(q '[.jobs.compare.steps[].run // ""] | join("\n")')
like "$cmp_run" 'GITHUB_STEP_SUMMARY' "the compare job writes the job summary"
like "$cmp_run" 'exit "\$status"' "and exits with compare.sh's status (the gate)"
is "$(q '.jobs.compare.needs')" measure "compare runs after the measurements"

# Every project command the workflow runs exists, with the options it gives.
runs=$(q '[.jobs[].steps[].run // ""] | join("\n")')
for c in $(printf '%s\n' "$runs" | grep -oE '\./[A-Za-z0-9_.-]+\.sh' | sort -u); do
	[ -x "$c" ]
	ok $? "$c exists in the project"
	for o in $(printf '%s\n' "$runs" | grep -F "$c " | grep -oE ' --[a-z-]+' | sort -u); do
		"$c" --help 2>&1 | grep -qE -- "^ *(-[a-zA-Z], )?$o( |,|$)"
		ok $? "$c has the option $o"
	done
done
for tool in $(printf '%s\n' "$runs" | grep -oE 'build/bin/[A-Za-z0-9_-]+' | sort -u); do
	[ -x "$B/bin/${tool#build/bin/}" ]
	ok $? "make builds $tool"
done
for target in $(printf '%s\n' "$runs" | grep -oE '(^|[ &;])make( [a-z]+)?' | awk '{ print $2 }' | sort -u); do
	make --no-print-directory -n "$target" >/dev/null 2>&1
	ok $? "the Makefile has the target '$target'"
done
like "$(grep -c 'docs/VM.md' docs/COMPARE.md)" '^[1-9]' "it points at docs/VM.md for kernels in VMs"
plan "$_n"
exit "$_failed"
