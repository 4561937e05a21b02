#!/usr/bin/env bash
# bisect_sim.sh: sb-bisect's decision rule (analysis/bisect/decide.c) on synthetic noise, no runner: how often a bisect names the right commit, and the runs it costs.
# Not part of make check. Compiles selftest/bench/bisect_sim.c against the build's
# libsbanalysis.a (make), then for each cell (a change of CHANGES %, runs with SDS % sd)
# runs TRIALS (200) seeded bisects over COMMITS (1024) commits: the first bad commit
# drawn uniformly, each end measured with END_RUNS (30) runs, the ends checked as
# sb-bisect checks them (a refusal counts as not found), then git's binary search with
# the sequential test at each step (the default rule: alpha = beta = 0.002, 2 to 24
# runs; 2 to 96 with MODEL=drift, sb-bisect's default then), a step that cannot tell skipped as git bisect skip does (the next commit to
# the middle). DRIFT (0): the sd, %, of a sweep's offset (every run of one sweep shares
# it: each end is one sweep, each step a sweep every 2 runs as sb-bisect takes them), the
# machine's drift between sweeps. END_SWEEPS (1): each end's runs in that many sweeps, each
# its own offset. MODEL: runs (default: the rule on runs, sb_decide) or drift (the rule on
# sweeps with the drift in it, sb_decide_drift, as sb-bisect decides), the drift learned as
# the tool would: the default 2%, moderated by the ends' own sweeps, a history of HIST (0)
# sweeps and the bisect's earlier steps (each a commit's sweeps), never given the true value;
# the ends are checked again before every step with that figure, as sb-bisect does, and a
# stop there counts as ends refused. A wrong commit (a bisect that ended on another commit
# than the first bad one) is a column of its own. Prints a markdown table on stdout.
set -eu

main() {
	local b=${SB_BUILD:-build} changes=${CHANGES:-3 5 10} sds=${SDS:-1 2 5} ch sd seed=1 r
	tmp=$(mktemp -d)
	trap 'rm -rf -- "$tmp"' EXIT
	cd "$(dirname "$0")/../.."
	make -s BUILD="$b" "$b/libsbanalysis.a" >&2
	"${CC:-cc}" -std=gnu11 -O2 -Wall -Wextra -I. -Ianalysis $(printf -- "-I%s " analysis/*/) -o "$tmp/sim" selftest/bench/bisect_sim.c "$b/libsbanalysis.a" -lm
	echo "| change | run sd | right commit | wrong commit | ends refused | unresolved (skips) | runs a step (mean) | runs a step (max) | steps a bisect |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for ch in $changes; do
		for sd in $sds; do
			r=$("$tmp/sim" "$ch" "$sd" "${DRIFT:-0}" "${COMMITS:-1024}" "${END_RUNS:-30}" "${TRIALS:-200}" "$seed" \
				"${END_SWEEPS:-1}" "${HIST:-0}" "${MODEL:-runs}")
			seed=$((seed + 1))
			# change sd trials right refused unresolved skips steps runs maxrun wrong
			awk '{ printf "| %s%% | %s%% | %.1f%% (%d/%d) | %.1f%% | %.1f%% | %.1f%% (%d) | %.2f | %d | %.1f |\n",
				$1, $2, 100 * $4 / $3, $4, $3, 100 * $11 / $3, 100 * $5 / $3, 100 * $6 / $3, $7,
				$8 ? $9 / $8 : 0, $10, ($3 - $5) ? $8 / ($3 - $5) : 0 }' <<<"$r"
		done
	done
}

main "$@"
