#!/usr/bin/env bash
# same_dryrun.sh: runtest.sh's --dry-run, --help, --list and its refusals give the same bytes and exit codes at git revision REV as in the work tree.
#
#   selftest/bench/same_dryrun.sh REV
#
# same_output.sh compares the analysis tools; this compares what a user sees of
# the sweep driver before anything runs, where a refactor of runtest.sh (its
# options into sb-sweepargs, its budget words into sb-plan) could change it.
# REV is checked out (git worktree, detached) into a temporary directory and
# built; each case below runs there and in the work tree on a synthetic
# 2-package, 4-node, 96-core topology.
# Exit 0 when every case is the same, 1 when one differs (its diff shown),
# 2 usage error, 3 REV cannot be checked out or built.
set -eu

TOPOLOGY='pack:2 numa:2 core:24 pu:2'

usage() {
	sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# cases: one line a case, runtest.sh's arguments (--dry-run is added where the line says DRY)
cases() {
	cat <<'EOF'
DRY getppid1
DRY getppid1 --max-procs 8
DRY unix1 --max-procs 96 --mode processes
DRY pipe1 --points all --max-procs 16 --step 4
DRY getppid1 --points 1,2,4 --repeat 3 --duration 0.5
DRY getppid1 --quick
DRY getppid1 --points topology
DRY getppid1 --budget 120 --point-budget 10 --precision 1
DRY getppid1 --seed 7 --max-points 5 --max-procs 48
DRY getppid1 --warmup 0 --period-ms 100 --min-runs 2 --max-runs 4
DRY getppid1 --smt --placement spread
DRY getppid1 --points 0
DRY getppid1 --budget 0
DRY getppid1 --nonsense
DRY getppid1 --duration x
DRY getppid1 --min-procs 5 --max-procs 2
--help
--list
--version-of-nothing
EOF
}

# outputs DIR: every case's arguments, output (both streams) and exit code, run in DIR
outputs() {
	local line a rc
	while IFS= read -r line; do
		read -ra a <<<"$line"
		if [ "${a[0]}" = DRY ]; then a=("${a[@]:1}" --dry-run --label x --results "$res"); fi
		rc=0
		printf '== %s\n' "$line"
		(cd "$1" && HWLOC_SYNTHETIC=$TOPOLOGY SB_MACHINE_BUSY_PCT=101 ./runtest.sh "${a[@]}" 2>&1) || rc=$?
		printf 'exit %d\n' "$rc"
	done < <(cases)
}

main() {
	[ $# = 1 ] || usage
	case $1 in -*) usage ;; esac
	local rev=$1
	here=$(cd "$(dirname "$0")/../.." && pwd)
	tmp=$(mktemp -d)
	trap 'git -C "$here" worktree remove --force "$tmp/old" >/dev/null 2>&1 || true; rm -rf -- "$tmp"' EXIT
	res=$tmp/results
	git -C "$here" worktree add -q --detach "$tmp/old" "$rev" >/dev/null 2>&1 ||
		{ echo "same_dryrun.sh: cannot check out $rev" >&2; exit 3; }
	make -s -C "$tmp/old" -j"$(nproc 2>/dev/null || echo 2)" all >"$tmp/old.log" 2>&1 ||
		{ tail -n 20 "$tmp/old.log" >&2; echo "same_dryrun.sh: $rev does not build" >&2; exit 3; }
	make -s -C "$here" -j"$(nproc 2>/dev/null || echo 2)" all >"$tmp/new.log" 2>&1 ||
		{ tail -n 20 "$tmp/new.log" >&2; echo "same_dryrun.sh: the work tree does not build" >&2; exit 3; }
	outputs "$tmp/old" >"$tmp/old.out"
	outputs "$here" >"$tmp/new.out"
	if diff -u "$tmp/old.out" "$tmp/new.out"; then
		printf 'same_dryrun.sh: %s against the work tree: %d cases, all the same\n' "$rev" "$(cases | wc -l)"
	else
		printf 'same_dryrun.sh: %s against the work tree: they differ (above)\n' "$rev"
		exit 1
	fi
}

main "$@"
