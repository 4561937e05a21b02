#!/usr/bin/env bash
# The CI workflows in docs/COMPARE.md ("### In CI") and docs/VM.md ("## CI: two kernels in one job") would
# really run: they parse as YAML, every job has a timeout, uploads always run, the kernel and the hardware
# are checked, the compare step writes the summary and gates; VM.md's measures both kernels in one job
# (alternating rounds on one machine) after a step that tells KVM from TCG (run here against a fake
# /dev/kvm); every project command and option they call exists; actionlint where it is installed.
# sb-san: skip: the CI workflows' YAML in docs/: docs, shell and Python
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
# has_option CMD OPTION: CMD --help lists OPTION
has_option() { "$1" --help 2>&1 | grep -qE -- "^ *(-[a-zA-Z], )?$2( |,|$)"; }
# commands_exist RUNS: every ./x.sh with its options, build/bin tool and make target RUNS calls
commands_exist() {
	local c o tool target
	for c in $(printf '%s\n' "$1" | grep -oE '\./[A-Za-z0-9_.-]+\.sh' | sort -u); do
		[ -x "$c" ]
		ok $? "$c exists in the project"
		for o in $(printf '%s\n' "$1" | grep -F "$c " | grep -oE ' --[a-z-]+' | sort -u); do
			has_option "$c" "$o"
			ok $? "$c has the option $o"
		done
	done
	for tool in $(printf '%s\n' "$1" | grep -oE 'build/bin/[A-Za-z0-9_-]+' | sort -u); do
		[ -x "$B/bin/${tool#build/bin/}" ]
		ok $? "make builds $tool"
	done
	for target in $(printf '%s\n' "$1" | grep -oE '(^|[ &;])make( [a-z]+)?' | awk '{ print $2 }' | sort -u); do
		make --no-print-directory -n "$target" >/dev/null 2>&1
		ok $? "the Makefile has the target '$target'"
	done
}
commands_exist "$runs"
like "$(grep -c 'docs/VM.md' docs/COMPARE.md)" '^[1-9]' "it points at docs/VM.md for kernels in VMs"

# ---- docs/VM.md: two kernels, one job, one machine ----
awk '/^## CI: two kernels in one job/ { on = 1 } on && /^```yaml/ { in_ = 1; next } in_ && /^```/ { exit } in_' docs/VM.md >"$tmp/vm.yaml"
[ -s "$tmp/vm.yaml" ]
ok $? "docs/VM.md has a yaml block under '## CI: two kernels in one job'"
python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' "$tmp/vm.yaml" >"$tmp/vm.json" 2>"$tmp/err"
ok $? "it parses as YAML $(head -n 2 "$tmp/err" | tr '\n' ' ')"
v() { jq -r "$@" "$tmp/vm.json"; }
is "$(v '.jobs | length')" 1 "one job: both kernels measured and compared on one machine"
job=$(v '.jobs | keys[0]')
is "$(v --arg j "$job" '.jobs[$j]."timeout-minutes" | type')" number "the job has timeout-minutes"
step_of() { v --arg j "$job" --arg re "$1" '[.jobs[$j].steps | to_entries[] | select((.value.run // "") | test($re)) | .key] | first // -1'; }
kvm_step=$(step_of '/dev/kvm') measure_step=$(step_of '\./runtest\.sh') cmp_step=$(step_of '\./compare\.sh') deps_step=$(step_of 'make deps')
like "$kvm_step" '^[0-9]+$' "a step checks /dev/kvm"
ok $([ "$kvm_step" -ge 0 ] && [ "$kvm_step" -lt "$deps_step" ] && [ "$deps_step" -lt "$measure_step" ] && echo 0 || echo 1) \
	"before anything is installed, built or measured (steps $kvm_step < $deps_step < $measure_step)"
measure=$(v --arg j "$job" --argjson i "$measure_step" '.jobs[$j].steps[$i].run')
is "$(printf '%s\n' "$measure" | grep -o -- '--kernel ' | wc -l)" 2 "the measure step boots two kernels (--kernel BASE --kernel NEW: alternating rounds)"
like "$measure" '--repeat [0-9]+' "in a fixed number of rounds (--repeat)"
like "$measure" '--vm-accel "\$ACCEL"' "with the accelerator"
is "$(v --arg j "$job" --argjson i "$measure_step" '.jobs[$j].steps[$i].env.ACCEL')" '${{ steps.kvm.outputs.accel }}' "the KVM step found"
cmp=$(v --arg j "$job" --argjson i "$cmp_step" '.jobs[$j].steps[$i].run')
ok $([ "$cmp_step" -gt "$measure_step" ] && echo 0 || echo 1) "the compare step comes after the measurement, in the same job"
like "$cmp" 'GITHUB_STEP_SUMMARY' "it writes the job summary"
like "$cmp" 'exit "\$status"' "and exits with compare.sh's status (the gate)"
like "$cmp" 'tcg.*--force --fail-on never' "under TCG it reports without gating (compare.sh refuses TCG runs otherwise)"
is "$(v --arg j "$job" --argjson i "$cmp_step" '.jobs[$j].steps[$i].env.ACCEL')" '${{ steps.kvm.outputs.accel }}' "as the KVM step found"
for o in --force --fail-on --threshold --format; do
	has_option ./compare.sh "$o"
	ok $? "./compare.sh has the option $o"
