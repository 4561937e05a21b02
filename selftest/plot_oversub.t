#!/usr/bin/env bash
# plot.py marks the oversubscribed region (task counts above the cores, or PUs, in use) from meta's topology and placement.
# sb-san: skip: plot.py's oversubscribed region: Python and gnuplot
. "$(dirname "$0")/lib.sh"
if ! command -v gnuplot >/dev/null 2>&1; then echo "1..0 # skip gnuplot not installed"; exit 0; fi
plan 14
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The fixture run: 1 to 96 tasks on "packages=2 numa=2 cores=48 pus=96", placement cores.
SRC=selftest/data/plot/good/unix1/6.1.0-old-20260101T100000
P=plot/plot.py
SHADE='rgb\(244, 228, 228\)'

variant() {	# variant NAME TOPOLOGY PLACEMENT: a copy of the fixture run with that meta
	local d=$tmp/results/unix1/$1
	mkdir -p "$d"
	cp "$SRC/samples.csv" "$SRC/summary.csv" "$d/"
	# (a run id of its own: compare refuses a copy of a sweep with its run id as the same sweep)
	sed -e "s/^topology=.*/topology=$2/" -e "s/^placement=.*/placement=$3/" -e "s/^run_id=.*/run_id=$1-20260101T100000/" \
		"$SRC/meta" >"$d/meta"
	printf '%s' "$d"
}
cores=$(variant cores "packages=2 numa=2 cores=48 pus=96" cores)
pus=$(variant pus "packages=2 numa=2 cores=48 pus=96" pus)
none=$(variant none "packages=2 numa=2 cores=48 pus=96" none)
big=$(variant big "packages=4 numa=4 cores=96 pus=192" cores)
small=$(variant small "packages=1 numa=1 cores=2 pus=4" pus)
unknown=$(variant unknown "" cores)

run "$P" --results "$tmp/results"
is "$rc" 0 "plot.py draws the six variants${err:+ ($err)}"
grep -q 'oversubscribed: more tasks than the 48 cores' "$cores/scaling.svg" && grep -Eq "$SHADE" "$cores/scaling.svg"
ok $? "96 tasks on 48 cores: the region is shaded and labelled"
grep -q 'oversubscribed: more tasks than the 48 cores' "$cores/per_task.svg"
ok $? "in the per-task chart too"
! grep -q 'oversubscribed' "$pus/scaling.svg" && ! grep -Eq "$SHADE" "$pus/scaling.svg"
ok $? "placement pus (--smt): 96 tasks on 96 PUs are not oversubscribed"
! grep -q 'oversubscribed' "$none/scaling.svg"
ok $? "placement none: counted in PUs, as runtest.sh warns"
! grep -q 'oversubscribed' "$big/scaling.svg"
ok $? "96 tasks on 96 cores: no region"
grep -q 'oversubscribed: more tasks than the 4 PUs' "$small/scaling.svg"
ok $? "placement pus on 4 PUs: the label names PUs"
! grep -q 'oversubscribed' "$unknown/scaling.svg"
ok $? "no topology in meta: nothing is marked"
run "$P" --terminal "$cores"
is "$rc" 0 "the terminal plot draws"
like "$out" 'oversubscribed: more tasks than the 48 cores' "the terminal plot names the region"
run "$P" --terminal "$big"
unlike "$out" 'oversubscribed' "and says nothing without one"
# a comparison marks the region when its runs agree on it
run "$P" --compare "$cores" "$SRC" --out "$tmp/cmp"
is "$rc" 0 "plot.py --compare draws${err:+ ($err)}"
grep -q 'oversubscribed: more tasks than the 48 cores' "$tmp/cmp.svg" && grep -Eq "$SHADE" "$tmp/cmp.svg"
ok $? "two runs on 48 cores: the comparison shades and names the region"
run "$P" --force --compare "$cores" "$big" --out "$tmp/cmp2"
! grep -q 'oversubscribed' "$tmp/cmp2.svg" && ! grep -Eq "$SHADE" "$tmp/cmp2.svg"
ok $? "runs that disagree (48 and 96 cores): nothing is marked"