done
for o in --kernel --quick --vm-accel; do
	has_option ./runtest.sh "$o"
	ok $? "./runtest.sh has the option $o"
done
is "$(v '[.jobs[].steps[] | select((.uses // "") | startswith("actions/upload-artifact")) | select((.if // "") | test("always\\(\\)") | not)] | length')" 0 \
	"the upload runs if: always()"
commands_exist "$(v '[.jobs[].steps[].run // ""] | join("\n")')"

# The KVM step itself, against a fake /dev/kvm and a sudo that does nothing
kvm_run=$(v --arg j "$job" --argjson i "$kvm_step" '.jobs[$j].steps[$i].run')
mkdir "$tmp/fakebin"
printf '#!/bin/sh\nexit 0\n' >"$tmp/fakebin/sudo"
chmod 755 "$tmp/fakebin/sudo"
printf '%s\n' "$kvm_run" | sed "s#/dev/kvm#$tmp/kvm#g" >"$tmp/kvm.sh"
kvm() {	# kvm PRESENT REQUIRE: run the step; -> rc, out, err, accel (its output), summary
	rm -f "$tmp/kvm" "$tmp/gh_out" "$tmp/gh_sum"
	[ "$1" = yes ] && : >"$tmp/kvm"
	run env PATH="$tmp/fakebin:$PATH" GITHUB_OUTPUT="$tmp/gh_out" GITHUB_STEP_SUMMARY="$tmp/gh_sum" SB_REQUIRE_KVM="$2" \
		bash -e "$tmp/kvm.sh"
	accel=$(sed -n 's/^accel=//p' "$tmp/gh_out" 2>/dev/null) summary=$(cat "$tmp/gh_sum" 2>/dev/null)
}
kvm yes ""
is "$rc:$accel" "0:kvm" "a usable /dev/kvm: accel=kvm"
kvm no ""
is "$rc:$accel" "0:tcg" "no /dev/kvm: accel=tcg, and the job goes on"
like "$out" '::warning::.*TCG.*refuses.*does not gate' "with a warning that says what happens under TCG"
like "$summary" 'does not gate' "in the job summary too"
kvm no 1
is "$rc" 1 "SB_REQUIRE_KVM=1 without KVM fails the job"

# The run: scripts as actionlint checks them: shellcheck on each, its ${{ }} expressions replaced by
# underscores, with the checks actionlint turns off for them (SC1091, SC2050, SC2154, SC2157, SC2194)
if command -v shellcheck >/dev/null; then
	for y in "$tmp/ci.yaml" "$tmp/vm.yaml"; do
		n=$(python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1]))
for j in d["jobs"].values():
    for s in j["steps"]:
        if "run" in s: print(len(s["run"]))' "$y" | wc -l)
		for ((i = 0; i < n; i++)); do
			python3 -c 'import re, sys, yaml; d = yaml.safe_load(open(sys.argv[1]))
runs = [s["run"] for j in d["jobs"].values() for s in j["steps"] if "run" in s]
sys.stdout.write(re.sub(r"\$\{\{.*?\}\}", lambda m: "_" * len(m.group(0)), runs[int(sys.argv[2])]))' "$y" "$i" >"$tmp/step.sh"
			run shellcheck --norc -s bash -e SC1091,SC2050,SC2154,SC2157,SC2194 "$tmp/step.sh"
			is "$rc:$out" "0:" "${y##*/}: run script $((i + 1)) of $n is shellcheck-clean"
		done
	done
else
	skip "no shellcheck: the run scripts are not checked"
fi
if command -v actionlint >/dev/null; then
	mkdir -p "$tmp/wf/.github/workflows"
	cp "$tmp/vm.yaml" "$tmp/wf/.github/workflows/vm.yml"
	cp "$tmp/ci.yaml" "$tmp/wf/.github/workflows/compare.yml"
	run sh -c 'cd "$1" && actionlint -shellcheck= .github/workflows/vm.yml .github/workflows/compare.yml' sh "$tmp/wf"
	is "$rc:$out" "0:" "actionlint finds nothing in either workflow"
else
	skip "actionlint is not installed (a Go binary, not packaged by Debian 12): the workflows are not linted"
fi
plan "$_n"
exit "$_failed"
